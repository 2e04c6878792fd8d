/**
 * Instances of the portal started at the same moment on one fresh PostgreSQL (a cluster's first
 * start, or every pod after an upgrade): each seeds at start-up — the default roles, the first
 * admin, reference lists — and before START_LOCK two of them both created "admin" and one died
 * of the unique username. They now take turns: all start, and each seeded row exists once.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, REPO_ROOT } from '../../src/server/app.ts';
import { TEST_ADMIN_PASSWORD } from '../support/app.ts';
import { createTestDatabase, postgresAvailable } from '../support/databases.ts';
import { postgresTemplate } from '../support/postgres-template.ts';
import { selectedDatabases } from '../support/test-selection.ts';

const INSTANCES = 3;
const access = JSON.parse(readFileSync(path.join(REPO_ROOT, 'schemas/_access/access.json'), 'utf8')) as {
  userEntity: string;
  roleEntity: string;
  roles: Array<{ code: string }>;
};

describe.skipIf(!selectedDatabases().includes('postgres') || !postgresAvailable())(
  `${INSTANCES} instances started together on one new database`,
  () => {
    const apps: FastifyInstance[] = [];
    const dirs: string[] = [];
    let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
    afterAll(async () => {
      for (const app of apps) await app.close();
      await database?.drop();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    });

    it('all start, one admin and each default role once', async () => {
      // From the migrated template, as a database whose schema is in place: nothing slows the seeds apart.
      database = await createTestDatabase(await postgresTemplate());
      const url = database.url;
      const started = await Promise.allSettled(
        Array.from({ length: INSTANCES }, () => {
          const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-together-'));
          dirs.push(dataDir);
          return buildApp({ dataDir, databaseUrl: url, adminPassword: TEST_ADMIN_PASSWORD }).then((app) => {
            apps.push(app);
            return app;
          });
        }),
      );
      expect(started.map((s) => (s.status === 'rejected' ? String(s.reason) : 'started'))).toEqual(
        Array(INSTANCES).fill('started'),
      );
      const app = apps[0]!;
      const users = app.tables.get(access.userEntity)!.table;
      const roles = app.tables.get(access.roleEntity)!.table;
      const admins = await app.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${users} WHERE data->>'username' = 'admin'`,
      );
      expect(admins.rows[0]!.n).toBe(1);
      const perRole = await app.db.query<{ code: string; n: number }>(
        `SELECT data->>'code' AS code, count(*)::int AS n FROM ${roles} GROUP BY 1`,
      );
      const counts = Object.fromEntries(perRole.rows.map((r) => [r.code, r.n]));
      expect(counts).toEqual(Object.fromEntries(access.roles.map((r) => [r.code, 1])));
      // Every instance answers, with the one admin's password.
      for (const each of apps) {
        const res = await each.inject({
          method: 'POST',
          url: '/api/auth-payload',
          payload: { username: 'admin', password: TEST_ADMIN_PASSWORD },
        });
        expect(res.statusCode).toBe(200);
      }
    }, 300_000);
  },
);
