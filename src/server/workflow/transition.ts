import type { ValidateFunction } from 'ajv';
import type { JSONSchema7 } from 'json-schema';
import type { AnyStateMachine } from 'xstate';
import type { Database } from '../db/database.ts';
import type { DefinitionRegistry, EntityDefinition } from '../../definitions/registry.ts';
import type { MachineDefinition } from '../../generated/meta.ts';
import type { Actor, EntityStore, StoredRecord } from '../store/entity-store.ts';
import type { Queryable } from '../db/database.ts';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../../shared/locales.ts';
import { systemActor } from '../auth/access.ts';
import { SYSTEM_FIELDS } from '../../shared/field-schema.ts';
import { tableName } from '../db/entity-table.ts';
import { createServerAjv } from '../validation.ts';
import { toFieldProblems } from '../../shared/validation/field-errors.ts';
import { ApiError, badInput, notFound } from '../errors.ts';
import { guardMessage, payloadGuards } from './implementations.ts';
import { valueAt } from '../../shared/pointer.ts';
import { hiddenFieldsOf } from '../../shared/ability.ts';
import {
  checkPayload,
  computeStep,
  deadlinesOf,
  payloadSchemaFor,
  toXStateMachine,
  transitionsFor,
  type WorkflowContext,
} from './machine.ts';
import type { Notice } from '../../generated/meta.ts';
import type { HistoryEntry } from '../../shared/workflow.ts';
import { staffUserProblems } from '../store/staff-refs.ts';
import { forApplicant, withoutHiddenPayload } from './history.ts';
import type { EventOption, SweptRecord, WorkflowEngine, WorkflowEngineOptions } from './workflow-engine.ts';
import { userNameSql } from '../auth/user-directory.ts';
import { writeInAppNotice } from './in-app-notice.ts';
import { createNoticeQueue } from './notices.ts';

/** The actor of the sweep: every ability, every row; recorded as `system` in history and audit. */
const SWEEPER: Actor = { ...systemActor(), id: 'system' };
/** Records moved per sweep round at most (the next round continues). */
const SWEEP_LIMIT = 500;

const bodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['event', 'version'],
  properties: {
    event: { type: 'string', pattern: '^[A-Z][A-Z0-9_]*$', maxLength: 100 },
    payload: { type: 'object' },
    version: { type: 'integer', minimum: 1 },
    comment: { type: 'string', maxLength: 2000 },
  },
} as const;

interface Body {
  event: string;
  payload?: Record<string, unknown>;
  version: number;
  comment?: string;
}

const dataOf = (record: Record<string, unknown>): Record<string, unknown> => {
  const data = { ...record };
  for (const f of SYSTEM_FIELDS) delete data[f];
  return data;
};

/** A locale value as stored in a record, if it is one of ours. */
const asLocale = (value: unknown): Locale | undefined =>
  (LOCALES as readonly unknown[]).includes(value) ? (value as Locale) : undefined;

export function createWorkflowEngine(
  db: Database,
  registry: DefinitionRegistry,
  store: EntityStore,
  options: WorkflowEngineOptions = {},
): WorkflowEngine {
  const now = options.now ?? (() => new Date());
  const ajv = createServerAjv();
  const validateBody = ajv.compile(bodySchema);
  const payloadValidators = new WeakMap<object, ValidateFunction>();
  const executables = new Map<string, AnyStateMachine>();
  const queueNotice = options.notify ? createNoticeQueue(registry, options.notify, now) : undefined;

  const entityOf = (
    entity: string,
  ): { def: EntityDefinition; machine: MachineDefinition; executable: AnyStateMachine } => {
    const def = registry.entities.get(entity);
    const machine = def?.manifest.workflow ? registry.machines.get(def.manifest.workflow) : undefined;
    if (!def || !machine) throw notFound();
    let executable = executables.get(machine.id);
    if (!executable) executables.set(machine.id, (executable = toXStateMachine(machine)));
    return { def, machine, executable };
  };

  const mayRead = (actor: Actor, def: EntityDefinition): void => {
    if (!actor.ability.can('read', def.manifest.subject))
      throw actor.id === null ? new ApiError(401, 'errors.unauthorized') : new ApiError(403, 'errors.forbidden');
  };

  const contextOf = (
    record: Record<string, unknown>,
    actor: Actor,
    payload: Record<string, unknown> = {},
  ): WorkflowContext => ({ record, payload, actorId: actor.id, now: now() });

  const validatePayload = (schema: JSONSchema7 | undefined, payload: Record<string, unknown> | undefined): void => {
    if (!schema) {
      if (payload && Object.keys(payload).length)
        throw badInput([{ pointer: '/payload', key: 'errors.noPayload', params: {} }]);
      return;
    }
    let validate = payloadValidators.get(schema);
    if (!validate) payloadValidators.set(schema, (validate = ajv.compile(schema)));
    // Pointers into the body, as for any other input: /payload/<field>.
    if (!validate(payload ?? {}))
      throw badInput(toFieldProblems(validate.errors).map((p) => ({ ...p, pointer: `/payload${p.pointer}` })));
  };

  return {
    machineOf: (entity) => {
      const def = registry.entities.get(entity);
      return def?.manifest.workflow ? registry.machines.get(def.manifest.workflow) : undefined;
    },

    async events(entity, id, actor) {
      const { def, machine, executable } = entityOf(entity);
      const seen = await store.get(entity, id, actor);
      // Guards judge the whole record, as `send` does — not the copy without the fields hidden from the actor.
      const record = hiddenFieldsOf(actor.ability, def.manifest.subject).length
        ? await store.get(entity, id, systemActor())
        : seen;
      const status = record.status;
      const events: EventOption[] = [];
      for (const type of Object.keys(machine.states[status]?.on ?? {})) {
        if (!actor.ability.can(type, def.manifest.subject)) continue;
        const step = computeStep(machine, executable, status, contextOf(record, actor), { type, payload: {} });
        // A guard that reads the payload cannot be judged before the payload exists: such an event is offered.
        // So is one whose guard has a message: pressing it tells the user what is missing.
        const readsPayload = transitionsFor(machine, status, type).some(
          (t) =>
            t.guard &&
            (payloadGuards.has(typeof t.guard === 'string' ? t.guard : t.guard.type) || guardMessage(t.guard)),
        );
        if (!step.ok && (step.reason === 'notInState' || !readsPayload)) continue;
        const first = transitionsFor(machine, status, type)[0]!;
        const payload = payloadSchemaFor(machine, status, type);
        events.push({
          type,
          target: step.ok ? step.status : (first.target ?? status),
          description: first.description,
          ...(payload ? { payload } : {}),
        });
      }
      return { status, version: record.version, machine: machine.id, events };
    },

    async history(entity, id, actor) {
      const { def, machine } = entityOf(entity);
      await store.get(entity, id, actor);
      // Names come from the users' entity (access.json names it); history keeps the id.
      const users = registry.access?.userEntity;
      const name = users
        ? `(SELECT ${userNameSql('u')} FROM ${tableName(users)} u WHERE u.id::text = h.actor)`
        : 'NULL';
      const { rows } = await db.query<HistoryEntry>(
        `SELECT h.id::int AS id, to_char(h.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at, h.actor, ${name} AS "actorName", h.event,
           h.from_status AS "from", h.to_status AS "to", h.payload, h.comment, h.machine, h.machine_version AS "machineVersion"
         FROM workflow_history h WHERE h.entity = $1 AND h.record_id = $2 ORDER BY h.id LIMIT 1000`,
        [entity, id],
      );
      const hidden = hiddenFieldsOf(actor.ability, def.manifest.subject);
      return {
        list: rows.map((row) =>
          withoutHiddenPayload(actor.isOuter ? forApplicant(row, actor, machine) : row, machine, hidden),
        ),
      };
    },

    async send(entity, id, input, actor) {
      const { def } = entityOf(entity);
      if (!validateBody(input)) throw badInput(toFieldProblems(validateBody.errors));
      const body = input as unknown as Body;
      mayRead(actor, def);
      if (!actor.ability.can(body.event, def.manifest.subject))
        throw actor.id === null ? new ApiError(401, 'errors.unauthorized') : new ApiError(403, 'errors.forbidden');
      const { record, queued, inApp } = await apply(entity, id, body, actor);
      if (queued) options.notify?.onQueued();
      options.notify?.inApp?.published(inApp);
      return record;
    },

    async sweep(limit = SWEEP_LIMIT) {
      const moved: SweptRecord[] = [];
      let queued = false;
      const inApp: string[] = [];
      for (const def of registry.entities.values()) {
        const machine = def.manifest.workflow ? registry.machines.get(def.manifest.workflow) : undefined;
        const table = options.tables?.get(def.id);
        if (!machine || !table?.hasDueAt || !deadlinesOf(machine).length) continue;
        // Records refused in this round (a guard, the schema): skipped until the next round.
        const refused: number[] = [];
        while (moved.length < limit) {
          const done = await db.transaction(async (tx) => {
            const { rows } = await tx.query<{ id: number; version: number; status: string }>(
              `SELECT id::int AS id, version::int AS version, status FROM ${table.table}
               WHERE due_at < $1 AND NOT (id = ANY($2::bigint[]))
               ORDER BY due_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
              [now().toISOString(), refused],
            );
            const row = rows[0];
            if (!row) return false;
            const event = machine.states[row.status]?.deadline?.event;
            if (!event) {
              refused.push(row.id);
              return true;
            }
            await tx.query('SAVEPOINT sweep_step');
            try {
              const result = await apply(def.id, row.id, { event, version: row.version }, SWEEPER, tx);
              await tx.query('RELEASE SAVEPOINT sweep_step');
              queued ||= result.queued;
              inApp.push(...result.inApp);
              moved.push({ entity: def.id, id: row.id, event, from: row.status, to: result.record.status });
            } catch (error) {
              await tx.query('ROLLBACK TO SAVEPOINT sweep_step');
              refused.push(row.id);
              options.log?.(error, `deadline sweep: ${event} of ${def.id} ${row.id} refused`);
            }
            return true;
          });
          if (!done) break;
        }
      }
      if (queued) options.notify?.onQueued();
      options.notify?.inApp?.published(inApp);
      return moved;
    },
  };

  /**
   * The one transition path (`send` and the sweep): on the locked row, the state, the
   * payload, the guard and the payload's named checks are checked; the history row, the notices and (by the store) the
   * new status, data and audit row are written in one transaction — `tx` when given.
   */
  async function apply(
    entity: string,
    id: number,
    body: Body,
    actor: Actor,
    tx?: Queryable,
  ): Promise<{ record: StoredRecord; queued: boolean; inApp: string[] }> {
    const { def, machine, executable } = entityOf(entity);
    let queued = false;
    // Users given in-app notices: told live once the transaction committed.
    const inApp: string[] = [];
    const record = await store.writeTransition(
      entity,
      id,
      body.version,
      actor,
      async (before, tx) => {
        const from = before.status;
        if (transitionsFor(machine, from, body.event).length === 0)
          throw new ApiError(409, 'errors.transitionNotAllowed', { details: { status: from, event: body.event } });
        const payloadSchema = payloadSchemaFor(machine, from, body.event);
        validatePayload(payloadSchema, body.payload);
        if (options.staff && payloadSchema) {
          const problems = await staffUserProblems(options.staff, payloadSchema, body.payload, '/payload', tx);
          if (problems.length) throw badInput(problems);
        }
        const payload = body.payload ?? {};
        const step = computeStep(machine, executable, from, contextOf(before, actor, payload), {
          type: body.event,
          payload,
        });
        if (!step.ok) {
          const said = transitionsFor(machine, from, body.event)
            .map((t) => guardMessage(t.guard))
            .find(Boolean);
          const key = step.reason === 'guard' ? (said ?? 'errors.transitionGuard') : 'errors.transitionNotAllowed';
          throw new ApiError(409, key, { details: { status: from, event: body.event } });
        }
        // A date the calendar or the record rules out is the user's input error, like a schema error: 400 on the field.
        const problems = checkPayload(step.transition, contextOf(before, actor, payload));
        if (problems.length) throw badInput(problems.map((p) => ({ ...p, pointer: `/payload${p.pointer}` })));
        await tx.query(
          `INSERT INTO workflow_history (actor, entity, record_id, machine, machine_version, event, from_status, to_status, payload, comment)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10)`,
          [
            actor.id,
            entity,
            id,
            machine.id,
            machine.version,
            body.event,
            from,
            step.status,
            JSON.stringify(payload),
            body.comment ?? null,
          ],
        );
        const data = dataOf(step.record);
        for (const notice of step.transition.notify ?? []) {
          if (notice.channel === 'inApp') {
            const sink = options.notify?.inApp;
            const where = { def, machine, id, event: body.event, to: step.status, data, payload, actorId: actor.id };
            if (sink) inApp.push(...(await writeInAppNotice(sink, notice, where, tx)));
            continue;
          }
          if (!queueNotice) continue;
          queued =
            (await queueNotice(
              notice,
              { def, machine: machine.id, id, event: body.event, from, to: step.status, data, payload, actor },
              tx,
            )) || queued;
        }
        return { status: step.status, data };
      },
      tx ? { tx } : undefined,
    );
    return { record, queued, inApp };
  }
}
