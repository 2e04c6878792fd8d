import type { FastifyPluginAsync } from 'fastify';
import { ApiError, errorBodySchema } from '../errors.ts';
import { objectReply } from '../reply-schemas.ts';
import { statesAwaitingUser } from '../../definitions/work-queue.ts';
import { hiddenFieldsOf } from '../../shared/ability.ts';
import { isHiddenField } from '../../shared/hidden-fields.ts';
import { sqlText } from '../../shared/pointer.ts';
import { BUSINESS_TIME_ZONE } from '../../shared/time-zone.ts';
import type { Actor } from '../auth/access.ts';
import type { EntityDefinition } from '../../definitions/registry.ts';

/** Rows of one entity the staff home shows; `total` still counts them all. */
export const MY_WORK_ROWS = 10;

interface WorkRow {
  id: number;
  status: string;
  label: string | null;
  due: string | null;
  overdue: boolean;
  total: number;
}

const rowSchema = {
  type: 'object',
  required: ['id', 'status', 'label', 'due', 'overdue'],
  properties: {
    id: { type: 'integer' },
    status: { type: 'string', description: "The record's state (its label is the machine's text)" },
    label: { type: ['string', 'null'], description: "The manifest's labelField, unless hidden from the reader" },
    due: { type: ['string', 'null'], description: "The state's deadline (YYYY-MM-DD, Tashkent), if it keeps one" },
    overdue: { type: 'boolean', description: 'The deadline has passed' },
  },
} as const;

/**
 * `GET /api/my-work`: the records waiting for the signed-in user, per entity — those in a
 * state that awaits the user a record field names (src/definitions/work-queue.ts: the
 * machine's `actorIsAssigned` guards or a state's `awaits`), where the user holds the
 * permission of one of the state's events, within the rows they may read (the same scope as
 * list-search). One query per entity with such states; soonest deadline first.
 */
const myWork: FastifyPluginAsync = async (app) => {
  /** The condition "waits for this actor" over `def`'s rows, or undefined when nothing of it can. */
  const awaitingCondition = (
    def: EntityDefinition,
    actor: Actor,
    param: (v: unknown) => string,
  ): { sql: string; fields: string[] } | undefined => {
    const machine = def.manifest.workflow ? app.definitions.machines.get(def.manifest.workflow) : undefined;
    if (!machine || !actor.ability.can('read', def.manifest.subject)) return undefined;
    const hidden = hiddenFieldsOf(actor.ability, def.manifest.subject);
    const groups = statesAwaitingUser(machine, (event) => actor.ability.can(event, def.manifest.subject)).filter(
      // A field hidden from the user would tell its value through the list: not used.
      (g) => !isHiddenField(hidden, g.field),
    );
    if (!groups.length) return undefined;
    const sql = groups.map((g) => `(status = ANY(${param(g.states)}) AND ${sqlText(g.field)} = ${param(actor.id)})`);
    return { sql: `(${sql.join(' OR ')})`, fields: groups.map((g) => g.field) };
  };

  app.get(
    '/api/my-work',
    {
      schema: {
        tags: ['Staff home'],
        summary: 'Records waiting for the signed-in user, grouped by entity',
        querystring: { type: 'object', additionalProperties: false, properties: { lang: { type: 'string' } } },
        response: {
          200: objectReply('Records waiting for me', {
            groups: {
              type: 'array',
              items: objectReply('One entity', {
                entity: { type: 'string' },
                total: { type: 'integer' },
                list: { type: 'array', items: rowSchema },
              }),
            },
          }),
          401: errorBodySchema,
        },
      },
    },
    async (request) => {
      const { actor } = request;
      if (actor.id === null) throw new ApiError(401, 'errors.unauthorized');
      const groups = [];
      const now = app.config.clock().toISOString();
      for (const def of app.definitions.entities.values()) {
        const table = app.tables.get(def.id);
        // readableWhere refuses a reader without the permission: such an entity is skipped, not an error.
        if (!table || !def.manifest.workflow || !actor.ability.can('read', def.manifest.subject)) continue;
        const scoped = app.store.readableWhere(def.id, {}, actor);
        const params = [...scoped.params];
        const param = (v: unknown): string => `$${params.push(v)}`;
        const condition = awaitingCondition(def, actor, param);
        if (!condition) continue;
        const where = scoped.where ? `${scoped.where} AND ${condition.sql}` : `WHERE ${condition.sql}`;
        const hidden = hiddenFieldsOf(actor.ability, def.manifest.subject);
        const labelField = def.manifest.labelField;
        const label = labelField && !isHiddenField(hidden, labelField) ? sqlText(labelField) : 'NULL';
        const due = table.hasDueAt
          ? `to_char(due_at AT TIME ZONE '${BUSINESS_TIME_ZONE}', 'YYYY-MM-DD')`
          : 'NULL::text';
        const overdue = table.hasDueAt ? `COALESCE(due_at < ${param(now)}::timestamptz, false)` : 'false';
        const order = table.hasDueAt ? 'due_at ASC NULLS LAST, id DESC' : 'id DESC';
        const { rows } = await app.db.query<WorkRow>(
          `SELECT id::int AS id, status, ${label} AS label, ${due} AS due, ${overdue} AS overdue,
                  count(*) OVER ()::int AS total
             FROM ${table.table} ${where} ORDER BY ${order} LIMIT ${MY_WORK_ROWS}`,
          params,
        );
        if (!rows.length) continue;
        groups.push({
          entity: def.id,
          total: rows[0]!.total,
          list: rows.map((r) => ({ id: r.id, status: r.status, label: r.label, due: r.due, overdue: r.overdue })),
        });
      }
      return { groups };
    },
  );
};

export default myWork;
