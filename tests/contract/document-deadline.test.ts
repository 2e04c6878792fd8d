/**
 * The document's completion time as a swept deadline (workflows/document.machine.json): while
 * the executor reviews (BEING_SEEN, EXTENDED) the record's `deadline` is its due date, and the
 * sweep sends MARK_EXPIRED as the actor `system` once that Tashkent day has passed. On both
 * backends, with the clock injected (`buildApp({clock})`) so that no test waits for a day:
 *  - the head's resolution (assigning the executor) sets the completion time; due at the end of
 *    its Tashkent day, not a millisecond earlier; moved once;
 *  - an extension asks for a new date (refused when past or not after the current one — 400 on
 *    the field, nothing changed); only once signed does the sweep watch the new date;
 *  - a suspended document is not swept, and the suspension does not move the completion time;
 *  - a reopening clears the old completion time and may give a new one.
 * The admin is the document's executor and signer, so the guards (the assigned user) pass.
 * The clock runs from a day after the real one: records get their creation time from the
 * database, and a reopening may not be dated before the record was created.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { tableName } from '../../src/server/db/entity-table.ts';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';
import { createSampler } from '../support/sample-data.ts';
import { addDays, tashkentToday } from '../support/workflow-checks.ts';
import { formatDate } from '../../src/shared/format.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const ENTITY = 'correspondence';
const def = registry.entities.get(ENTITY)!;
const machine = registry.machines.get(def.manifest.workflow!)!;
const base = `/api${def.manifest.base}`;
const sample = createSampler(def.schema, registry.references, createServerAjv());

/** Day `n` of the scenario (YYYY-MM-DD, a Tashkent day), as shown in messages, and an instant (UTC) on it. */
const DAY0 = addDays(tashkentToday(), 400);
const day = (n: number): string => addDays(DAY0, n);
const shown = (n: number): string => formatDate(day(n));
const moment = (n: number, utcTime: string): string => `${day(n)}T${utcTime}Z`;

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`the document's completion time and the sweep on ${backend.name}`, () => {
    let app: FastifyInstance;
    let adminId: number;
    let close: () => Promise<void>;
    let now = new Date(moment(0, '10:00:00'));
    beforeAll(async () => {
      ({ app, adminId, close } = await startTestApp(backend.name, { clock: () => now }));
    });
    afterAll(async () => close?.());

    const at = (iso: string) => (now = new Date(iso));
    const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
      const res = await app.inject({ method, url, payload: payload as never, headers: { 'accept-language': 'en' } });
      return { status: res.statusCode, body: res.json() as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    const get = async (id: number) => (await call('GET', `${base}/get/${id}`)).body;
    /** Sends an event as the admin to the record's current version; expects it to pass. */
    const step = async (id: number, event: string, payload?: Record<string, unknown>) => {
      const { version } = await get(id);
      const res = await call('POST', `${base}/transition/${id}`, { event, version, ...(payload ? { payload } : {}) });
      expect(res.status, `${event}: ${JSON.stringify(res.body)}`).toBe(200);
      return res.body;
    };
    /** Sweeps and returns what moved of this record (the other tests' records may fall due too). */
    const swept = async (id: number) => (await app.workflow.sweep()).filter((m) => m.entity === ENTITY && m.id === id);
    const lastStep = async (id: number) =>
      ((await call('GET', `${base}/history/${id}`)).body.list as Array<Record<string, unknown>>).at(-1);

    /** A document registered (with a completion time, or none) and seen by the head: in SEEN. */
    const seenDocument = async (seed: number, deadline?: string): Promise<number> => {
      const data: Record<string, unknown> = { ...sample(seed, { full: false, minimal: true }), signerId: adminId };
      delete data.deadline;
      const created = await call('POST', `${base}/create`, deadline ? { ...data, deadline } : data);
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const id = created.body.id as number;
      await step(id, 'SEND_TO_COMMISSION_CHAIR');
      await step(id, 'MARK_SEEN');
      return id;
    };

    it('watches the completion time the resolution sets from the moment the executor is assigned, and marks the document EXPIRED once its Tashkent day has passed', async () => {
      at(moment(0, '10:00:00'));
      const id = await seenDocument(11, day(28));
      // Nothing is watched before the review starts, whatever the registered date.
      at(moment(44, '10:00:00'));
      expect(await swept(id)).toEqual([]);
      at(moment(0, '10:00:00'));
      expect((await step(id, 'ASSIGN_EXECUTOR', { executorId: adminId, deadline: day(8) })).deadline).toBe(day(8));
      const row = await app.db.query<{ due: string }>(
        `SELECT to_char(due_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS due FROM ${tableName(ENTITY)} WHERE id = $1`,
        [id],
      );
      expect(row.rows[0]?.due).toBe(moment(8, '18:59:59.999').slice(0, -1));

      // The last millisecond of the day in Tashkent (23:59:59.999, UTC+5): not yet due.
      at(moment(8, '18:59:59.999'));
      expect(await swept(id)).toEqual([]);
      at(moment(8, '19:00:00.000'));
      expect(await swept(id)).toEqual([
        { entity: ENTITY, id, event: 'MARK_EXPIRED', from: 'BEING_SEEN', to: 'EXPIRED' },
      ]);
      expect(await lastStep(id)).toMatchObject({
        actor: 'system',
        event: 'MARK_EXPIRED',
        from: 'BEING_SEEN',
        to: 'EXPIRED',
        machine: machine.id,
        machineVersion: machine.version,
      });
      expect(await swept(id)).toEqual([]);

      // Left empty, the resolution keeps the completion time registered with the document.
      at(moment(0, '10:00:00'));
      const kept = await seenDocument(12, day(28));
      expect((await step(kept, 'ASSIGN_EXECUTOR', { executorId: adminId })).deadline).toBe(day(28));
    });

    it('refuses a past completion time or extension, and one not after the current deadline, with 400 on the field; a signed extension moves the date the sweep watches', async () => {
      at(moment(0, '10:00:00'));
      const id = await seenDocument(21);
      const before = await get(id);
      const past = await call('POST', `${base}/transition/${id}`, {
        event: 'ASSIGN_EXECUTOR',
        version: before.version,
        payload: { executorId: adminId, deadline: day(-1) },
      });
      expect(past.status).toBe(400);
      expect(past.body.fieldErrors).toEqual({
        '/payload/deadline': 'The completion time cannot be in the past: choose today or a later date',
      });
      expect(await get(id)).toEqual(before);
      // Today (in Tashkent) is the earliest completion time.
      expect((await step(id, 'ASSIGN_EXECUTOR', { executorId: adminId, deadline: day(0) })).deadline).toBe(day(0));

      // Handing the review over keeps the completion time: only a signed extension moves it.
      at(moment(0, '12:00:00'));
      expect((await step(id, 'ASSIGN_EXECUTOR', { executorId: adminId })).deadline).toBe(day(0));
      const current = await get(id);
      const notAfter = await call('POST', `${base}/transition/${id}`, {
        event: 'EXTEND_DEADLINE',
        version: current.version,
        payload: { newDeadline: day(0), reason: 'More documents requested' },
      });
      expect(notAfter.status).toBe(400);
      expect(notAfter.body.fieldErrors).toEqual({
        '/payload/newDeadline': `The new deadline must be after the current one (${shown(0)})`,
      });
      const yesterday = await call('POST', `${base}/transition/${id}`, {
        event: 'EXTEND_DEADLINE',
        version: current.version,
        payload: { newDeadline: day(-1), reason: 'More documents requested' },
      });
      expect(yesterday.body.fieldErrors).toEqual({
        '/payload/newDeadline': 'The new deadline cannot be in the past: choose today or a later date',
      });
      expect(await get(id)).toEqual(current);

      const asked = await step(id, 'EXTEND_DEADLINE', { newDeadline: day(23), reason: 'More documents requested' });
      expect(asked).toMatchObject({ status: 'FOR_EXTENDED_DXA', deadline: day(0), requestedDeadline: day(23) });
      // While the request waits for the signer, the passed date is not watched.
      at(moment(3, '10:00:00'));
      expect(await swept(id)).toEqual([]);
      expect(await step(id, 'SIGN')).toMatchObject({ status: 'EXTENDED', deadline: day(23) });
      expect(await swept(id)).toEqual([]);
      at(moment(23, '19:00:00'));
      expect(await swept(id)).toEqual([{ entity: ENTITY, id, event: 'MARK_EXPIRED', from: 'EXTENDED', to: 'EXPIRED' }]);
      // Once expired, a new extension must be today or later (the current date has passed).
      at(moment(24, '10:00:00'));
      const late = await get(id);
      const refused = await call('POST', `${base}/transition/${id}`, {
        event: 'EXTEND_DEADLINE',
        version: late.version,
        payload: { newDeadline: day(23), reason: 'Still waiting' },
      });
      expect(refused.body.fieldErrors).toEqual({
        '/payload/newDeadline': 'The new deadline cannot be in the past: choose today or a later date',
      });
      expect(await step(id, 'EXTEND_DEADLINE', { newDeadline: day(24), reason: 'Still waiting' })).toMatchObject({
        status: 'FOR_EXTENDED_DXA',
        requestedDeadline: day(24),
      });
    });

    it('does not sweep a suspended document (the suspension does not move the completion time), and a reopening clears the old completion time or sets a new one', async () => {
      at(moment(0, '06:00:00'));
      const id = await seenDocument(31);
      await step(id, 'ASSIGN_EXECUTOR', { executorId: adminId, deadline: day(4) });
      await step(id, 'SUSPEND', { reason: 'Waiting for the tax committee' });
      at(moment(16, '06:00:00'));
      expect(await swept(id)).toEqual([]);
      expect((await get(id)).status).toBe('SUSPENDED');
      await step(id, 'RESUME');
      expect(await swept(id)).toEqual([
        { entity: ENTITY, id, event: 'MARK_EXPIRED', from: 'BEING_SEEN', to: 'EXPIRED' },
      ]);

      await step(id, 'FINISH_WORK');
      // A reopening in the future, or before the document was created, is refused.
      const accepted = await get(id);
      const future = await call('POST', `${base}/transition/${id}`, {
        event: 'REOPEN',
        version: accepted.version,
        payload: { date: day(17), reason: 'The applicant objected' },
      });
      expect(future.body.fieldErrors).toEqual({
        '/payload/date': `The case is reopened now: the date cannot be later than today (${shown(16)})`,
      });
      const early = await call('POST', `${base}/transition/${id}`, {
        event: 'REOPEN',
        version: accepted.version,
        payload: { date: '2020-01-01', reason: 'The applicant objected' },
      });
      expect(early.status).toBe(400);
      expect(early.body.fieldErrors['/payload/date']).toMatch(
        /^The reopening date cannot be before the record was registered \(\d\d\.\d\d\.\d{4} \d\d:\d\d\)$/,
      );
      expect(await get(id)).toEqual(accepted);

      const reopened = await step(id, 'REOPEN', { date: day(16), reason: 'The applicant objected', deadline: day(25) });
      expect(reopened).toMatchObject({ status: 'BEING_SEEN', reopenDate: day(16), deadline: day(25) });
      at(moment(25, '19:00:00'));
      expect(await swept(id)).toEqual([
        { entity: ENTITY, id, event: 'MARK_EXPIRED', from: 'BEING_SEEN', to: 'EXPIRED' },
      ]);

      await step(id, 'FINISH_WORK');
      // 19:00 UTC is already the next day in Tashkent: that is today for the reopening.
      const again = await step(id, 'REOPEN', { date: day(26), reason: 'New facts' });
      expect(again.status).toBe('BEING_SEEN');
      expect(again.deadline).toBeUndefined();
      at(moment(400, '00:00:00'));
      expect(await swept(id)).toEqual([]);
    });
  });
}
