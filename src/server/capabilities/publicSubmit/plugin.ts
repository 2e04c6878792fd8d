import type { FastifyPluginAsync } from 'fastify';
import multipart from '@fastify/multipart';
import { mkdir, rm } from 'node:fs/promises';
import { ApiError, badInput } from '../../errors.ts';
import { receiveFile, type ReceivedFile } from '../../files/receive.ts';
import { DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_FILES, DEFAULT_MIME_TYPES, formatBytes } from '../../files/limits.ts';
import { findFileFields } from '../../store/record-schema.ts';
import { mustBeSameRequest, requestHash } from '../../public/request-hash.ts';
import type { Queryable } from '../../db/database.ts';
import { errorBodySchema } from '../../errors.ts';
import { filePart, handlerReadsBody, multipartBody, objectReply } from '../../reply-schemas.ts';
import { PUBLIC_SUBMISSION_TABLES } from '../../public/tables.ts';
import type { CapabilityOptions } from '../registry.ts';
import { setAt } from '../../../shared/pointer.ts';
import { withServerOwnedFrom } from '../../store/server-owned.ts';

/** Submissions and their reference numbers. */
export const migrations = [PUBLIC_SUBMISSION_TABLES];

/** Submissions one address may make in a minute unless the manifest says otherwise. */
export const DEFAULT_SUBMITS_PER_MINUTE = 10;

interface Reply {
  id: number;
  referenceNumber: string;
  createdAt: string;
}

type Sets = Record<string, { guest: string | number | boolean; signedIn?: string | number | boolean }>;

/**
 * The data with the manifest's `sets` put in (a copy): the guest's value for a visitor, the
 * signed-in one for a user — what the sender put at those pointers does not count.
 * @example withServerFields({ a: 1, channelId: 7 }, { '/channelId': { guest: 1, signedIn: 2 } }, true) // { a: 1, channelId: 2 }
 */
export function withServerFields(
  data: Record<string, unknown>,
  sets: Sets | undefined,
  signedIn: boolean,
): Record<string, unknown> {
  if (!sets) return data;
  const out = structuredClone(data);
  for (const [pointer, value] of Object.entries(sets))
    setAt(out, pointer, signedIn ? (value.signedIn ?? value.guest) : value.guest);
  return out;
}

/** Thrown inside the transaction when another request with the same key won the race. */
class DuplicateKey extends Error {}

const KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;

/**
 * The next reference number of `prefix` in `year`, from its counter row, in the submission's
 * transaction: a submission refused or failed after this rolls the number back with it, so
 * numbers have no gaps. The row stays locked until the transaction ends, so submissions of
 * one prefix take their numbers one after another — the caller takes it last.
 */
async function nextReference(tx: Queryable, prefix: string, year: number): Promise<string> {
  const { rows } = await tx.query<{ value: string }>(
    `INSERT INTO reference_counter (prefix, year, value) VALUES ($1, $2, 1)
     ON CONFLICT (prefix, year) DO UPDATE SET value = reference_counter.value + 1 RETURNING value::text AS value`,
    [prefix, year],
  );
  return `${prefix}-${year}-${rows[0]!.value.padStart(6, '0')}`;
}

/**
 * Public multipart submissions (manifest `publicSubmit`): `POST /api<path>` with a `data`
 * field (the record as JSON), an optional `draftId` (a draft of the entity, removed with the
 * submit) and the attached files, without an account. The files, the record (created
 * through the store: validated, audited, files linked), its submission row with the
 * reference number and the draft's removal are one transaction, committed before the
 * answer — an acknowledged submission survives a crash. Reference numbers have no gaps
 * (`nextReference`). An `Idempotency-Key` header makes a repeated submit answer the first
 * one's reply instead of creating a second record; the key with other content (data fields or
 * files) is refused with 422. `GET /api/public-submit/<entity>/references?ids=…` answers a
 * signed-in user the reference numbers of their own submitted records (a cabinet shows them).
 */
const publicSubmit: FastifyPluginAsync<CapabilityOptions> = async (app, { entities }) => {
  await app.register(multipart, { throwFileSizeLimit: true });
  for (const def of entities) {
    const submit = def.manifest.publicSubmit!;
    const entity = def.id;
    // Attachments go to the record's top-level list of file ids.
    const fileField = findFileFields(def.schema).find((f) => f.path.length === 2 && f.path[1] === '*');
    const maxFiles = def.manifest.files?.maxFiles ?? DEFAULT_MAX_FILES;
    const maxBytes = def.manifest.files?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    const allowed = new Set(def.manifest.files?.mimeTypes ?? DEFAULT_MIME_TYPES);
    const perMinute = submit.perMinute ?? DEFAULT_SUBMITS_PER_MINUTE;

    /** The committed submission under `key`: its reply and its content's fingerprint. */
    const earlier = async (key: string): Promise<{ reply: Reply; hash: string | null } | undefined> => {
      const { rows } = await app.db.query<{ reply: Reply | null; request_hash: string | null }>(
        'SELECT reply, request_hash FROM public_submission WHERE entity = $1 AND idempotency_key = $2',
        [entity, key],
      );
      return rows[0]?.reply ? { reply: rows[0].reply, hash: rows[0].request_hash } : undefined;
    };

    // The reference numbers of the caller's own submitted records (a cabinet's cards show them).
    app.get<{ Querystring: { ids: string } }>(
      `/api/public-submit/${entity}/references`,
      {
        schema: {
          tags: [def.manifest.subject],
          summary: `Reference numbers of the signed-in user's own ${entity} records (ids comma-separated, at most 100)`,
          querystring: {
            type: 'object',
            additionalProperties: false,
            required: ['ids'],
            properties: { ids: { type: 'string', pattern: '^[0-9]{1,18}(,[0-9]{1,18}){0,99}$' } },
          },
          response: {
            200: objectReply('id → reference number, only of records the caller filed', {
              list: {
                type: 'array',
                items: objectReply('One record', { id: { type: 'integer' }, referenceNumber: { type: 'string' } }),
              },
            }),
            400: errorBodySchema,
            401: errorBodySchema,
          },
        },
      },
      async (request) => {
        if (!request.actor.id) throw new ApiError(401, 'errors.unauthorized');
        const ids = request.query.ids.split(',').map(Number);
        const { rows } = await app.db.query<{ id: number; reference: string }>(
          `SELECT s.record_id::int AS id, s.reference FROM public_submission s JOIN ${app.tables.get(entity)!.table} t ON t.id = s.record_id
           WHERE s.entity = $1 AND s.record_id = ANY($2::bigint[]) AND s.reference IS NOT NULL AND t.owner = $3`,
          [entity, ids, request.actor.id],
        );
        return { list: rows.map((r) => ({ id: r.id, referenceNumber: r.reference })) };
      },
    );

    app.post(
      `/api${submit.path}`,
      {
        validatorCompiler: handlerReadsBody(),
        schema: {
          tags: [def.manifest.subject],
          summary: `Submit a ${entity} without an account (multipart: data, draftId?, files); answers its reference number`,
          headers: {
            type: 'object',
            properties: {
              'idempotency-key': {
                type: 'string',
                description: "Makes a repeated submit answer the first one's reply (8–100 of A–Z a–z 0–9 _ -)",
              },
            },
          },
          body: multipartBody(
            {
              data: {
                type: 'string',
                contentMediaType: 'application/json',
                description: `The ${entity} record as JSON, valid against its schema (errors name pointers inside it)`,
              },
              draftId: {
                type: 'string',
                format: 'uuid',
                description: 'A draft of this entity, removed with the submit',
              },
              ...(fileField
                ? {
                    files: {
                      type: 'array',
                      maxItems: maxFiles,
                      items: filePart(`An attachment (at most ${formatBytes(maxBytes)})`),
                    },
                  }
                : {}),
            },
            ['data'],
          ),
          response: {
            200: {
              type: 'object',
              properties: {
                id: { type: 'integer' },
                referenceNumber: { type: 'string' },
                createdAt: { type: 'string' },
              },
            },
            400: errorBodySchema,
            409: errorBodySchema,
            413: errorBodySchema,
            415: errorBodySchema,
            429: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        if (!request.isMultipart()) throw new ApiError(415, 'errors.unsupportedType');
        const keyHeader = request.headers['idempotency-key'];
        const key = typeof keyHeader === 'string' && keyHeader ? keyHeader : undefined;
        if (key !== undefined && !KEY_PATTERN.test(key)) throw new ApiError(400, 'errors.badIdempotencyKey');
        // A repeat is answered whatever the address's budget; its content is compared once read.
        const done = key ? await earlier(key) : undefined;
        const recent = done
          ? undefined
          : await app.db.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM public_submission WHERE ip = $1 AND at > now() - interval '1 minute'`,
              [request.ip],
            );
        if (recent && recent.rows[0]!.n >= perMinute) {
          reply.header('retry-after', '60');
          throw new ApiError(429, 'errors.tooManyRequests', { params: { seconds: 60 } });
        }

        const storage = app.fileStorage;
        await mkdir(storage.tempDir, { recursive: true });
        const received: ReceivedFile[] = [];
        const cleanup = () => Promise.all(received.flatMap((f) => [rm(f.temp, { force: true }), storage.remove(f.id)]));
        let dataText: string | undefined;
        let draftId: string | undefined;
        let hash: string | null = null;
        try {
          for await (const part of request.parts({
            limits: { fileSize: maxBytes, files: maxFiles + 1, fields: 5, fieldSize: 1024 * 1024 },
          })) {
            if (part.type === 'field') {
              if (part.fieldname === 'data') dataText = String(part.value);
              else if (part.fieldname === 'draftId') draftId = String(part.value);
              continue;
            }
            if (!fileField || received.length >= maxFiles) {
              part.file.resume();
              throw new ApiError(413, 'errors.tooManyFiles', { params: { limit: fileField ? maxFiles : 0 } });
            }
            await receiveFile(part, storage.tempDir, allowed, received);
          }
          let data: Record<string, unknown> | undefined;
          try {
            data = JSON.parse(dataText ?? '') as Record<string, unknown>;
          } catch {
            data = undefined;
          }
          // The content a key stands for: the data as JSON (any key order), the draft, the files' SHA-256s in order.
          hash = key
            ? requestHash({
                data: data ?? dataText ?? null,
                draftId: draftId ?? null,
                files: received.map((f) => f.sha256),
              })
            : null;
          if (done) {
            mustBeSameRequest(done.hash, hash!);
            await cleanup();
            return done.reply;
          }
          if (data === undefined) throw badInput([{ pointer: '/data', key: 'validation.required', params: {} }]);
          if (!data || typeof data !== 'object' || Array.isArray(data))
            throw badInput([{ pointer: '/data', key: 'validation.type', params: {} }]);
          if (draftId !== undefined && !/^[0-9a-f-]{36}$/.test(draftId))
            throw badInput([{ pointer: '/draftId', key: 'validation.format', params: {} }]);
          if (fileField && received.length) {
            // Attachments of this request join the ids of files uploaded before (through /file-entity/save).
            const before = Array.isArray(data[fileField.path[0]!]) ? (data[fileField.path[0]!] as unknown[]) : [];
            data = { ...data, [fileField.path[0]!]: [...before, ...received.map((f) => f.id)] };
          }
          for (const f of received) await storage.put(f.id, f.temp);
          const result = await app.db.transaction(async (tx) => {
            const claimed = await tx.query<{ id: number }>(
              `INSERT INTO public_submission (entity, idempotency_key, request_hash, ip) VALUES ($1, $2, $3, $4) ON CONFLICT (entity, idempotency_key) DO NOTHING RETURNING id`,
              [entity, key ?? null, hash, request.ip],
            );
            if (!claimed.rows[0]) throw new DuplicateKey();
            for (const f of received) {
              await tx.query(
                'INSERT INTO file_entity (id, kind, name, mime, size, sha256, owner) VALUES ($1, $2, $3, $4, $5, $6, $7)',
                [f.id, entity, f.name, f.mime, f.size, f.sha256, request.actor.id],
              );
            }
            const record = await app.store.create(
              entity,
              withServerFields(
                withServerOwnedFrom(def.schema, data!) as typeof data,
                submit.sets,
                request.actor.id !== null,
              ),
              request.actor,
              { tx },
            );
            const referenceNumber = await nextReference(
              tx,
              submit.referencePrefix,
              new Date(String(record.createdAt)).getUTCFullYear(),
            );
            const answer: Reply = { id: record.id, referenceNumber, createdAt: String(record.createdAt) };
            await tx.query(
              'UPDATE public_submission SET record_id = $2, reference = $3, reply = $4::jsonb WHERE id = $1',
              [claimed.rows[0].id, record.id, referenceNumber, JSON.stringify(answer)],
            );
            // A draft started by a signed-in user stays theirs; an anonymous one belongs to its link.
            if (draftId)
              await tx.query('DELETE FROM draft WHERE id = $1 AND entity = $2 AND (owner IS NULL OR owner = $3)', [
                draftId,
                entity,
                request.actor.id,
              ]);
            return answer;
          });
          return result;
        } catch (error) {
          await cleanup();
          if (error instanceof DuplicateKey && key) {
            // Another request with this key committed first: a repeat of it, or another request.
            const first = await earlier(key);
            if (first) {
              mustBeSameRequest(first.hash, hash!);
              return first.reply;
            }
            throw new ApiError(409, 'errors.duplicateSubmit');
          }
          const code = (error as { code?: string }).code;
          if (code === 'FST_REQ_FILE_TOO_LARGE')
            throw new ApiError(413, 'errors.tooLarge', { params: { limit: formatBytes(maxBytes) } });
          if (code === 'FST_FILES_LIMIT')
            throw new ApiError(413, 'errors.tooManyFiles', { params: { limit: maxFiles } });
          throw error;
        }
      },
    );
  }
};

export default publicSubmit;
