/**
 * Model-based tests of every status machine, generated from workflows/*.machine.json with
 * @xstate/graph: for each entity that follows a machine and on both backends,
 *  - every shortest path to every state is driven through the HTTP API, checking status,
 *    version, the events offered and the history after each step;
 *  - from every reachable state, every event the state does not allow answers 409 and
 *    leaves the row, its audit and its history byte-for-byte as they were;
 *  - every event sent by a user whose roles do not grant it answers 403, changing nothing;
 *  - every date a transition's named `checks` rule out (a past new deadline, one not after the
 *    current deadline, a reopening in the future…) answers 400 with the localized message on
 *    the payload field, changing nothing, and the earliest allowed date is accepted; the valid
 *    payloads of every other test satisfy the checks too (tests/support/workflow-checks.ts);
 *  - every state's deadline (`deadline` in the machine): once its due date has passed, the
 *    sweep sends its event as the actor `system`, once;
 *  - two concurrent transitions of one record: exactly one wins.
 * The sender holds a role made of exactly the machine's event permissions ("<EVENT> <Subject>").
 * Guards that need the actor to be the assigned user are satisfied the way staff satisfy
 * them: the record (or the assigning event's payload) names the sender.
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
import { deadlinesOf, machineEvents, payloadSchemaFor, toShapeMachine, transitionsFor } from '../../src/server/workflow/machine.ts';
import { isSystemPointer, resolveFieldSchema } from '../../src/definitions/pointer.ts';
import type { MachineDefinition, Transition } from '../../src/generated/meta.ts';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';
import { createSampler } from '../support/sample-data.ts';
import { dataOf } from '../support/records.ts';
import { checkedFields, refusal, refusedValues, acceptedValue, addDays, satisfyChecks, tashkentToday } from '../support/workflow-checks.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const ajv = createServerAjv();
const seedOf = (id: string): number => [...id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 11);

const followers = [...registry.entities.values()].flatMap((def) => {
  const machine = def.manifest.workflow ? registry.machines.get(def.manifest.workflow) : undefined;
  return machine ? [{ def, machine }] : [];
});

/** Every transition of a machine, with its state and event. */
const allTransitions = (machine: MachineDefinition) =>
  Object.entries(machine.states).flatMap(([state, s]) =>
    Object.entries(s.on ?? {}).flatMap(([event, v]) => (Array.isArray(v) ? v : [v]).map((t: Transition) => ({ state, event, t }))));

/**
 * Where the machine wants the actor to be the assigned user: record fields checked by
 * `actorIsAssigned`, and payload fields that the assigning events copy into them.
 */
function assignedFields(machine: MachineDefinition): { record: Set<string>; payload: Map<string, Set<string>> } {
  const named = (n: unknown) => (typeof n === 'string' ? { type: n, params: {} as Record<string, unknown> } : (n as { type: string; params?: Record<string, unknown> }));
  const record = new Set<string>();
  for (const { t } of allTransitions(machine)) {
    const guard = t.guard ? named(t.guard) : undefined;
    if (guard?.type === 'actorIsAssigned') record.add(String(guard.params?.field).replace(/^\//, ''));
  }
  const payload = new Map<string, Set<string>>();
  for (const { event, t } of allTransitions(machine)) {
    for (const a of (t.actions ?? []).map(named)) {
      if (a.type === 'copyFromPayload' && record.has(String(a.params?.field))) {
        payload.set(event, new Set([...(payload.get(event) ?? []), String(a.params?.from)]));
      }
    }
  }
  return { record, payload };
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
const idAs = (schema: JSONSchema7 | undefined, id: number): unknown => (schema?.type === 'integer' || schema?.type === 'number' ? id : String(id));

for (const backend of backends()) {
  describe.skipIf(!backend.available || followers.length === 0)(`status machines on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
    });
    afterAll(async () => close?.());

    let made = 0;
    /** A role with these permissions (scope ALL) and a signed-in user holding only it. */
    const userWithPermissions = async (permissions: string[]): Promise<{ id: number; headers: Record<string, string> }> => {
      made += 1;
      const code = `wf-test-${made}`;
      const role = await app.inject({ method: 'POST', url: '/api/portal-role/create', payload: { code, name: code, scope: 'ALL', permissions } });
      expect(role.statusCode, role.body).toBe(200);
      const user = await app.inject({ method: 'POST', url: '/api/portal-user/create', payload: { username: `wf-user-${made}`, firstName: 'Flow', lastName: 'Tester', isOuter: false, canLogin: true, roles: [code] } });
      expect(user.statusCode, user.body).toBe(200);
      const id = user.json().id as number;
      const set = await app.inject({ method: 'POST', url: '/api/auth/set-password', payload: { userId: id, password: 'correct horse battery' } });
      expect(set.statusCode, set.body).toBe(200);
      const session = await app.inject({ method: 'POST', url: '/api/auth-payload', payload: { username: `wf-user-${made}`, password: 'correct horse battery' }, headers: { authorization: '' }, remoteAddress: `10.7.${made}.1` });
      expect(session.statusCode, session.body).toBe(200);
      return { id, headers: { authorization: `Bearer ${session.json().token as string}`, 'accept-language': 'en' } };
    };

    for (const { def, machine } of followers) {
      const base = `/api${def.manifest.base}`;
      const subject = def.manifest.subject;
      const events = machineEvents(machine);
      const sampleRecord = createSampler(def.schema, registry.references, ajv);
      const assigned = assignedFields(machine);
      const seed = seedOf(def.id);

      describe(`${def.id} (${machine.id} v${machine.version})`, () => {
        let sender: { id: number; headers: Record<string, string> };
        let outsider: { id: number; headers: Record<string, string> };
        beforeAll(async () => {
          sender = await userWithPermissions([`read ${subject}`, ...events.map((e) => `${e} ${subject}`)]);
          outsider = await userWithPermissions([`read ${subject}`, `update ${subject}`]);
        });

        const send = (id: number, body: Record<string, unknown>, headers: Record<string, string>) =>
          app.inject({ method: 'POST', url: `${base}/transition/${id}`, payload: body, headers });
        const get = (url: string, headers: Record<string, string>) => app.inject({ method: 'GET', url, headers });

        /** A new record (made by the admin) whose assigned-user fields name the sender. */
        const newRecord = async (n: number): Promise<Record<string, unknown> & { id: number; version: number; status: string }> => {
          const data = sampleRecord(seed + n, { full: true });
          for (const field of assigned.record) data[field] = idAs(def.schema.properties?.[field] as JSONSchema7, sender.id);
          const created = await app.inject({ method: 'POST', url: `${base}/create`, payload: data, headers: { 'accept-language': 'en' } });
          expect(created.statusCode, created.body).toBe(200);
          expect(created.json().status).toBe(machine.initial);
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
        const payloadFor = (state: string, event: string, n: number, record: Record<string, unknown>, target?: string): Record<string, unknown> | undefined => {
          const schema = payloadSchemaFor(machine, state, event);
          if (!schema) return undefined;
          const payload = createSampler(schema, registry.references, ajv)(seed + n, { full: true });
          for (const field of assigned.payload.get(event) ?? []) payload[field] = idAs(schema.properties?.[field] as JSONSchema7, sender.id);
          const valid = satisfyChecks(transitionOf(state, event, target), payload, record);
          if (!valid) throw new Error(`${state} --${event}-->: no date passes the transition's checks for ${JSON.stringify(record)}`);
          return valid;
        };

        /** Everything a refused transition must leave alone, as text. */
        const footprint = async (id: number): Promise<string> => {
          const row = await app.db.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM ${tableName(def.id)} t WHERE id = $1`, [id]);
          const history = await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM workflow_history WHERE entity = $1 AND record_id = $2', [def.id, id]);
          const audit = await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log WHERE entity = $1 AND record_id = $2', [def.id, id]);
          return JSON.stringify([row.rows[0]?.row, history.rows[0]?.n, audit.rows[0]?.n]);
        };

        const paths = getShortestPaths(toShapeMachine(machine), { events: events.map((type) => ({ type })) });
        /** A record sitting in each reachable state, left behind by the path tests. */
        const reached = new Map<string, { id: number; version: number }>();

        /** A new record driven by the sender along the shortest path to `state`; undefined when no path leads there. */
        const driveTo = async (state: string, n: number): Promise<(Record<string, unknown> & { id: number; version: number; status: string }) | undefined> => {
          const path = paths.find((p) => String(p.state.value) === state);
          if (!path) return undefined;
          let current = await newRecord(n);
          for (const [i, step] of path.steps.filter((x) => x.event.type !== 'xstate.init').entries()) {
            const from = current.status;
            const payload = payloadFor(from, step.event.type, n * 100 + i, current, String(step.state.value));
            const res = await send(current.id, { event: step.event.type, version: current.version, ...(payload ? { payload } : {}) }, sender.headers);
            expect(res.statusCode, `${from} --${step.event.type}-->: ${res.body}`).toBe(200);
            current = res.json();
          }
          expect(current.status).toBe(state);
          return current;
        };

        it('reaches every state by its shortest path through the API, with status and history after each step', async () => {
          expect(paths.map((p) => String(p.state.value)).sort(), 'every state is reachable').toEqual(Object.keys(machine.states).sort());
          let n = 0;
          for (const path of paths) {
            const record = await newRecord((n += 1));
            let current: Record<string, unknown> = record;
            let { version, status } = record;
            const steps = path.steps.filter((s) => s.event.type !== 'xstate.init');
            for (const [i, step] of steps.entries()) {
              const event = step.event.type;
              const target = String(step.state.value);
              const offered = await get(`${base}/events/${record.id}`, sender.headers);
              expect(offered.statusCode, offered.body).toBe(200);
              expect(offered.json().events.map((e: { type: string }) => e.type), `${status} offers ${event}`).toContain(event);
              const payload = payloadFor(status, event, n * 100 + i, current, target);
              const outboxBefore = (await app.db.query<{ id: number }>('SELECT coalesce(max(id), 0)::int AS id FROM outbox')).rows[0]!.id;
              const res = await send(record.id, { event, version, ...(payload ? { payload } : {}), comment: `step ${i + 1}` }, sender.headers);
              expect(res.statusCode, `${status} --${event}--> ${target}: ${res.body}`).toBe(200);
              // The transition's messages to other systems are queued with it (contact-less, so always).
              const systemNotices = (transitionsFor(machine, status, event).find((t) => (t.target ?? status) === target)?.notify ?? []).filter((x) => x.channel === 'system').map((x) => `${x.to} ${(x as { message?: string }).message}`);
              const queued = await app.db.query<{ what: string }>("SELECT recipient || ' ' || template_key AS what FROM outbox WHERE id > $1 AND channel = 'system' ORDER BY id", [outboxBefore]);
              expect(queued.rows.map((r) => r.what), `${status} --${event}--> system messages`).toEqual(systemNotices);
              expect(res.json()).toMatchObject({ id: record.id, status: target, version: version + 1 });
              const history = await get(`${base}/history/${record.id}`, sender.headers);
              expect(history.statusCode).toBe(200);
              const list = history.json().list as Array<Record<string, unknown>>;
              expect(list).toHaveLength(i + 1);
              expect(list.at(-1)).toMatchObject({ event, from: status, to: target, actor: String(sender.id), actorName: 'Tester Flow', machine: machine.id, machineVersion: machine.version, comment: `step ${i + 1}`, payload: payload ?? {} });
              current = res.json();
              ({ version, status } = res.json());
            }
            expect(status).toBe(String(path.state.value));
            expect((await get(`${base}/get/${record.id}`, sender.headers)).json().status).toBe(status);
            reached.set(status, { id: record.id, version });
          }
        });

        it('answers 409 to every event a reachable state does not allow, changing nothing', async () => {
          expect(reached.size).toBeGreaterThan(0);
          for (const [state, record] of reached) {
            const allowed = new Set(Object.keys(machine.states[state]?.on ?? {}));
            for (const event of events.filter((e) => !allowed.has(e))) {
              const before = await footprint(record.id);
              // The admin holds every ability: only the state can refuse.
              const res = await app.inject({ method: 'POST', url: `${base}/transition/${record.id}`, payload: { event, version: record.version }, headers: { 'accept-language': 'en' } });
              expect(res.statusCode, `${state} must refuse ${event}: ${res.body}`).toBe(409);
              expect(res.json().message).toBe("This action is not possible in the record's current status");
              expect(await footprint(record.id)).toBe(before);
            }
            const offered = await get(`${base}/events/${record.id}`, sender.headers);
            for (const e of offered.json().events as Array<{ type: string }>) expect(allowed.has(e.type)).toBe(true);
          }
        });

        it('answers 409 when a guard refuses (another user than the assigned one; a required field emptied), changing nothing', async () => {
          for (const { state, event, t } of allTransitions(machine).filter((x) => x.t.guard)) {
            const record = reached.get(state);
            if (!record) continue;
            const guard = typeof t.guard === 'string' ? { type: t.guard, params: {} as Record<string, unknown> } : (t.guard as { type: string; params?: Record<string, unknown> });
            const payload = payloadFor(state, event, 7_000, (await get(`${base}/get/${record.id}`, sender.headers)).json(), t.target ?? state);
            const body = { event, ...(payload ? { payload } : {}) };
            if (guard.type === 'actorIsAssigned') {
              const offered = await app.inject({ method: 'GET', url: `${base}/events/${record.id}`, headers: { 'accept-language': 'en' } });
              expect(offered.json().events.map((e: { type: string }) => e.type), `${event} is not offered to another user`).not.toContain(event);
              const before = await footprint(record.id);
              // The admin may send every event but is not the assigned user.
              const res = await app.inject({ method: 'POST', url: `${base}/transition/${record.id}`, payload: { ...body, version: record.version }, headers: { 'accept-language': 'en' } });
              expect(res.statusCode, `${state} --${event}-->: ${res.body}`).toBe(409);
              expect(res.json().message).toMatch(/^The conditions for this action are not met/);
              expect(await footprint(record.id)).toBe(before);
            } else if (guard.type === 'fieldsFilled') {
              const current = (await get(`${base}/get/${record.id}`, sender.headers)).json() as Record<string, unknown>;
              const emptied = structuredClone(current);
              // Deletes the field at the pointer, nested ones too (e.g. /firstInstance/result).
              for (const pointer of (guard.params?.fields as string[]) ?? []) {
                const segments = pointer.split('/').slice(1);
                const holder = segments.slice(0, -1).reduce<Record<string, unknown> | undefined>((node, s) => node?.[s] as Record<string, unknown> | undefined, emptied);
                if (holder) delete holder[segments.at(-1)!];
              }
              const updated = await app.inject({ method: 'PUT', url: `${base}/update/${record.id}`, payload: emptied, headers: { 'accept-language': 'en' } });
              // A field the schema requires cannot be emptied, so that guard cannot refuse.
              if (updated.statusCode !== 200) continue;
              record.version = updated.json().version;
              const before = await footprint(record.id);
              const res = await send(record.id, { ...body, version: record.version }, sender.headers);
              expect(res.statusCode, `${state} --${event}-->: ${res.body}`).toBe(409);
              expect(await footprint(record.id)).toBe(before);
            }
          }
        });

        it('answers 403 to every event sent by a user whose roles do not grant it, changing nothing', async () => {
          const record = await newRecord(9_000);
          expect((await get(`${base}/events/${record.id}`, outsider.headers)).json().events).toEqual([]);
          for (const event of events) {
            const before = await footprint(record.id);
            const payload = payloadFor(machine.initial, event, 9_001, record);
            const res = await send(record.id, { event, version: record.version, ...(payload ? { payload } : {}) }, outsider.headers);
            expect(res.statusCode, `${event}: ${res.body}`).toBe(403);
            expect(await footprint(record.id)).toBe(before);
          }
        });

        it('refuses a bad body or payload with 400 and a stale version with 409, changing nothing', async () => {
          const record = await newRecord(9_100);
          const [event] = Object.keys(machine.states[machine.initial]?.on ?? {});
          if (!event) return;
          const before = await footprint(record.id);
          expect((await send(record.id, { event }, sender.headers)).statusCode).toBe(400);
          expect((await send(record.id, { event, version: record.version, extra: 1 }, sender.headers)).statusCode).toBe(400);
          const stalePayload = payloadFor(machine.initial, event, 1, record);
          const stale = await send(record.id, { event, version: record.version + 1, ...(stalePayload ? { payload: stalePayload } : {}) }, sender.headers);
          expect(stale.statusCode).toBe(409);
          const schema = payloadSchemaFor(machine, machine.initial, event);
          const badPayload = schema ? {} : { unexpected: true };
          const bad = await send(record.id, { event, version: record.version, payload: badPayload }, sender.headers);
          expect(bad.statusCode, bad.body).toBe(400);
          expect(Object.keys(bad.json().fieldErrors ?? {})).not.toHaveLength(0);
          for (const pointer of Object.keys(bad.json().fieldErrors)) expect(pointer).toMatch(/^\/payload(\/|$)/);
          expect(await footprint(record.id)).toBe(before);
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
              const updated = await app.inject({ method: 'PUT', url: `${base}/update/${record.id}`, payload: { ...data, version: record.version }, headers: { 'accept-language': 'en' } });
              expect(updated.statusCode, updated.body).toBe(200);
              record = updated.json() as typeof record;
            }
            const payload = payloadFor(state, event, 9_600 + n, record, target)!;
            for (const { field, format, checks } of checkedFields(t)) {
              const refused = refusedValues(checks, format, record, today);
              for (const c of checks) if (!refused.some((r) => r.check === c)) untried.push(`${state} --${event}--> ${c.type} ${c.field}`);
              for (const { check, value } of refused) {
                // The first of the field's checks that refuses the value speaks for it, in the machine's order.
                const expected = checks.map((c) => refusal(c, value, record, today)).find(Boolean)!;
                const message = app.translator.t('en', expected.key, expected.params);
                expect(message, `${expected.key} exists in English`).not.toBe(expected.key);
                const before = await footprint(record.id);
                const res = await send(record.id, { event, version: record.version, payload: { ...payload, [field.slice(1)]: value } }, sender.headers);
                expect(res.statusCode, `${state} --${event}--> with ${field} = ${value} (${check.type}): ${res.body}`).toBe(400);
                expect(res.json().fieldErrors).toEqual({ [`/payload${field}`]: message });
                expect(await footprint(record.id)).toBe(before);
              }
            }
            const accepted = await send(record.id, { event, version: record.version, payload }, sender.headers);
            expect(accepted.statusCode, `${state} --${event}--> with ${JSON.stringify(payload)}: ${accepted.body}`).toBe(200);
            expect(accepted.json().status).toBe(target);
          }
          expect(untried, 'every check refused some date').toEqual([]);
        });

        it('sends every deadline event as the system once the record’s due date has passed (the sweep)', async () => {
          const deadlines = deadlinesOf(machine);
          let n = 0;
          for (const { state, field, event } of deadlines) {
            const record = await driveTo(state, 9_300 + (n += 1));
            if (!record) continue;
            // Move the due date into the past (the admin may edit it), as time would.
            const current = (await get(`${base}/get/${record.id}`, sender.headers)).json() as Record<string, unknown>;
            const format = (resolveFieldSchema(def.schema, field) as JSONSchema7 | undefined)?.format;
            const edited = setPointer(structuredClone(current), field, format === 'date' ? '2001-02-03' : '2001-02-03T04:05:06Z');
            const updated = await app.inject({ method: 'PUT', url: `${base}/update/${record.id}`, payload: edited, headers: { 'accept-language': 'en' } });
            expect(updated.statusCode, updated.body).toBe(200);
            const target = transitionsFor(machine, state, event)[0]?.target ?? state;
            const moved = await app.workflow.sweep();
            expect(moved).toContainEqual({ entity: def.id, id: record.id, event, from: state, to: target });
            const history = (await get(`${base}/history/${record.id}`, sender.headers)).json().list as Array<Record<string, unknown>>;
            expect(history.at(-1)).toMatchObject({ actor: 'system', event, from: state, to: target });
            expect((await app.workflow.sweep()).filter((m) => m.entity === def.id && m.id === record.id)).toEqual([]);
          }
        });

        it('lets exactly one of two concurrent transitions of one record win', async () => {
          const record = await newRecord(9_200);
          const [event] = Object.keys(machine.states[machine.initial]?.on ?? {});
          if (!event) return;
          const payload = payloadFor(machine.initial, event, 9_201, record);
          const body = { event, version: record.version, ...(payload ? { payload } : {}) };
          const replies = await Promise.all([send(record.id, body, sender.headers), send(record.id, body, sender.headers)]);
          expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 409]);
          const history = await get(`${base}/history/${record.id}`, sender.headers);
          expect(history.json().list).toHaveLength(1);
          expect((await get(`${base}/get/${record.id}`, sender.headers)).json().version).toBe(record.version + 1);
        });
      });
    }
  });
}
