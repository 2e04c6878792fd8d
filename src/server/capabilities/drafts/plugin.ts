import type { FastifyPluginAsync } from 'fastify';
import { randomUUID } from 'node:crypto';
import { badInput, errorBodySchema, notFound } from '../../errors.ts';
import { handlerReadsBody, objectReply } from '../../reply-schemas.ts';
import { createServerAjv } from '../../validation.ts';
import { toDraftSchema } from '../../store/draft-schema.ts';
import { toFieldProblems } from '../../../shared/validation/field-errors.ts';
import { SYSTEM_FIELDS } from '../../../shared/field-schema.ts';
import type { Actor } from '../../store/entity-store.ts';
import type { Migration } from '../../db/migrations.ts';
import type { CapabilityOptions } from '../registry.ts';
import { withServerOwnedFrom } from '../../store/server-owned.ts';

/** Drafts of any entity: unvalidated input, reachable by the draft's random id. */
const DRAFT_TABLES: Migration = {
  name: 'drafts',
  ddl: [
    `CREATE TABLE IF NOT EXISTS draft (
    id uuid PRIMARY KEY,
    entity text NOT NULL,
    data jsonb NOT NULL,
    owner text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
    `CREATE INDEX IF NOT EXISTS ix_draft_updated ON draft (updated_at)`,
  ],
};
/** This capability's tables (db/migrations.ts). */
export const migrations = [DRAFT_TABLES];

interface DraftRow {
  id: string;
  entity: string;
  data: Record<string, unknown>;
  owner: string | null;
  updated_at: string;
}

const draftSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    data: { type: 'object', additionalProperties: true },
    updatedAt: { type: 'string' },
  },
} as const;
/**
 * Draft saves and loads an address may make a minute. Drafts need no account, so without a
 * budget anyone could fill the table; 30 is far above what a person filling in a form needs.
 */
export const DRAFTS_PER_MINUTE = 30;
const limited = { publicRateLimit: { bucket: 'drafts', perMinute: DRAFTS_PER_MINUTE } };

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' } } } as const;

/**
 * Drafts for entities whose manifest allows them: unfinished input kept without the
 * required-field checks, reachable by its private link (the draft's random id) — also for
 * someone without an account — and submitted through the store's normal create.
 */
const drafts: FastifyPluginAsync<CapabilityOptions> = async (app, { entities }) => {
  const ajv = createServerAjv();
  for (const def of entities) {
    const base = `/api${def.manifest.base}/draft`;
    const entity = def.id;
    const tags = [def.manifest.subject];
    const validate = ajv.compile(toDraftSchema(def.schema));
    const draftBody = { ...toDraftSchema(def.schema), $schema: undefined, title: undefined };
    // The handler checks the body (server-owned fields dropped first); the schema documents it.
    const documented = { config: limited, validatorCompiler: handlerReadsBody() };
    const errors = { 400: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema };
    const clean = (body: unknown): Record<string, unknown> => {
      const data = { ...((body && typeof body === 'object' ? body : {}) as Record<string, unknown>) };
      for (const f of SYSTEM_FIELDS) delete data[f];
      if (!validate(data)) throw badInput(toFieldProblems(validate.errors));
      return data;
    };
    const load = async (id: string, actor: Actor): Promise<DraftRow> => {
      const { rows } = await app.db.query<DraftRow>(
        `SELECT id::text, entity, data, owner, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at FROM draft WHERE id = $1 AND entity = $2`,
        [id, entity],
      );
      const row = rows[0];
      // A draft started by a signed-in user stays theirs; an anonymous one belongs to its link.
      if (!row || (row.owner !== null && row.owner !== actor.id)) throw notFound();
      return row;
    };
    const reply = (row: Pick<DraftRow, 'id' | 'data' | 'updated_at'>) => ({
      id: row.id,
      data: row.data,
      updatedAt: row.updated_at,
    });

    app.post(
      base,
      {
        ...documented,
        schema: {
          tags,
          summary: `Keep unfinished ${entity} input as a draft (no required-field checks); its id is its private link`,
          body: draftBody,
          response: { 200: draftSchema, ...errors },
        },
      },
      async (request) => {
        const data = clean(request.body);
        const id = randomUUID();
        const { rows } = await app.db.query<DraftRow>(
          `INSERT INTO draft (id, entity, data, owner) VALUES ($1, $2, $3::jsonb, $4)
         RETURNING id::text, data, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at`,
          [id, entity, JSON.stringify(data), request.actor.id],
        );
        return reply(rows[0]!);
      },
    );

    app.get<{ Params: { id: string } }>(
      `${base}/:id`,
      {
        config: limited,
        schema: {
          tags,
          summary: `A ${entity} draft by its link`,
          params: idParams,
          response: { 200: draftSchema, ...errors },
        },
      },
      async (request) => reply(await load(request.params.id, request.actor)),
    );

    app.put<{ Params: { id: string } }>(
      `${base}/:id`,
      {
        ...documented,
        schema: {
          tags,
          summary: `Replace a ${entity} draft's input`,
          params: idParams,
          body: draftBody,
          response: { 200: draftSchema, ...errors },
        },
      },
      async (request) => {
        await load(request.params.id, request.actor);
        const data = clean(request.body);
        const { rows } = await app.db.query<DraftRow>(
          `UPDATE draft SET data = $2::jsonb, updated_at = now() WHERE id = $1
         RETURNING id::text, data, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at`,
          [request.params.id, JSON.stringify(data)],
        );
        return reply(rows[0]!);
      },
    );

    app.delete<{ Params: { id: string } }>(
      `${base}/:id`,
      {
        config: limited,
        schema: {
          tags,
          summary: `Discard a ${entity} draft`,
          params: idParams,
          response: { 200: objectReply('The discarded draft', { id: { type: 'string' } }), ...errors },
        },
      },
      async (request) => {
        await load(request.params.id, request.actor);
        await app.db.query('DELETE FROM draft WHERE id = $1', [request.params.id]);
        return { id: request.params.id };
      },
    );

    app.post<{ Params: { id: string } }>(
      `${base}/:id/submit`,
      {
        config: limited,
        schema: {
          tags,
          summary: 'Submit a draft: validated like create; the draft is gone once the record exists',
          params: idParams,
          response: { 200: objectReply(`The created ${entity} record`), ...errors },
        },
      },
      async (request) => {
        const draft = await load(request.params.id, request.actor);
        const record = await app.store.create(entity, withServerOwnedFrom(def.schema, draft.data), request.actor, {
          locale: request.locale,
        });
        await app.db.query('DELETE FROM draft WHERE id = $1', [draft.id]);
        return record;
      },
    );
  }
};

export default drafts;
