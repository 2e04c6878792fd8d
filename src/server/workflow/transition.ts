import type { ValidateFunction } from 'ajv';
import type { JSONSchema7 } from 'json-schema';
import type { AnyStateMachine } from 'xstate';
import type { Database } from '../db/database.ts';
import type { DefinitionRegistry, EntityDefinition } from '../../definitions/registry.ts';
import type { MachineDefinition } from '../../generated/meta.ts';
import type { Actor, EntityStore, StoredRecord } from '../store/entity-store.ts';
import { SYSTEM_FIELDS } from '../../definitions/pointer.ts';
import { tableName } from '../db/entity-table.ts';
import { createServerAjv } from '../validation.ts';
import { toFieldProblems } from '../../shared/validation/field-errors.ts';
import { ApiError, badInput, notFound } from '../errors.ts';
import { payloadGuards } from './implementations.ts';
import { computeStep, payloadSchemaFor, toXStateMachine, transitionsFor, type WorkflowContext } from './machine.ts';

/** An event the actor may send now, as `GET events` lists it. */
export interface EventOption {
  type: string;
  target: string;
  description: string;
  /** JSON Schema of the payload the event needs, when it needs one. */
  payload?: JSONSchema7;
}

/** One status change, as `GET history` lists it. */
export interface HistoryEntry {
  id: number;
  at: string;
  actor: string | null;
  /** The actor's name as the user entity holds it (last and first name, else the username). */
  actorName: string | null;
  event: string;
  from: string;
  to: string;
  payload: Record<string, unknown>;
  comment: string | null;
  machine: string;
  machineVersion: number;
}

/** The workflow engine: what a record's status machine allows, and the one way to change a status. */
export interface WorkflowEngine {
  /** The machine an entity follows, or undefined. */
  machineOf(entity: string): MachineDefinition | undefined;
  /** The events `actor` may send to the record now (state, ability and guard all allow them). */
  events(entity: string, id: number, actor: Actor): Promise<{ status: string; version: number; machine: string; events: EventOption[] }>;
  history(entity: string, id: number, actor: Actor): Promise<{ list: HistoryEntry[] }>;
  /**
   * Sends `{event, payload?, version, comment?}` to a record: 403 without the event's
   * ability, 409 when the state does not allow it (or its guard refuses, or the version is
   * stale), 400 for a bad payload — and nothing changes. Otherwise the new status, the data
   * as the actions leave it, the audit row and a history row are written in one transaction.
   */
  send(entity: string, id: number, input: unknown, actor: Actor): Promise<StoredRecord>;
}

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

export function createWorkflowEngine(db: Database, registry: DefinitionRegistry, store: EntityStore, now: () => Date = () => new Date()): WorkflowEngine {
  const ajv = createServerAjv();
  const validateBody = ajv.compile(bodySchema);
  const payloadValidators = new WeakMap<object, ValidateFunction>();
  const executables = new Map<string, AnyStateMachine>();

  const entityOf = (entity: string): { def: EntityDefinition; machine: MachineDefinition; executable: AnyStateMachine } => {
    const def = registry.entities.get(entity);
    const machine = def?.manifest.workflow ? registry.machines.get(def.manifest.workflow) : undefined;
    if (!def || !machine) throw notFound();
    let executable = executables.get(machine.id);
    if (!executable) executables.set(machine.id, (executable = toXStateMachine(machine)));
    return { def, machine, executable };
  };

  const mayRead = (actor: Actor, def: EntityDefinition): void => {
    if (!actor.ability.can('read', def.manifest.subject)) throw actor.id === null ? new ApiError(401, 'errors.unauthorized') : new ApiError(403, 'errors.forbidden');
  };

  const contextOf = (record: Record<string, unknown>, actor: Actor, payload: Record<string, unknown> = {}): WorkflowContext => ({ record, payload, actorId: actor.id, now: now() });

  const validatePayload = (schema: JSONSchema7 | undefined, payload: Record<string, unknown> | undefined): void => {
    if (!schema) {
      if (payload && Object.keys(payload).length) throw badInput([{ pointer: '/payload', key: 'errors.noPayload', params: {} }]);
      return;
    }
    let validate = payloadValidators.get(schema);
    if (!validate) payloadValidators.set(schema, (validate = ajv.compile(schema)));
    // Pointers into the body, as for any other input: /payload/<field>.
    if (!validate(payload ?? {})) throw badInput(toFieldProblems(validate.errors).map((p) => ({ ...p, pointer: `/payload${p.pointer}` })));
  };

  return {
    machineOf: (entity) => {
      const def = registry.entities.get(entity);
      return def?.manifest.workflow ? registry.machines.get(def.manifest.workflow) : undefined;
    },

    async events(entity, id, actor) {
      const { def, machine, executable } = entityOf(entity);
      const record = await store.get(entity, id, actor);
      const status = record.status;
      const events: EventOption[] = [];
      for (const type of Object.keys(machine.states[status]?.on ?? {})) {
        if (!actor.ability.can(type, def.manifest.subject)) continue;
        const step = computeStep(machine, executable, status, contextOf(record, actor), { type, payload: {} });
        // A guard that reads the payload cannot be judged before the payload exists: such an event is offered.
        const readsPayload = transitionsFor(machine, status, type).some((t) => t.guard && payloadGuards.has(typeof t.guard === 'string' ? t.guard : t.guard.type));
        if (!step.ok && (step.reason === 'notInState' || !readsPayload)) continue;
        const first = transitionsFor(machine, status, type)[0]!;
        const payload = payloadSchemaFor(machine, status, type);
        events.push({ type, target: step.ok ? step.status : (first.target ?? status), description: first.description, ...(payload ? { payload } : {}) });
      }
      return { status, version: record.version, machine: machine.id, events };
    },

    async history(entity, id, actor) {
      entityOf(entity);
      await store.get(entity, id, actor);
      // Names come from the users' entity (access.json names it); history keeps the id.
      const users = registry.access?.userEntity;
      const name = users
        ? `(SELECT coalesce(nullif(trim(concat_ws(' ', u.data->>'lastName', u.data->>'firstName')), ''), u.data->>'username') FROM ${tableName(users)} u WHERE u.id::text = h.actor)`
        : 'NULL';
      const { rows } = await db.query<HistoryEntry>(
        `SELECT h.id::int AS id, to_char(h.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at, h.actor, ${name} AS "actorName", h.event,
           h.from_status AS "from", h.to_status AS "to", h.payload, h.comment, h.machine, h.machine_version AS "machineVersion"
         FROM workflow_history h WHERE h.entity = $1 AND h.record_id = $2 ORDER BY h.id LIMIT 1000`,
        [entity, id],
      );
      return { list: rows };
    },

    async send(entity, id, input, actor) {
      const { def, machine, executable } = entityOf(entity);
      if (!validateBody(input)) throw badInput(toFieldProblems(validateBody.errors));
      const body = input as unknown as Body;
      mayRead(actor, def);
      if (!actor.ability.can(body.event, def.manifest.subject)) throw actor.id === null ? new ApiError(401, 'errors.unauthorized') : new ApiError(403, 'errors.forbidden');
      return store.writeTransition(entity, id, body.version, actor, async (before, tx) => {
        const from = before.status;
        if (transitionsFor(machine, from, body.event).length === 0) throw new ApiError(409, 'errors.transitionNotAllowed', { details: { status: from, event: body.event } });
        validatePayload(payloadSchemaFor(machine, from, body.event), body.payload);
        const payload = body.payload ?? {};
        const step = computeStep(machine, executable, from, contextOf(before, actor, payload), { type: body.event, payload });
        if (!step.ok) throw new ApiError(409, step.reason === 'guard' ? 'errors.transitionGuard' : 'errors.transitionNotAllowed', { details: { status: from, event: body.event } });
        await tx.query(
          `INSERT INTO workflow_history (actor, entity, record_id, machine, machine_version, event, from_status, to_status, payload, comment)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10)`,
          [actor.id, entity, id, machine.id, machine.version, body.event, from, step.status, JSON.stringify(payload), body.comment ?? null],
        );
        return { status: step.status, data: dataOf(step.record) };
      });
    },
  };
}
