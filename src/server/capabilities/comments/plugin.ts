import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { ApiError, badInput, errorBodySchema, notFound } from '../../errors.ts';
import { fileReply, filePart, handlerReadsBody, multipartBody, objectReply } from '../../reply-schemas.ts';
import { createServerAjv } from '../../validation.ts';
import { toFieldProblems } from '../../../shared/validation/field-errors.ts';
import { messengerNameSql } from '../../auth/user-directory.ts';
import type { EntityDefinition } from '../../../definitions/registry.ts';
import type { CapabilityOptions } from '../registry.ts';
import { COMMENT_TABLES, commentQueries, type CommentFileRow, type CommentRow } from './tables.ts';
import { readCommentForm } from './form.ts';

/** This capability's tables (db/migrations.ts). */
export const migrations = [COMMENT_TABLES];

/** The longest comment when the manifest names no `comments.maxLength`. */
export const DEFAULT_COMMENT_LENGTH = 4000;

const fileSchema = {
  type: 'object',
  properties: { id: { type: 'string' }, name: { type: 'string' }, mime: { type: 'string' }, size: { type: 'integer' } },
} as const;
const commentProperties = {
  id: { type: 'integer' },
  parentId: { type: ['integer', 'null'] },
  authorId: { type: 'string' },
  authorName: { type: 'string' },
  text: { type: 'string', description: 'Plain text (never HTML); empty for a deleted comment' },
  createdAt: { type: 'string' },
  editedAt: { type: ['string', 'null'] },
  deleted: { type: 'boolean' },
  mine: { type: 'boolean', description: 'The caller wrote it: they may edit and delete it' },
  files: { type: 'array', items: fileSchema },
} as const;
const commentSchema = {
  type: 'object',
  properties: {
    ...commentProperties,
    replies: { type: 'array', items: { type: 'object', properties: commentProperties } },
  },
} as const;
const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;
const fileParams = {
  type: 'object',
  required: ['fileId'],
  properties: { fileId: { type: 'string', format: 'uuid' } },
} as const;
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  413: errorBodySchema,
  415: errorBodySchema,
};

/** What a reply says of one comment. */
type CommentReply = Record<string, unknown> & { id: number; replies?: CommentReply[] };

/**
 * Comment threads on records of the entities that declare `comments`: who may read a record
 * reads its comments and may add one (the record's own refusal, 401/403/404, answers everyone
 * else); the author alone edits or deletes a comment. Text is plain and length-limited; files
 * stream to storage under the manifest's limits and download to the record's readers.
 */
const comments: FastifyPluginAsync<CapabilityOptions> = async (app, { entities }) => {
  if (!entities.length) return;
  await app.register(multipart, { throwFileSizeLimit: true });
  const access = app.definitions.access;
  const userTable = access ? app.tables.get(access.userEntity)?.table : undefined;
  const queries = commentQueries(
    app.db,
    userTable ?? '(SELECT NULL::bigint AS id, NULL::jsonb AS data)',
    messengerNameSql('u'),
  );
  const ajv = createServerAjv({ coerceTypes: true });

  for (const def of entities) registerEntity(def);

  function registerEntity(def: EntityDefinition): void {
    const entity = def.id;
    const options = def.manifest.comments!;
    const maxLength = options.maxLength ?? DEFAULT_COMMENT_LENGTH;
    const base = `/api${def.manifest.base}/comments`;
    const tags = [def.manifest.subject];
    const validate = ajv.compile({
      type: 'object',
      required: ['text'],
      properties: {
        text: { type: 'string', minLength: 1, maxLength },
        // An id past int4 is no comment of ours: refused here, never sent to the database.
        ...(options.replies ? { parentId: { type: 'integer', minimum: 1, maximum: 2147483647 } } : {}),
      },
    });

    /** The record as its reader sees it: refuses (401/403/404) exactly as reading the record does. */
    const mustRead = (recordId: number, request: FastifyRequest) => app.store.get(entity, recordId, request.actor);
    const signedIn = (request: FastifyRequest): string => {
      if (request.actor.id === null) throw new ApiError(401, 'errors.unauthorized');
      return request.actor.id;
    };
    /** A comment the caller wrote, on a record they may still read. */
    const mustOwn = async (id: number, request: FastifyRequest): Promise<CommentRow> => {
      const me = signedIn(request);
      const row = await queries.one(entity, id);
      if (!row || row.deleted) throw notFound();
      await mustRead(row.record_id, request);
      if (row.author !== me) throw new ApiError(403, 'errors.forbidden');
      return row;
    };
    /** The text and parent of a form, checked; problems name `/text` or `/parentId`. */
    const checked = (fields: Record<string, string>) => {
      const input: Record<string, unknown> = {};
      const text = (fields.text ?? '').replace(/\r\n/g, '\n').trim();
      if (text) input.text = text;
      if (fields.parentId) input.parentId = fields.parentId;
      if (!validate(input)) throw badInput(toFieldProblems(validate.errors));
      return { text, parentId: input.parentId === undefined ? null : Number(input.parentId) };
    };
    const toReply = (row: CommentRow, files: CommentFileRow[], me: string | null): CommentReply => ({
      id: row.id,
      parentId: row.parent_id,
      authorId: row.author,
      authorName: row.author_name?.trim() || `#${row.author}`,
      text: row.deleted ? '' : row.text,
      createdAt: row.created_at,
      editedAt: row.edited_at,
      deleted: row.deleted,
      mine: me !== null && row.author === me && !row.deleted,
      files: row.deleted
        ? []
        : files.filter((f) => f.comment_id === row.id).map(({ id, name, mime, size }) => ({ id, name, mime, size })),
    });

    app.get<{ Params: { id: number } }>(
      `${base}/list/:id`,
      {
        schema: {
          tags,
          summary: `The comments of a ${entity} record, oldest first, each with its replies (to whoever may read the record)`,
          params: idParams,
          response: {
            200: { type: 'object', properties: { list: { type: 'array', items: commentSchema } } },
            ...errors,
          },
        },
      },
      async (request) => {
        await mustRead(request.params.id, request);
        const rows = await queries.ofRecord(entity, request.params.id);
        const files = await queries.files(rows.map((r) => r.id));
        const me = request.actor.id;
        const top: CommentReply[] = [];
        const byId = new Map<number, CommentReply>();
        for (const row of rows) {
          const item = toReply(row, files, me);
          const parent = row.parent_id === null ? undefined : byId.get(row.parent_id);
          if (parent) (parent.replies ??= []).push(item);
          else {
            item.replies = [];
            top.push(item);
            byId.set(row.id, item);
          }
        }
        // A thread whose first comment was deleted and has no answers says nothing.
        return { list: top.filter((c) => !c.deleted || c.replies?.length) };
      },
    );

    app.post<{ Params: { id: number } }>(
      `${base}/create/:id`,
      {
        validatorCompiler: handlerReadsBody(),
        schema: {
          tags,
          summary: `Comment on a ${entity} record (multipart: text, parentId?, files; or JSON without files)`,
          params: idParams,
          body: multipartBody(
            {
              text: { type: 'string', maxLength },
              ...(options.replies
                ? {
                    parentId: { type: 'integer', minimum: 1, maximum: 2147483647, description: 'The comment answered' },
                  }
                : {}),
              ...(options.files ? { files: { type: 'array', items: filePart('An attached file') } } : {}),
            },
            ['text'],
          ),
          response: { 200: commentSchema, ...errors },
        },
      },
      async (request) => {
        const me = signedIn(request);
        const recordId = request.params.id;
        // Refused before the body is read: nothing is stored for whoever may not comment.
        await mustRead(recordId, request);
        const form = await readCommentForm(app, request, def.manifest);
        try {
          const { text, parentId } = checked(form.fields);
          let parent: CommentRow | undefined;
          if (parentId !== null) {
            parent = await queries.one(entity, parentId);
            if (!parent || parent.record_id !== recordId)
              throw badInput([{ pointer: '/parentId', key: 'validation.type', params: {} }]);
          }
          const id = await app.db.transaction(async (tx) => {
            const { rows } = await tx.query<{ id: number }>(
              `INSERT INTO record_comment (entity, record_id, parent_id, author, text) VALUES ($1, $2, $3, $4, $5) RETURNING id::int AS id`,
              // Answers form one level: an answer to an answer joins its thread.
              [entity, recordId, parent ? (parent.parent_id ?? parent.id) : null, me, text],
            );
            for (const f of form.files)
              await tx.query(
                'INSERT INTO record_comment_file (id, comment_id, name, mime, size, sha256) VALUES ($1, $2, $3, $4, $5, $6)',
                [f.id, rows[0]!.id, f.name, f.mime, f.size, f.sha256],
              );
            return rows[0]!.id;
          });
          const row = (await queries.one(entity, id))!;
          return toReply(row, await queries.files([id]), me);
        } catch (error) {
          await form.discard();
          throw error;
        }
      },
    );

    app.put<{ Params: { id: number } }>(
      `${base}/update/:id`,
      {
        schema: {
          tags,
          summary: `Change the text of one's own comment on a ${entity} record`,
          params: idParams,
          body: objectReply('The new text', { text: { type: 'string' } }),
          response: { 200: commentSchema, ...errors },
        },
      },
      async (request) => {
        const row = await mustOwn(request.params.id, request);
        const { text } = checked({ text: String((request.body as { text?: unknown })?.text ?? '') });
        await app.db.query('UPDATE record_comment SET text = $2, edited_at = now() WHERE id = $1', [row.id, text]);
        const updated = (await queries.one(entity, row.id))!;
        return toReply(updated, await queries.files([row.id]), request.actor.id);
      },
    );

    app.delete<{ Params: { id: number } }>(
      `${base}/delete/:id`,
      {
        schema: {
          tags,
          summary: `Delete one's own comment on a ${entity} record: it shows as deleted, its answers stay`,
          params: idParams,
          response: { 200: objectReply('The deleted comment', { id: { type: 'integer' } }), ...errors },
        },
      },
      async (request) => {
        const row = await mustOwn(request.params.id, request);
        const files = await queries.files([row.id]);
        await app.db.transaction(async (tx) => {
          await tx.query('DELETE FROM record_comment_file WHERE comment_id = $1', [row.id]);
          await tx.query(`UPDATE record_comment SET text = '', deleted_at = now() WHERE id = $1`, [row.id]);
        });
        await Promise.all(files.map((f) => app.fileStorage.remove(f.id)));
        return { id: row.id };
      },
    );

    app.get<{ Params: { fileId: string } }>(
      `${base}/file/:fileId`,
      {
        schema: {
          tags,
          summary: `Download a file of a comment on a ${entity} record (to whoever may read the record)`,
          params: fileParams,
          response: { 200: fileReply('The file, as an attachment with its stored type'), 404: errorBodySchema },
        },
      },
      async (request, reply) => {
        const file = await queries.file(entity, request.params.fileId);
        if (!file) throw notFound();
        await mustRead(file.record_id, request);
        const stream = await app.fileStorage.get(file.id);
        if (!stream) throw notFound();
        return reply
          .header('content-type', file.mime)
          .header('content-length', file.size)
          .header('etag', `"${file.sha256}"`)
          .header('x-content-type-options', 'nosniff')
          .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
          .send(stream);
      },
    );
  }
};

export default comments;
