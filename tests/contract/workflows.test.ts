/**
 * Model-based tests of every status machine, generated from workflows/*.machine.json with
 * @xstate/graph: for each entity that follows a machine and on both backends,
 *  - every shortest path to every state is driven through the HTTP API, checking status,
 *    version, the events offered and the history after each step;
 *  - from every reachable state, every event the state does not allow answers 409 and
 *    leaves the row, its audit and its history byte-for-byte as they were;
 *  - for every event, every default role of schemas/_access/access.json that does not grant it
 *    (and lacks `manage all`) gets 403, changing nothing, and is offered only events it holds;
 *    every event is sent, where the machine allows it, by a default role that does grant it;
 *  - every date a transition's named `checks` rule out (a past new deadline, one not after the
 *    current deadline, a reopening in the future…) answers 400 with the localized message on
 *    the payload field, changing nothing, and the earliest allowed date is accepted; the valid
 *    payloads of every other test satisfy the checks too (tests/support/workflow-checks.ts);
 *  - every state's deadline (`deadline` in the machine): once its due date has passed, the
 *    sweep sends its event as the actor `system`, once;
 *  - two concurrent transitions of one record: exactly one wins.
 * Each event is sent by a user holding one default role that grants it: the narrowest such role
 * (fewest permissions) whose scope reaches the test records — the admin's records in the
 * regional users' region, so ALL and REGION roles; OWN roles reach only their own records. An
 * event only `manage all` grants (the sweep's deadline events) is sent by a user with that
 * role, and one no default role grants by a synthetic role holding all of the machine's events;
 * both lists are printed. Guards that need the actor to be the assigned user are satisfied the
 * way staff satisfy them: the record (or the assigning event's payload) names the user of one
 * role that holds every event the guard watches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { JSONSchema7 } from 'json-schema';
import { getShortestPaths } from '@xstate/graph';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { tableName } from '../../src/server/db/entity-table.ts';
import {
  deadlinesOf,
  machineEvents,
  payloadSchemaFor,
  toShapeMachine,
  transitionsFor,
} from '../../src/server/workflow/machine.ts';
import { isSystemPointer, resolveFieldSchema } from '../../src/shared/field-schema.ts';
import type { MachineDefinition, Transition } from '../../src/generated/meta.ts';
import type { EntityDefinition } from '../../src/definitions/registry.ts';
import { abilityOfRoles, type PortalAbility } from '../../src/shared/ability.ts';
import { systemActor } from '../../src/server/auth/access.ts';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';
import { createSampler } from '../support/sample-data.ts';
import { dataOf } from '../support/records.ts';
import { createRegionPlacer } from '../support/regions.ts';
import {
  checkedFields,
  refusal,
  refusedValues,
  acceptedValue,
  addDays,
  satisfyChecks,
  tashkentToday,
} from '../support/workflow-checks.ts';
import { cellName, forSelectedEntity } from '../support/test-selection.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const access = registry.access!;
const ajv = createServerAjv();
const { HOME, inRegion } = createRegionPlacer(registry);
const seedOf = (id: string): number => [...id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 11);

const followers = forSelectedEntity(registry.entities.values(), (d) => d.id).flatMap((def) => {
  const machine = def.manifest.workflow ? registry.machines.get(def.manifest.workflow) : undefined;
  return machine ? [{ def, machine }] : [];
});

/** Every transition of a machine, with its state and event. */
const allTransitions = (machine: MachineDefinition) =>
  Object.entries(machine.states).flatMap(([state, s]) =>
    Object.entries(s.on ?? {}).flatMap(([event, v]) =>
      (Array.isArray(v) ? v : [v]).map((t: Transition) => ({ state, event, t })),
    ),
  );

const named = (n: unknown) =>
  typeof n === 'string'
    ? { type: n, params: {} as Record<string, unknown> }
    : (n as { type: string; params?: Record<string, unknown> });

/**
 * Where the machine wants the actor to be the assigned user: the record fields checked by
 * `actorIsAssigned` (and the events each one guards), and per event the payload fields that
 * it copies into them (payload field → record field).
 */
function assignedFields(machine: MachineDefinition): {
  record: Map<string, Set<string>>;
  payload: Map<string, Map<string, string>>;
} {
  const record = new Map<string, Set<string>>();
  for (const { event, t } of allTransitions(machine)) {
    const guard = t.guard ? named(t.guard) : undefined;
    if (guard?.type !== 'actorIsAssigned') continue;
    const field = String(guard.params?.field).replace(/^\//, '');
    record.set(field, new Set([...(record.get(field) ?? []), event]));
  }
  const payload = new Map<string, Map<string, string>>();
  for (const { event, t } of allTransitions(machine)) {
    for (const a of (t.actions ?? []).map(named)) {
      if (a.type === 'copyFromPayload' && record.has(String(a.params?.field))) {
        payload.set(event, new Map([...(payload.get(event) ?? []), [String(a.params?.from), String(a.params?.field)]]));
      }
    }
  }
  return { record, payload };
}

/** The default roles of access.json with their abilities. */
const defaultRoles = access.roles.map((r) => ({
  code: r.code,
  scope: r.scope,
  permissions: r.permissions,
  ability: abilityOfRoles([r]).ability as PortalAbility,
  managesAll: r.permissions.includes('manage all'),
}));
type DefaultRole = (typeof defaultRoles)[number];
/** Stands for a role made for the test that holds every event of the machine. */
const SYNTHETIC = '(synthetic)';

/**
 * Which role's user sends each event of an entity's machine, and which role's user each
 * assigned-user field names: the narrowest default role that grants the events (and may read
 * the entity) among those whose scope reaches the admin's records in HOME — ALL and REGION —,
 * else a role with `manage all`, else the synthetic role. An assigned-user field needs one user
 * for all the events its guard watches, so its role must hold them all. (An event watched by
 * two fields would need one user in both; no machine has one.)
 */
function planSenders(def: EntityDefinition, machine: MachineDefinition) {
  const subject = def.manifest.subject;
  const reaches = (r: DefaultRole) => r.scope !== 'OWN' && r.ability.can('read', subject);
  const holdsAll = (r: DefaultRole, events: Iterable<string>) => [...events].every((e) => r.ability.can(e, subject));
  const narrowest = defaultRoles
    .filter((r) => !r.managesAll && reaches(r))
    .sort((a, b) => a.permissions.length - b.permissions.length || a.code.localeCompare(b.code));
  const pick = (events: Iterable<string>): string =>
    narrowest.find((r) => holdsAll(r, events))?.code ??
    defaultRoles.find((r) => r.managesAll && reaches(r))?.code ??
    SYNTHETIC;
  const assigned = assignedFields(machine);
  const byField = new Map([...assigned.record].map(([field, events]) => [field, pick(events)]));
  const guardedBy = new Map(
    [...assigned.record].flatMap(([field, events]) => [...events].map((e) => [e, field] as const)),
  );
  const byEvent = new Map(
    machineEvents(machine).map((e) => [e, guardedBy.has(e) ? byField.get(guardedBy.get(e)!)! : pick([e])]),
  );
  const managers = new Set(defaultRoles.filter((r) => r.managesAll).map((r) => r.code));
  return {
    assigned,
    byField,
    byEvent,
    byManageAll: [...byEvent].filter(([, code]) => managers.has(code)).map(([e]) => e),
    bySynthetic: [...byEvent].filter(([, code]) => code === SYNTHETIC).map(([e]) => e),
  };
}

/** Payload fields that move the record to another region (copied into its region field): kept at HOME, where the test users work. */
function regionPayloadFields(def: EntityDefinition, machine: MachineDefinition): Map<string, string[]> {
  const regionField = def.manifest.scope?.regionField?.replace(/^\//, '');
  const out = new Map<string, string[]>();
  if (!regionField) return out;
  for (const { event, t } of allTransitions(machine)) {
    for (const a of (t.actions ?? []).map(named)) {
      if (a.type === 'copyFromPayload' && a.params?.field === regionField)
        out.set(event, [...(out.get(event) ?? []), String(a.params?.from)]);
    }
  }
  return out;
}

/** Sets a JSON pointer's value in a plain object (creating the objects on the way). */
const setPointer = (data: Record<string, unknown>, pointer: string, value: unknown): Record<string, unknown> => {
  const segments = pointer.split('/').slice(1);
  let node = data;
  for (const segment of segments.slice(0, -1)) node = (node[segment] ??= {}) as Record<string, unknown>;
  node[segments.at(-1)!] = value;
  return data;
};

/** A user id as the schema stores it (portal-user ids are integers). */
const idAs = (schema: JSONSchema7 | undefined, id: number): unknown =>
  schema?.type === 'integer' || schema?.type === 'number' ? id : String(id);

for (const backend of backends()) {
  describe.skipIf(!backend.available || followers.length === 0)(`status machines on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
    });
    afterAll(async () => close?.());

    /** A signed-in user: id, bearer headers, and the name history shows ("Last First"). */
    type User = { id: number; headers: Record<string, string>; name: string };
    let made = 0;
    /** A signed-in user (in HOME) holding only the role `code`. */
    const userWithRole = async (code: string, lastName: string): Promise<User> => {
      made += 1;
      const username = `wf-${made}-${code}`.slice(0, 50);
      const isOuter = access.outerRoles.includes(code) || (access.outerRolesYur ?? []).includes(code);
      const user = await app.inject({
        method: 'POST',
        url: '/api/portal-user/create',
        payload: { username, firstName: 'Flow', lastName, isOuter, canLogin: true, roles: [code], regionId: HOME },
      });
      expect(user.statusCode, user.body).toBe(200);
      const id = user.json().id as number;
      const set = await app.inject({
        method: 'POST',
        url: '/api/auth/set-password',
        payload: { userId: id, password: 'correct horse battery' },
      });
      expect(set.statusCode, set.body).toBe(200);
      const session = await app.inject({
        method: 'POST',
        url: '/api/auth-payload',
        payload: { username, password: 'correct horse battery' },
        headers: { authorization: '' },
        remoteAddress: `10.7.${made}.1`,
      });
      expect(session.statusCode, session.body).toBe(200);
      return {
        id,
        headers: { authorization: `Bearer ${session.json().token as string}`, 'accept-language': 'en' },
        name: `${lastName} Flow`,
      };
    };
    /** A role with these permissions (scope ALL) and a signed-in user holding only it. */
    const userWithPermissions = async (permissions: string[]): Promise<User> => {
      const code = `wf-test-${made + 1}`;
      const role = await app.inject({
        method: 'POST',
        url: '/api/portal-role/create',
        payload: { code, name: code, scope: 'ALL', permissions },
      });
      expect(role.statusCode, role.body).toBe(200);
      return userWithRole(code, 'Tester');
    };
    /** Per default role of access.json: a user holding only it. */
    const roleUsers = new Map<string, User>();
    beforeAll(async () => {
      for (const role of defaultRoles) roleUsers.set(role.code, await userWithRole(role.code, role.code));
    });

    for (const { def, machine } of followers) {
      const base = `/api${def.manifest.base}`;
      const subject = def.manifest.subject;
      const events = machineEvents(machine);
      const sampleRecord = createSampler(def.schema, registry.references, ajv);
      const plan = planSenders(def, machine);
      const { assigned } = plan;
      const regionPayload = regionPayloadFields(def, machine);
      const seed = seedOf(def.id);
      const admin = { 'accept-language': 'en' };

      describe(`${def.id} (${machine.id} v${machine.version})`, () => {
        let synthetic: User | undefined;
        beforeAll(async () => {
          if (plan.bySynthetic.length || [...plan.byField.values()].includes(SYNTHETIC))
            synthetic = await userWithPermissions([`read ${subject}`, ...events.map((e) => `${e} ${subject}`)]);
        });
        /** The user of a planned role. */
        const userOf = (code: string): User => (code === SYNTHETIC ? synthetic! : roleUsers.get(code)!);
        /** A failure's cell: this entity, then state, event, role, field (cellName). */
        const cell = (...parts: Array<string | number | undefined>): string => cellName(def.id, ...parts);
        /** Who sends `event`: the user of the role the plan gives it. */
        const senderOf = (event: string): User => userOf(plan.byEvent.get(event)!);

        const send = (id: number, body: Record<string, unknown>, headers: Record<string, string>) =>
          app.inject({ method: 'POST', url: `${base}/transition/${id}`, payload: body, headers });
        const get = (url: string, headers: Record<string, string>) => app.inject({ method: 'GET', url, headers });

        /** A new record (made by the admin) in HOME, whose assigned-user fields name the users the plan gives them. */
        const newRecord = async (
          n: number,
        ): Promise<Record<string, unknown> & { id: number; version: number; status: string }> => {
          const data = inRegion(def, sampleRecord(seed + n, { full: true }), HOME);
          for (const [field, code] of plan.byField)
            data[field] = idAs(def.schema.properties?.[field] as JSONSchema7, userOf(code).id);
          const created = await app.inject({ method: 'POST', url: `${base}/create`, payload: data, headers: admin });
          expect(created.statusCode, `${cell('create')}: ${created.body}`).toBe(200);
          expect(created.json().status, cell('create', 'starts in the initial state')).toBe(machine.initial);
          return created.json();
        };

        /** The transition an event takes from a state (towards `target` when the event has several). */
        const transitionOf = (state: string, event: string, target?: string): Transition | undefined => {
          const list = transitionsFor(machine, state, event);
          return list.find((t) => (t.target ?? state) === target) ?? list[0];
        };

        /**
         * The payload an event needs in a state, drawn from its schema, with its dates where the
         * transition's checks accept them for the record as it is.
         */
        const payloadFor = (
          state: string,
          event: string,
          n: number,
          record: Record<string, unknown>,
          target?: string,
        ): Record<string, unknown> | undefined => {
          const schema = payloadSchemaFor(machine, state, event);
          if (!schema) return undefined;
          const payload = createSampler(schema, registry.references, ajv)(seed + n, { full: true });
          for (const [field, recordField] of assigned.payload.get(event) ?? [])
            payload[field] = idAs(schema.properties?.[field] as JSONSchema7, userOf(plan.byField.get(recordField)!).id);
          for (const field of regionPayload.get(event) ?? []) payload[field] = HOME;
          const valid = satisfyChecks(transitionOf(state, event, target), payload, record);
          if (!valid)
            throw new Error(
              `${state} --${event}-->: no date passes the transition's checks for ${JSON.stringify(record)}`,
            );
          return valid;
        };

        /** Everything a refused transition must leave alone, as text. */
        const footprint = async (id: number): Promise<string> => {
          const row = await app.db.query<{ row: string }>(
            `SELECT row_to_json(t)::text AS row FROM ${tableName(def.id)} t WHERE id = $1`,
            [id],
          );
          const history = await app.db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM workflow_history WHERE entity = $1 AND record_id = $2',
            [def.id, id],
          );
          const audit = await app.db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM audit_log WHERE entity = $1 AND record_id = $2',
            [def.id, id],
          );
          return JSON.stringify([row.rows[0]?.row, history.rows[0]?.n, audit.rows[0]?.n]);
        };

        const paths = getShortestPaths(toShapeMachine(machine), { events: events.map((type) => ({ type })) });
        /** A record sitting in each reachable state, left behind by the path tests. */
        const reached = new Map<string, { id: number; version: number }>();

        /** A new record driven along the shortest path to `state`, each step by its sender; undefined when no path leads there. */
        const driveTo = async (
          state: string,
          n: number,
        ): Promise<(Record<string, unknown> & { id: number; version: number; status: string }) | undefined> => {
          const path = paths.find((p) => String(p.state.value) === state);
          if (!path) return undefined;
          let current = await newRecord(n);
          for (const [i, step] of path.steps.filter((x) => x.event.type !== 'xstate.init').entries()) {
            const from = current.status;
            const payload = payloadFor(from, step.event.type, n * 100 + i, current, String(step.state.value));
            const res = await send(
              current.id,
              { event: step.event.type, version: current.version, ...(payload ? { payload } : {}) },
              senderOf(step.event.type).headers,
            );
            expect(
              res.statusCode,
              `${cell(from, step.event.type, plan.byEvent.get(step.event.type))}: ${res.body}`,
            ).toBe(200);
            current = res.json();
          }
          expect(current.status, cell(state, 'reached by its shortest path')).toBe(state);
          return current;
        };

        /** Events the path test sent (each by its planned sender). */
        const sent = new Set<string>();

        it('reaches every state by its shortest path through the API, each step by a default role that grants it, with status and history after each step', async () => {
          expect(paths.map((p) => String(p.state.value)).sort(), cell('every state is reachable')).toEqual(
            Object.keys(machine.states).sort(),
          );
          let n = 0;
          for (const path of paths) {
            const record = await newRecord((n += 1));
            let current: Record<string, unknown> = record;
            let { version, status } = record;
            const steps = path.steps.filter((s) => s.event.type !== 'xstate.init');
            for (const [i, step] of steps.entries()) {
              const event = step.event.type;
              const target = String(step.state.value);
              const sender = senderOf(event);
              const offered = await get(`${base}/events/${record.id}`, sender.headers);
              expect(offered.statusCode, `${cell(status, event, plan.byEvent.get(event))}: ${offered.body}`).toBe(200);
              expect(
                offered.json().events.map((e: { type: string }) => e.type),
                `${cell(status, event, plan.byEvent.get(event))}: the event is offered`,
              ).toContain(event);
              const payload = payloadFor(status, event, n * 100 + i, current, target);
              const outboxBefore = (
                await app.db.query<{ id: number }>('SELECT coalesce(max(id), 0)::int AS id FROM outbox')
              ).rows[0]!.id;
              const res = await send(
                record.id,
                { event, version, ...(payload ? { payload } : {}), comment: `step ${i + 1}` },
                sender.headers,
              );
              expect(res.statusCode, `${cell(status, event, plan.byEvent.get(event))} → ${target}: ${res.body}`).toBe(
                200,
              );
              sent.add(event);
              // The transition's messages to other systems are queued with it (contact-less, so always).
              const systemNotices = (
                transitionsFor(machine, status, event).find((t) => (t.target ?? status) === target)?.notify ?? []
              )
                .filter((x) => x.channel === 'system')
                .map((x) => `${x.to} ${(x as { message?: string }).message}`);
              const queued = await app.db.query<{ what: string }>(
                "SELECT recipient || ' ' || template_key AS what FROM outbox WHERE id > $1 AND channel = 'system' ORDER BY id",
                [outboxBefore],
              );
              expect(
                queued.rows.map((r) => r.what),
                `${cell(status, event, plan.byEvent.get(event))}: system messages`,
              ).toEqual(systemNotices);
              const here = cell(status, event, plan.byEvent.get(event));
              expect(res.json(), `${here}: the answer`).toMatchObject({
                id: record.id,
                status: target,
                version: version + 1,
              });
              const history = await get(`${base}/history/${record.id}`, sender.headers);
              expect(history.statusCode, `${here}: history ${history.body}`).toBe(200);
              const list = history.json().list as Array<Record<string, unknown>>;
              expect(list, `${here}: one history entry per step`).toHaveLength(i + 1);
              expect(list.at(-1), `${here}: the history entry`).toMatchObject({
                event,
                from: status,
                to: target,
                actor: String(sender.id),
                actorName: sender.name,
                machine: machine.id,
                machineVersion: machine.version,
                comment: `step ${i + 1}`,
                payload: payload ?? {},
              });
              current = res.json();
              ({ version, status } = res.json());
            }
            expect(status, cell(String(path.state.value), 'path end')).toBe(String(path.state.value));
            expect((await get(`${base}/get/${record.id}`, admin)).json().status, cell(status, 'stored status')).toBe(
              status,
            );
            reached.set(status, { id: record.id, version });
          }
        });

        it('sends every other event too, where the machine allows it, by a default role that grants it', async () => {
          const others = events.filter((e) => !sent.has(e));
          let n = 0;
          for (const event of others) {
            // The reachable state allowing the event that is nearest the initial one.
            const from = paths
              .filter((p) => transitionsFor(machine, String(p.state.value), event).length)
              .sort((a, b) => a.steps.length - b.steps.length)[0];
            expect(from, `${cell(event)}: some reachable state allows it`).toBeDefined();
            const state = String(from!.state.value);
            const record = (await driveTo(state, 8_000 + (n += 1)))!;
            const t = transitionOf(state, event)!;
            const payload = payloadFor(state, event, 8_500 + n, record, t.target ?? state);
            const res = await send(
              record.id,
              { event, version: record.version, ...(payload ? { payload } : {}) },
              senderOf(event).headers,
            );
            expect(res.statusCode, `${cell(state, event, plan.byEvent.get(event))}: ${res.body}`).toBe(200);
            expect(res.json().status, `${cell(state, event, plan.byEvent.get(event))}: the new status`).toBe(
              t.target ?? state,
            );
          }
          // What no narrower default role could send, for whoever reads the run.
          if (plan.byManageAll.length)
            console.info(
              `[workflows] ${def.id}: sent by a role with manage all (no narrower default role grants them): ${plan.byManageAll.join(', ')}`,
            );
          if (plan.bySynthetic.length)
            console.info(
              `[workflows] ${def.id}: sent by the synthetic role (no default role grants them): ${plan.bySynthetic.join(', ')}`,
            );
        });

        it('answers 409 to every event a reachable state does not allow, changing nothing', async () => {
          expect(reached.size, cell('some state was reached')).toBeGreaterThan(0);
          for (const [state, record] of reached) {
            const allowed = new Set(Object.keys(machine.states[state]?.on ?? {}));
            for (const event of events.filter((e) => !allowed.has(e))) {
              const before = await footprint(record.id);
              // The admin holds every ability: only the state can refuse.
              const res = await app.inject({
                method: 'POST',
                url: `${base}/transition/${record.id}`,
                payload: { event, version: record.version },
                headers: { 'accept-language': 'en' },
              });
              expect(res.statusCode, `${cell(state, event, 'admin')}: must refuse: ${res.body}`).toBe(409);
              expect(res.json().message, cell(state, event, 'admin')).toBe(
                "This action is not possible in the record's current status",
              );
              expect(await footprint(record.id), `${cell(state, event, 'admin')}: wrote nothing`).toBe(before);
            }
            const offered = await get(`${base}/events/${record.id}`, admin);
            for (const e of offered.json().events as Array<{ type: string }>)
              expect(allowed.has(e.type), `${cell(state, e.type, 'admin')}: offered but not allowed`).toBe(true);
          }
        });

        it('answers 409 when a guard refuses (another user than the assigned one; a required field emptied), changing nothing', async () => {
          for (const { state, event, t } of allTransitions(machine).filter((x) => x.t.guard)) {
            const record = reached.get(state);
            if (!record) continue;
            const guard =
              typeof t.guard === 'string'
                ? { type: t.guard, params: {} as Record<string, unknown> }
                : (t.guard as { type: string; params?: Record<string, unknown> });
            const payload = payloadFor(
              state,
              event,
              7_000,
              (await get(`${base}/get/${record.id}`, admin)).json(),
              t.target ?? state,
            );
            const body = { event, ...(payload ? { payload } : {}) };
            if (guard.type === 'actorIsAssigned') {
              const offered = await app.inject({
                method: 'GET',
                url: `${base}/events/${record.id}`,
                headers: { 'accept-language': 'en' },
              });
              expect(
                offered.json().events.map((e: { type: string }) => e.type),
                `${cell(state, event, 'admin')}: not offered to another than the assigned user`,
              ).not.toContain(event);
              const before = await footprint(record.id);
              // The admin may send every event but is not the assigned user.
              const res = await app.inject({
                method: 'POST',
                url: `${base}/transition/${record.id}`,
                payload: { ...body, version: record.version },
                headers: { 'accept-language': 'en' },
              });
              expect(res.statusCode, `${cell(state, event, 'admin', 'actorIsAssigned')}: ${res.body}`).toBe(409);
              expect(res.json().message, cell(state, event, 'admin', 'actorIsAssigned')).toMatch(
                /^The conditions for this action are not met/,
              );
              expect(await footprint(record.id), `${cell(state, event, 'admin')}: wrote nothing`).toBe(before);
            } else if (guard.type === 'fieldsFilled') {
              const current = (await get(`${base}/get/${record.id}`, admin)).json() as Record<string, unknown>;
              const emptied = structuredClone(current);
              // Deletes the field at the pointer, nested ones too (e.g. /firstInstance/result).
              for (const pointer of (guard.params?.fields as string[]) ?? []) {
                const segments = pointer.split('/').slice(1);
                const holder = segments
                  .slice(0, -1)
                  .reduce<Record<string, unknown> | undefined>(
                    (node, s) => node?.[s] as Record<string, unknown> | undefined,
                    emptied,
                  );
                if (holder) delete holder[segments.at(-1)!];
              }
              const updated = await app.inject({
                method: 'PUT',
                url: `${base}/update/${record.id}`,
                payload: emptied,
                headers: { 'accept-language': 'en' },
              });
              // A field the schema requires cannot be emptied, so that guard cannot refuse.
              if (updated.statusCode !== 200) continue;
              record.version = updated.json().version;
              const before = await footprint(record.id);
              const res = await send(record.id, { ...body, version: record.version }, senderOf(event).headers);
              const who = plan.byEvent.get(event);
              const fields = ((guard.params?.fields as string[]) ?? []).join(', ');
              expect(res.statusCode, `${cell(state, event, who, fields)} emptied: ${res.body}`).toBe(409);
              expect(await footprint(record.id), `${cell(state, event, who, fields)}: wrote nothing`).toBe(before);
            }
          }
        });

        it('answers 403 to every event sent by a default role that does not grant it, changing nothing, and offers each role only events it holds', async () => {
          const record = await newRecord(9_000);
          let refused = 0;
          for (const role of defaultRoles) {
            const user = roleUsers.get(role.code)!;
            const offered = await get(`${base}/events/${record.id}`, user.headers);
            if (!role.ability.can('read', subject))
              expect(offered.statusCode, `${cell(machine.initial, 'events', role.code)}: may not read`).toBe(403);
            // An OWN role reaches only its own records; this one is the admin's.
            else if (role.scope === 'OWN')
              expect(offered.statusCode, `${cell(machine.initial, 'events', role.code)}: reaches only its own`).toBe(
                404,
              );
            else {
              expect(offered.statusCode, `${cell(machine.initial, 'events', role.code)}: ${offered.body}`).toBe(200);
              for (const e of offered.json().events as Array<{ type: string }>)
                expect(role.ability.can(e.type, subject), `${cell(machine.initial, e.type, role.code)}: offered`).toBe(
                  true,
                );
            }
            if (role.managesAll) continue;
            for (const event of events.filter((e) => !role.ability.can(e, subject))) {
              const before = await footprint(record.id);
              const payload = payloadFor(machine.initial, event, 9_001, record);
              const res = await send(
                record.id,
                { event, version: record.version, ...(payload ? { payload } : {}) },
                user.headers,
              );
              expect(res.statusCode, `${cell(machine.initial, event, role.code)}: ${res.body}`).toBe(403);
              expect(await footprint(record.id), `${cell(machine.initial, event, role.code)}: wrote nothing`).toBe(
                before,
              );
              refused += 1;
            }
          }
          expect(refused, cell('some default role lacks some event')).toBeGreaterThan(0);
        });

        it('refuses a bad body or payload with 400 and a stale version with 409, changing nothing', async () => {
          const record = await newRecord(9_100);
          const [event] = Object.keys(machine.states[machine.initial]?.on ?? {});
          if (!event) return;
          const sender = senderOf(event);
          const before = await footprint(record.id);
          const where = cell(machine.initial, event, plan.byEvent.get(event));
          expect((await send(record.id, { event }, sender.headers)).statusCode, `${where}: no version`).toBe(400);
          expect(
            (await send(record.id, { event, version: record.version, extra: 1 }, sender.headers)).statusCode,
            `${where}: an unknown body property`,
          ).toBe(400);
          const stalePayload = payloadFor(machine.initial, event, 1, record);
          const stale = await send(
            record.id,
            { event, version: record.version + 1, ...(stalePayload ? { payload: stalePayload } : {}) },
            sender.headers,
          );
          expect(stale.statusCode, `${where}: a stale version: ${stale.body}`).toBe(409);
          const schema = payloadSchemaFor(machine, machine.initial, event);
          const badPayload = schema ? {} : { unexpected: true };
          const bad = await send(record.id, { event, version: record.version, payload: badPayload }, sender.headers);
          expect(bad.statusCode, `${where}: a bad payload: ${bad.body}`).toBe(400);
          expect(Object.keys(bad.json().fieldErrors ?? {}), `${where}: the bad payload's fields`).not.toHaveLength(0);
          for (const pointer of Object.keys(bad.json().fieldErrors))
            expect(pointer, cell(machine.initial, event, plan.byEvent.get(event), pointer)).toMatch(/^\/payload(\/|$)/);
          expect(await footprint(record.id), `${where}: wrote nothing`).toBe(before);
        });

        it('refuses every date a transition’s checks rule out with 400 on the payload field, changing nothing, and accepts the earliest allowed one', async () => {
          const untried: string[] = [];
          let n = 0;
          for (const { state, event, t } of allTransitions(machine).filter((x) => x.t.checks?.length)) {
            let record = await driveTo(state, 9_500 + (n += 1));
            if (!record) continue;
            const target = t.target ?? state;
            // The Tashkent day by the app's (real) clock; each case is sent right after, so only a
            // request crossing Tashkent midnight could see another day.
            const today = tashkentToday();
            // Record dates the checks compare with, placed so that each check can refuse on its own:
            // a current deadline ahead of the calendar checks, a signature a few days back.
            let data = dataOf(record);
            for (const c of checkedFields(t).flatMap((f) => f.checks)) {
              if (!c.than || isSystemPointer(c.than)) continue;
              const format = (resolveFieldSchema(def.schema, c.than) as JSONSchema7 | undefined)?.format;
              const day = addDays(today, c.type === 'dateAfterField' ? 10 : -3);
              data = setPointer(structuredClone(data), c.than, format === 'date-time' ? `${day}T07:00:00.000Z` : day);
            }
            if (JSON.stringify(data) !== JSON.stringify(dataOf(record))) {
              // Dates only events change in this status (edit.json): set as the server's own write.
              record = (await app.store.update(
                def.id,
                record.id,
                { ...data, version: record.version },
                systemActor(),
              )) as unknown as typeof record;
            }
            const payload = payloadFor(state, event, 9_600 + n, record, target)!;
            for (const { field, format, checks } of checkedFields(t)) {
              const refused = refusedValues(checks, format, record, today);
              for (const c of checks)
                if (!refused.some((r) => r.check === c)) untried.push(`${cell(state, event, c.field)} (${c.type})`);
              for (const { check, value } of refused) {
                // The first of the field's checks that refuses the value speaks for it, in the machine's order.
                const expected = checks.map((c) => refusal(c, value, record, today)).find(Boolean)!;
                const message = app.translator.t('en', expected.key, expected.params);
                expect(message, `${cell(state, event, field)}: ${expected.key} exists in English`).not.toBe(
                  expected.key,
                );
                const before = await footprint(record.id);
                const res = await send(
                  record.id,
                  { event, version: record.version, payload: { ...payload, [field.slice(1)]: value } },
                  senderOf(event).headers,
                );
                expect(
                  res.statusCode,
                  `${cell(state, event, plan.byEvent.get(event), field)} = ${value} (${check.type}): ${res.body}`,
                ).toBe(400);
                const where = `${cell(state, event, plan.byEvent.get(event), field)} = ${value}`;
                expect(res.json().fieldErrors, `${where}: the field error`).toEqual({ [`/payload${field}`]: message });
                expect(await footprint(record.id), `${where}: wrote nothing`).toBe(before);
              }
            }
            const accepted = await send(
              record.id,
              { event, version: record.version, payload },
              senderOf(event).headers,
            );
            expect(
              accepted.statusCode,
              `${cell(state, event, plan.byEvent.get(event))} with ${JSON.stringify(payload)}: ${accepted.body}`,
            ).toBe(200);
            expect(accepted.json().status, `${cell(state, event)}: the new status`).toBe(target);
          }
          expect(untried, cell('every check refused some date')).toEqual([]);
        });

        it('sends every deadline event as the system once the record’s due date has passed (the sweep)', async () => {
          const deadlines = deadlinesOf(machine);
          let n = 0;
          for (const { state, field, event } of deadlines) {
            const record = await driveTo(state, 9_300 + (n += 1));
            if (!record) continue;
            // Move the due date into the past, as time would: the server's own write, as only
            // events change a deadline in these states (edit.json).
            const current = (await get(`${base}/get/${record.id}`, admin)).json() as Record<string, unknown>;
            const format = (resolveFieldSchema(def.schema, field) as JSONSchema7 | undefined)?.format;
            const edited = setPointer(
              structuredClone(current),
              field,
              format === 'date' ? '2001-02-03' : '2001-02-03T04:05:06Z',
            );
            await app.store.update(def.id, record.id, edited, systemActor());
            const target = transitionsFor(machine, state, event)[0]?.target ?? state;
            const moved = await app.workflow.sweep();
            expect(moved, `${cell(state, event, 'system', field)}: the sweep moves it`).toContainEqual({
              entity: def.id,
              id: record.id,
              event,
              from: state,
              to: target,
            });
            const history = (await get(`${base}/history/${record.id}`, admin)).json().list as Array<
              Record<string, unknown>
            >;
            expect(history.at(-1), `${cell(state, event, 'system', field)}: history`).toMatchObject({
              actor: 'system',
              event,
              from: state,
              to: target,
            });
            expect(
              (await app.workflow.sweep()).filter((m) => m.entity === def.id && m.id === record.id),
              `${cell(state, event, 'system', field)}: a second sweep moves nothing`,
            ).toEqual([]);
          }
        });

        it('lets exactly one of two concurrent transitions of one record win', async () => {
          const record = await newRecord(9_200);
          const [event] = Object.keys(machine.states[machine.initial]?.on ?? {});
          if (!event) return;
          const payload = payloadFor(machine.initial, event, 9_201, record);
          const body = { event, version: record.version, ...(payload ? { payload } : {}) };
          const sender = senderOf(event);
          const replies = await Promise.all([
            send(record.id, body, sender.headers),
            send(record.id, body, sender.headers),
          ]);
          const where = cell(machine.initial, event, plan.byEvent.get(event));
          expect(replies.map((r) => r.statusCode).sort(), `${where}: twice at once`).toEqual([200, 409]);
          const history = await get(`${base}/history/${record.id}`, admin);
          expect(history.json().list, `${where}: one history entry`).toHaveLength(1);
          expect((await get(`${base}/get/${record.id}`, admin)).json().version, `${where}: one new version`).toBe(
            record.version + 1,
          );
        });
      });
    }
  });
}
