import { readFileSync } from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';
import { errorBodySchema } from '../../errors.ts';
import { hiddenFieldsOf } from '../../../shared/ability.ts';
import { isHiddenField } from '../../../shared/hidden-fields.ts';
import { sqlText } from '../../../shared/pointer.ts';
import type { EntityTable } from '../../db/entity-table.ts';
import type { EntityDefinition } from '../../../definitions/registry.ts';
import type { CapabilityOptions } from '../registry.ts';
import type { ChainNode } from '../../../generated/replies.ts';

/** How far up a chain is followed and how many records it may hold: a cycle or a runaway chain stops there. */
const MAX_DEPTH = 30;
const MAX_NODES = 500;

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;

interface ChainRow {
  id: number;
  parent: number | null;
  depth: number;
  status: string;
  label: string | null;
  link: string | null;
  date: string | null;
  created_at: string;
  updated_at: string;
}

/** The reply schemas of the chain route (codegen types them: src/generated/replies.ts). */
const nodeSchema = (
  JSON.parse(readFileSync(new URL('./replies.json', import.meta.url), 'utf8')) as Record<string, object>
).ChainNode!;

/** SQL of a field as an integer: its indexed column when the grid made one, else read from `data`. */
function intExpr(table: EntityTable, pointer: string, source: string): string {
  const column = table.columns.get(pointer);
  return column && column.type === 'bigint'
    ? `${source}.${column.column}`
    : `NULLIF(${sqlText(pointer, `${source}.data`)}, '')::bigint`;
}

/**
 * The SQL of a chain: the root found by walking up from the record (at most MAX_DEPTH steps,
 * a cycle stops), then every descendant in pre-order (children by id), with what a node shows.
 */
function chainSql(def: EntityDefinition, table: EntityTable): string {
  const spec = def.manifest.chain!;
  const t = table.table;
  const parentOf = (source: string) => intExpr(table, spec.parentField, source);
  const text = (pointer: string | undefined) => (pointer ? sqlText(pointer, 'r.data') : 'NULL');
  const iso = (column: string) => `to_char(r.${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
  return `WITH RECURSIVE up(id, parent, steps, seen) AS (
      SELECT r.id, ${parentOf('r')}, 0, ARRAY[r.id] FROM ${t} r WHERE r.id = $1
      UNION ALL
      SELECT r.id, ${parentOf('r')}, up.steps + 1, up.seen || r.id
        FROM ${t} r JOIN up ON r.id = up.parent
       WHERE NOT r.id = ANY(up.seen) AND up.steps < ${MAX_DEPTH}
    ), root AS (
      SELECT id FROM up ORDER BY steps DESC LIMIT 1
    ), down(id, parent, depth, path) AS (
      SELECT root.id, NULL::bigint, 0, ARRAY[root.id] FROM root
      UNION ALL
      SELECT r.id, down.id, down.depth + 1, down.path || r.id
        FROM ${t} r JOIN down ON ${parentOf('r')} = down.id
       WHERE NOT r.id = ANY(down.path) AND down.depth < ${MAX_DEPTH}
    )
    SELECT d.id::int AS id, d.parent::int AS parent, d.depth, r.status,
           ${text(def.manifest.labelField)} AS label, ${text(spec.linkField)} AS link,
           ${text(spec.dateField)} AS date, ${iso('created_at')} AS created_at, ${iso('updated_at')} AS updated_at
      FROM down d JOIN ${t} r ON r.id = d.id
     ORDER BY d.path LIMIT ${MAX_NODES}`;
}

/**
 * `GET /api{base}/chain/{id}` for entities whose manifest declares `chain`: the chain the
 * record belongs to (root → descendants, pre-order), for a reader who may read the record
 * (else 401/403/404 as `get`). Nodes outside the reader's scope are "restricted" — their place
 * only —, and fields hidden from the reader (label, link, date) are null.
 */
const chain: FastifyPluginAsync<CapabilityOptions> = async (app, { entities }) => {
  for (const def of entities) {
    const spec = def.manifest.chain!;
    const table = app.tables.get(def.id)!;
    const sql = chainSql(def, table);
    app.get<{ Params: { id: number } }>(
      `/api${def.manifest.base}/chain/:id`,
      {
        schema: {
          tags: [def.manifest.subject],
          summary: `The chain of ${def.id} records the record belongs to (root → descendants)`,
          params: idParams,
          response: {
            200: {
              type: 'object',
              required: ['list'],
              properties: { list: { type: 'array', items: nodeSchema } },
            },
            401: errorBodySchema,
            403: errorBodySchema,
            404: errorBodySchema,
          },
        },
      },
      async (request) => {
        const { actor } = request;
        const { id } = request.params;
        await app.store.get(def.id, id, actor);
        const { rows } = await app.db.query<ChainRow>(sql, [id]);
        const readable = await readableIds(
          app,
          def,
          table,
          rows.map((r) => r.id),
          actor,
        );
        const hidden = hiddenFieldsOf(actor.ability, def.manifest.subject);
        const shows = (pointer: string | undefined) => Boolean(pointer) && !isHiddenField(hidden, pointer!);
        const index = new Map(rows.map((r, i) => [r.id, i]));
        const list: ChainNode[] = rows.map((r) => {
          const place = {
            parent: r.parent === null ? null : (index.get(r.parent) ?? null),
            depth: r.depth,
            current: r.id === id,
          };
          if (!readable.has(r.id)) return { ...place, restricted: true };
          return {
            ...place,
            restricted: false,
            id: r.id,
            label: shows(def.manifest.labelField) ? r.label : null,
            link: shows(spec.linkField) ? r.link : null,
            status: r.status,
            date: shows(spec.dateField) ? r.date : null,
            createdAt: r.created_at,
            updatedAt: r.updated_at,
          };
        });
        return { list };
      },
    );
  }
};

/** Which of the ids the actor may read: list-search's scope over the same rows. */
async function readableIds(
  app: Parameters<FastifyPluginAsync>[0],
  def: EntityDefinition,
  table: EntityTable,
  ids: number[],
  actor: Parameters<typeof app.store.readableWhere>[2],
): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const scoped = app.store.readableWhere(def.id, {}, actor);
  const params = [...scoped.params, ids];
  const condition = `id = ANY($${params.length}::bigint[])`;
  const where = scoped.where ? `${scoped.where} AND ${condition}` : `WHERE ${condition}`;
  const { rows } = await app.db.query<{ id: number }>(`SELECT id::int AS id FROM ${table.table} ${where}`, params);
  return new Set(rows.map((r) => r.id));
}

export default chain;
