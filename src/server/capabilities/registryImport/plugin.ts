import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { EntityDefinition } from '../../../definitions/registry.ts';
import { businessDate } from '../../../shared/business-day.ts';
import { resolveFieldSchema } from '../../../shared/field-schema.ts';
import { DEFAULT_LOCALE, type Locale } from '../../../shared/locales.ts';
import { valueAt } from '../../../shared/pointer.ts';
import { systemActor } from '../../auth/access.ts';
import type { Migration } from '../../db/migrations.ts';
import { ApiError, errorBodySchema } from '../../errors.ts';
import type { CapabilityOptions } from '../registry.ts';

/** Every run of every registry's import, with its counts; a scheduled run's period is unique per registry. */
export const migrations: Migration[] = [
  {
    name: 'registry-import',
    ddl: [
      `CREATE TABLE IF NOT EXISTS registry_import (
    id bigserial PRIMARY KEY,
    entity text NOT NULL,
    period text,
    trigger text NOT NULL,
    user_name text,
    started_at timestamptz NOT NULL,
    finished_at timestamptz,
    calls integer NOT NULL DEFAULT 0,
    fetched integer NOT NULL DEFAULT 0,
    created integer NOT NULL DEFAULT 0,
    updated integer NOT NULL DEFAULT 0,
    unchanged integer NOT NULL DEFAULT 0,
    failed integer NOT NULL DEFAULT 0,
    error jsonb,
    failures jsonb NOT NULL DEFAULT '[]'
  )`,
      'CREATE UNIQUE INDEX IF NOT EXISTS registry_import_period ON registry_import (entity, period) WHERE period IS NOT NULL',
      'CREATE INDEX IF NOT EXISTS registry_import_recent ON registry_import (entity, started_at DESC)',
    ],
  },
];

/** At most this many calls in one run (one per distinct value of a `distinct` parameter). */
const MAX_CALLS = 100;
/** Failed rows kept with a run, to show what went wrong. */
const MAX_FAILURES = 20;

interface Counts {
  calls: number;
  fetched: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
}

/** The period a scheduled run stands for: Tashkent's day, or its hour. */
function periodOf(every: 'hour' | 'day', now: Date): string {
  const local = new Date(now.getTime() + 5 * 3600_000).toISOString();
  return every === 'day' ? `day ${local.slice(0, 10)}` : `hour ${local.slice(0, 13)}`;
}

/** The parameter sets of one run: fixed texts and today's date, times each distinct value of a registry field. */
async function paramSets(app: FastifyInstance, def: EntityDefinition): Promise<Array<Record<string, string>>> {
  const spec = def.manifest.registryImport!;
  const fixed: Record<string, string> = {};
  let distinct: [string, string] | undefined;
  for (const [name, value] of Object.entries(spec.params ?? {})) {
    if (typeof value === 'string') fixed[name] = value;
    else if ('today' in value) fixed[name] = businessDate(app.config.clock());
    else distinct = [name, value.distinct.slice(1)];
  }
  if (!distinct) return [fixed];
  const { rows } = await app.db.query<{ v: string }>(
    `SELECT DISTINCT data->>$1 AS v FROM ${app.tables.get(def.id)!.table} WHERE data->>$1 IS NOT NULL ORDER BY 1 LIMIT ${MAX_CALLS}`,
    [distinct[1]],
  );
  return rows.map((r) => ({ ...fixed, [distinct[0]]: r.v }));
}

/** A row of the agency's answer as the registry's fields; a code no reference item has is a problem (thrown as text). */
function recordOf(app: FastifyInstance, def: EntityDefinition, row: Record<string, unknown>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const [pointer, from] of Object.entries(def.manifest.registryImport!.fields)) {
    const value = row[typeof from === 'string' ? from : from.from];
    if (value === undefined || value === null || value === '') continue;
    if (typeof from === 'string') {
      data[pointer.slice(1)] = value;
      continue;
    }
    const list = (resolveFieldSchema(def.schema, pointer) as { reference?: { list: string } }).reference!.list;
    const item = app.references.list(list)?.find((i) => i.code === String(value));
    if (!item) throw new Error(`${pointer.slice(1)}: no item with code "${String(value)}" in the list ${list}`);
    data[pointer.slice(1)] = item.id;
  }
  return data;
}

/** Writes one row: creates, updates when a value differs, or leaves the record as it is. */
async function writeRow(
  app: FastifyInstance,
  def: EntityDefinition,
  data: Record<string, unknown>,
): Promise<'created' | 'updated' | 'unchanged'> {
  const key = def.manifest.registryImport!.key.map((p) => p.slice(1));
  const table = app.tables.get(def.id)!.table;
  const { rows } = await app.db.query<{ id: string }>(
    `SELECT id FROM ${table} WHERE ${key.map((k, i) => `data->'${k}' = $${i + 1}::jsonb`).join(' AND ')} ORDER BY id LIMIT 1`,
    key.map((k) => JSON.stringify(data[k] ?? null)),
  );
  if (!rows.length) {
    await app.store.create(def.id, data, systemActor());
    return 'created';
  }
  const stored = (await app.store.get(def.id, Number(rows[0]!.id), systemActor())) as Record<string, unknown>;
  if (Object.entries(data).every(([k, v]) => JSON.stringify(stored[k]) === JSON.stringify(v))) return 'unchanged';
  await app.store.update(def.id, Number(rows[0]!.id), { ...stored, ...data }, systemActor());
  return 'updated';
}

/**
 * One run: every parameter set is asked of the agency through the platform (as the system, the
 * purpose naming the registry), every row written on its own — a refused row is counted and
 * listed, the others go on. The run's row is written first (a scheduled one claims its period)
 * and completed with the counts; an agency that fails ends the run with its error.
 */
export async function runImport(
  app: FastifyInstance,
  def: EntityDefinition,
  trigger: 'schedule' | 'manual',
  userName: string | null,
  locale: Locale = DEFAULT_LOCALE,
): Promise<{ id: number; counts: Counts; error: { key: string; params?: Record<string, unknown> } | null } | null> {
  const spec = def.manifest.registryImport!;
  const [agency = '', method = ''] = spec.integration.split('/');
  const now = app.config.clock();
  const claimed = await app.db.query<{ id: string }>(
    `INSERT INTO registry_import (entity, period, trigger, user_name, started_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (entity, period) WHERE period IS NOT NULL DO NOTHING RETURNING id`,
    [def.id, trigger === 'schedule' ? periodOf(spec.every, now) : null, trigger, userName, now.toISOString()],
  );
  if (!claimed.rows.length) return null;
  const id = Number(claimed.rows[0]!.id);
  const counts: Counts = { calls: 0, fetched: 0, created: 0, updated: 0, unchanged: 0, failed: 0 };
  const failures: Array<{ row: number; key: Record<string, unknown>; problem: string }> = [];
  const rowsPointer = app.definitions.integrations.get(agency)?.methods.get(method)?.result.rows ?? '/rows';
  let error: { key: string; params?: Record<string, unknown> } | null = null;
  try {
    for (const params of await paramSets(app, def)) {
      const reply = await app.integrations.call({
        agency,
        method,
        params,
        purpose: `${def.id} registry import (${trigger})`,
        actor: systemActor(),
        locale,
        fresh: true,
      });
      counts.calls++;
      const rows = (reply.result ? valueAt(reply.result, rowsPointer) : []) as
        | Array<Record<string, unknown>>
        | undefined;
      for (const row of Array.isArray(rows) ? rows : []) {
        const n = counts.fetched++;
        try {
          counts[await writeRow(app, def, recordOf(app, def, row))]++;
        } catch (problem) {
          if (problem instanceof ApiError && problem.statusCode >= 500) throw problem;
          counts.failed++;
          const text =
            problem instanceof ApiError
              ? (problem.fieldErrors ?? [])
                  .map((f) => `${f.pointer}: ${app.translator.t(DEFAULT_LOCALE, f.key, f.params)}`)
                  .join('; ') || app.translator.t(DEFAULT_LOCALE, problem.message)
              : (problem as Error).message;
          if (failures.length < MAX_FAILURES)
            failures.push({
              row: n + 1,
              key: Object.fromEntries(
                spec.key.map((p) => {
                  const from = spec.fields[p]!;
                  return [p, row[typeof from === 'string' ? from : from.from] ?? null];
                }),
              ),
              problem: text,
            });
        }
      }
    }
  } catch (failure) {
    if (!(failure instanceof ApiError)) throw failure;
    error = { key: failure.key, params: failure.params };
  } finally {
    await app.db.query(
      `UPDATE registry_import SET finished_at = $2, calls = $3, fetched = $4, created = $5, updated = $6, unchanged = $7,
         failed = $8, error = $9, failures = $10 WHERE id = $1`,
      [
        id,
        app.config.clock().toISOString(),
        counts.calls,
        counts.fetched,
        counts.created,
        counts.updated,
        counts.unchanged,
        counts.failed,
        error ? JSON.stringify(error) : null,
        JSON.stringify(failures),
      ],
    );
  }
  return { id, counts, error };
}

const runSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    trigger: { type: 'string' },
    userName: { type: ['string', 'null'] },
    startedAt: { type: 'string' },
    finishedAt: { type: ['string', 'null'] },
    calls: { type: 'integer' },
    fetched: { type: 'integer' },
    created: { type: 'integer' },
    updated: { type: 'integer' },
    unchanged: { type: 'integer' },
    failed: { type: 'integer' },
    error: { type: ['string', 'null'] },
    failures: { type: 'array', items: { type: 'object', additionalProperties: true } },
  },
} as const;

/**
 * The `registryImport` capability: per registry, the runs' log (GET) and "refresh now" (POST),
 * and the scheduled runs on the workflow sweep (durable: the period's row is the schedule, so a
 * second sweep, a restart or another instance adds nothing).
 */
const registryImport: FastifyPluginAsync<CapabilityOptions> = async (app, { entities }) => {
  if (!entities.length) return;
  const running = new Set<string>();
  for (const def of entities) {
    const base = `/api${def.manifest.base}/registry-import`;
    const subject = def.manifest.subject;
    app.get(
      base,
      {
        schema: {
          tags: ['Registry import'],
          summary: `The last runs of the ${def.id} import from another agency, newest first`,
          response: {
            200: {
              type: 'object',
              properties: {
                integration: { type: 'string' },
                agencyStatus: { type: 'string' },
                every: { type: 'string' },
                list: { type: 'array', items: runSchema },
              },
            },
            401: errorBodySchema,
            403: errorBodySchema,
          },
        },
      },
      async (request) => {
        if (request.actor.id === null) throw new ApiError(401, 'errors.unauthorized');
        if (!request.actor.ability.can('read', subject)) throw new ApiError(403, 'errors.forbidden');
        const spec = def.manifest.registryImport!;
        const { rows } = await app.db.query<Record<string, unknown>>(
          'SELECT * FROM registry_import WHERE entity = $1 ORDER BY started_at DESC, id DESC LIMIT 50',
          [def.id],
        );
        return {
          integration: spec.integration,
          agencyStatus: app.integrations.statusOf(spec.integration.split('/')[0]!),
          every: spec.every,
          list: rows.map((r) => {
            const error = (typeof r.error === 'string' ? JSON.parse(r.error) : r.error) as {
              key: string;
              params?: Record<string, unknown>;
            } | null;
            return {
              id: Number(r.id),
              trigger: r.trigger,
              userName: r.user_name ?? null,
              startedAt: new Date(r.started_at as string).toISOString(),
              finishedAt: r.finished_at ? new Date(r.finished_at as string).toISOString() : null,
              calls: r.calls,
              fetched: r.fetched,
              created: r.created,
              updated: r.updated,
              unchanged: r.unchanged,
              failed: r.failed,
              error: error ? app.translator.t(request.locale, error.key, error.params) : null,
              failures: typeof r.failures === 'string' ? JSON.parse(r.failures) : r.failures,
            };
          }),
        };
      },
    );
    app.post(
      base,
      {
        schema: {
          tags: ['Registry import'],
          summary: `Refreshes the ${def.id} registry from another agency now`,
          response: {
            200: runSchema,
            401: errorBodySchema,
            403: errorBodySchema,
            409: errorBodySchema,
            503: errorBodySchema,
          },
        },
      },
      async (request) => {
        if (request.actor.id === null) throw new ApiError(401, 'errors.unauthorized');
        if (!request.actor.ability.can('create', subject)) throw new ApiError(403, 'errors.forbidden');
        if (running.has(def.id)) throw new ApiError(409, 'errors.registryImport.running');
        running.add(def.id);
        try {
          const run = (await runImport(app, def, 'manual', request.actor.username, request.locale))!;
          if (run.error) throw new ApiError(503, run.error.key, run.error.params ? { params: run.error.params } : {});
          return {
            id: run.id,
            trigger: 'manual',
            userName: request.actor.username,
            ...run.counts,
            error: null,
            failures: [],
          };
        } finally {
          running.delete(def.id);
        }
      },
    );
  }
  // The schedule rides on the workflow sweep, as the automatic reports do.
  const engine = app.workflow;
  const { sweep } = engine;
  engine.sweep = async (limit) => {
    const moved = await sweep(limit);
    for (const def of entities) {
      const agency = def.manifest.registryImport!.integration.split('/')[0]!;
      if (app.integrations.statusOf(agency) === 'notConnected') continue;
      await runImport(app, def, 'schedule', null).catch((error: unknown) =>
        app.log.error({ err: error, entity: def.id }, 'registry import failed'),
      );
    }
    return moved;
  };
};

export default registryImport;
