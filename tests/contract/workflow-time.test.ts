/**
 * Deadlines as data: a state's `deadline` (workflows/*.machine.json) makes the record's due
 * date a typed, indexed `due_at` column, and the workflow sweep sends the state's deadline
 * event through the ordinary transition path as the actor `system`. On both backends:
 *  - a record past its deadline is moved, with a `system` history and audit row; one before
 *    it is not; a second sweep moves nothing;
 *  - the sweep on two app instances over one PostgreSQL database moves each record once;
 *  - restart safety: the app is stopped, the clock moves, a new app on the same database
 *    sweeps — nothing was held in memory;
 *  - the periodic sweep (`sweepIntervalMs`) does the same on its own.
 * The clock is injected (`buildApp({clock})`): no test waits for a deadline.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, REPO_ROOT } from '../../src/server/app.ts';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { tableName } from '../../src/server/db/entity-table.ts';
import { backends, createTestDatabase } from '../support/databases.ts';
import { signIn, TEST_ADMIN_PASSWORD } from '../support/app.ts';
import { createSampler } from '../support/sample-data.ts';
import { waitFor } from '../support/mailboxes.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const ajv = createServerAjv();

// The citizen appeal: taking it for review sets its review deadline 15 days ahead (by the
// injected clock); UNDER_REVIEW keeps that deadline and the sweep sends MARK_OVERDUE.
const ENTITY = 'appeal';
const def = registry.entities.get(ENTITY)!;
const machine = registry.machines.get(def.manifest.workflow!)!;
const deadline = machine.states.UNDER_REVIEW!.deadline!;
const sample = createSampler(def.schema, registry.references, ajv);
const base = `/api${def.manifest.base}`;

/** A mutable clock, as `buildApp({clock})` takes it. */
const clockAt = (iso: string) => {
  let now = new Date(iso);
  return { clock: () => now, set: (next: string) => (now = new Date(next)) };
};

interface Running {
  app: FastifyInstance;
  call(method: 'GET' | 'POST', url: string, payload?: unknown): Promise<{ status: number; body: Record<string, any> }>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** An app on a given database (PGlite in `dataDir`, or PostgreSQL at `databaseUrl`), signed in as admin. */
async function boot(
  where: { dataDir: string; databaseUrl?: string },
  clock: () => Date,
  extra: { sweepIntervalMs?: number } = {},
): Promise<Running> {
  const app = await buildApp({
    dataDir: where.dataDir,
    inMemory: false,
    databaseUrl: where.databaseUrl,
    adminPassword: TEST_ADMIN_PASSWORD,
    clock,
    ...extra,
  });
  await app.ready();
  const { token } = await signIn(app);
  return {
    app,
    async call(method, url, payload) {
      const res = await app.inject({
        method,
        url,
        payload: payload as never,
        headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
      });
      return { status: res.statusCode, body: res.json() };
    },
  };
}

/** A new appeal taken for review now (by the app's clock): in UNDER_REVIEW with its deadline set. */
async function appealUnderReview(r: Running, seed: number): Promise<{ id: number; version: number; due: string }> {
  const created = await r.call('POST', `${base}/create`, sample(seed, { full: true }));
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const taken = await r.call('POST', `${base}/transition/${created.body.id}`, {
    event: 'TAKE_FOR_REVIEW',
    version: created.body.version,
  });
  expect(taken.status, JSON.stringify(taken.body)).toBe(200);
  expect(taken.body.status).toBe('UNDER_REVIEW');
  return { id: taken.body.id, version: taken.body.version, due: taken.body[deadline.field.slice(1)] as string };
}

const statusOf = async (r: Running, id: number): Promise<string> =>
  (await r.call('GET', `${base}/get/${id}`)).body.status as string;
const historyOf = async (r: Running, id: number) =>
  (await r.call('GET', `${base}/history/${id}`)).body.list as Array<Record<string, unknown>>;

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`deadlines and the sweep on ${backend.name}`, () => {
    const cleanups: Array<() => Promise<void> | void> = [];
    afterAll(async () => {
      for (const c of cleanups.reverse()) await c();
    });
    /** A fresh database for one test: a PGlite directory or a PostgreSQL database. */
    const freshDatabase = async (): Promise<{ dataDir: string; databaseUrl?: string }> => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-sweep-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      if (backend.name === 'pglite') return { dataDir };
      const db = await createTestDatabase();
      cleanups.push(() => db.drop());
      return { dataDir, databaseUrl: db.url };
    };

    it('moves a record past its deadline as the system, leaves one before it, and moves it once', async () => {
      const time = clockAt('2026-03-01T10:00:00Z');
      const r = await boot(await freshDatabase(), time.clock);
      cleanups.push(() => r.app.close());
      const late = await appealUnderReview(r, 101);
      expect(late.due).toBe('2026-03-16');
      // Taken five days later: its deadline is five days later too.
      time.set('2026-03-06T10:00:00Z');
      const early = await appealUnderReview(r, 102);
      expect(early.due).toBe('2026-03-21');

      // The due date is a typed, indexed column: the end of the due day in Tashkent (UTC+5).
      const row = await r.app.db.query<{ due: string }>(
        `SELECT to_char(due_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS due FROM ${tableName(ENTITY)} WHERE id = $1`,
        [late.id],
      );
      expect(row.rows[0]?.due).toBe('2026-03-16T18:59:59.999');
      const index = await r.app.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_indexes WHERE tablename = $1 AND indexdef LIKE '%(due_at, id)%'`,
        [tableName(ENTITY)],
      );
      expect(index.rows[0]?.n).toBe(1);
      // The sweep's query can be answered from that index alone.
      const plan = await r.app.db.transaction(async (tx) => {
        await tx.query('SET LOCAL enable_seqscan = off');
        return tx.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN SELECT id FROM ${tableName(ENTITY)} WHERE due_at <= now() ORDER BY due_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
        );
      });
      expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toMatch(
        new RegExp(`Index Scan using ix_${tableName(ENTITY)}_due`),
      );

      // The last millisecond of the due day in Tashkent (23:59:59.999 local): nothing is due yet.
      time.set('2026-03-16T18:59:59.999Z');
      expect(await r.app.workflow.sweep()).toEqual([]);
      expect(await statusOf(r, late.id)).toBe('UNDER_REVIEW');

      // Midnight in Tashkent — still 16 March in UTC — the day has passed.
      time.set('2026-03-16T19:00:00Z');
      const moved = await r.app.workflow.sweep();
      expect(moved).toEqual([
        { entity: ENTITY, id: late.id, event: deadline.event, from: 'UNDER_REVIEW', to: 'OVERDUE' },
      ]);
      expect(await statusOf(r, late.id)).toBe('OVERDUE');
      expect(await statusOf(r, early.id)).toBe('UNDER_REVIEW');
      const history = await historyOf(r, late.id);
      expect(history.at(-1)).toMatchObject({
        actor: 'system',
        event: deadline.event,
        from: 'UNDER_REVIEW',
        to: 'OVERDUE',
        machine: machine.id,
        machineVersion: machine.version,
      });
      const audit = await r.call('GET', `${base}/audit/${late.id}`);
      expect(JSON.stringify(audit.body)).toContain('"system"');
      // OVERDUE keeps no deadline: the record left the sweep's index.
      const after = await r.app.db.query<{ due: string | null }>(
        `SELECT due_at::text AS due FROM ${tableName(ENTITY)} WHERE id = $1`,
        [late.id],
      );
      expect(after.rows[0]?.due).toBeNull();

      // Idempotent: a second sweep finds nothing, and the record has one overdue step.
      expect(await r.app.workflow.sweep()).toEqual([]);
      expect((await historyOf(r, late.id)).filter((h) => h.event === deadline.event)).toHaveLength(1);

      // A deadline moved by the record's own data is honoured: it is data, not a timer.
      time.set('2026-03-22T00:00:01Z');
      expect((await r.app.workflow.sweep()).map((m) => m.id)).toEqual([early.id]);
    });

    it('survives a restart: stop the app, move the clock, start a new app on the same database, sweep', async () => {
      const where = await freshDatabase();
      const time = clockAt('2026-05-01T08:00:00Z');
      const first = await boot(where, time.clock);
      const record = await appealUnderReview(first, 201);
      await first.app.close();

      time.set('2026-06-01T08:00:00Z');
      const second = await boot(where, time.clock);
      cleanups.push(() => second.app.close());
      expect(await second.app.workflow.sweep()).toEqual([
        { entity: ENTITY, id: record.id, event: deadline.event, from: 'UNDER_REVIEW', to: 'OVERDUE' },
      ]);
      expect(await statusOf(second, record.id)).toBe('OVERDUE');
      expect((await historyOf(second, record.id)).at(-1)).toMatchObject({ actor: 'system', event: deadline.event });
    });

    it('sweeps on its own every sweepIntervalMs', async () => {
      const time = clockAt('2026-07-01T08:00:00Z');
      const r = await boot(await freshDatabase(), time.clock, { sweepIntervalMs: 25 });
      cleanups.push(() => r.app.close());
      const record = await appealUnderReview(r, 301);
      time.set('2026-08-01T08:00:00Z');
      await waitFor(async () => ((await statusOf(r, record.id)) === 'OVERDUE' ? true : undefined));
      expect((await historyOf(r, record.id)).at(-1)).toMatchObject({ actor: 'system', event: deadline.event });
    });

    it.skipIf(backend.name !== 'postgres')(
      'moves each record once when two instances sweep one database at the same time',
      async () => {
        const where = await freshDatabase();
        const time = clockAt('2026-09-01T08:00:00Z');
        const a = await boot(where, time.clock);
        const b = await boot({ ...where, dataDir: mkdtempSync(path.join(os.tmpdir(), 'portal-sweep-')) }, time.clock);
        cleanups.push(
          () => a.app.close(),
          () => b.app.close(),
        );
        const ids: number[] = [];
        for (let i = 0; i < 12; i += 1) ids.push((await appealUnderReview(a, 400 + i)).id);
        time.set('2026-10-01T08:00:00Z');
        const [fromA, fromB] = await Promise.all([a.app.workflow.sweep(), b.app.workflow.sweep()]);
        const moved = [...fromA, ...fromB].map((m) => m.id).sort((x, y) => x - y);
        expect(moved).toEqual(ids);
        const steps = await a.app.db.query<{ record_id: string; n: number }>(
          `SELECT record_id::text, count(*)::int AS n FROM workflow_history WHERE entity = $1 AND event = $2 GROUP BY record_id`,
          [ENTITY, deadline.event],
        );
        expect(steps.rows).toHaveLength(ids.length);
        for (const row of steps.rows) expect(row.n).toBe(1);
        expect(await a.app.workflow.sweep()).toEqual([]);
        expect(await b.app.workflow.sweep()).toEqual([]);
      },
    );
  });
}
