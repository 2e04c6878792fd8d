/**
 * The first start on both backends, without ADMIN_PASSWORD: `admin` is created with a random
 * password printed once on the console, that password signs in, and a second start on the
 * same database prints nothing and keeps it. No fixed default password exists anywhere. A
 * chosen ADMIN_PASSWORD the password policy would refuse is used, with a warning in the log.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.ts';
import { backends, createTestDatabase } from '../support/databases.ts';

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`first start on ${backend.name}`, () => {
    let savedAdminPassword: string | undefined;
    beforeEach(() => {
      savedAdminPassword = process.env.ADMIN_PASSWORD;
      delete process.env.ADMIN_PASSWORD;
    });
    afterEach(() => {
      if (savedAdminPassword !== undefined) process.env.ADMIN_PASSWORD = savedAdminPassword;
      vi.restoreAllMocks();
    });

    it('creates admin with a random password printed once, which signs in and survives a restart', async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-first-start-'));
      const database = backend.name === 'postgres' ? await createTestDatabase() : undefined;
      // PGlite on disk (not in memory), so that the second start finds the first one's data.
      const start = async (): Promise<{ app: FastifyInstance; printed: string }> => {
        const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
        const app = await buildApp({ dataDir, databaseUrl: database?.url });
        await app.ready();
        const printed = log.mock.calls.map((args) => args.join(' ')).join('\n');
        log.mockRestore();
        return { app, printed };
      };
      const signIn = (app: FastifyInstance, password: string) =>
        app.inject({ method: 'POST', url: '/api/auth-payload', payload: { username: 'admin', password } });
      try {
        const first = await start();
        const password = /the user "admin" was created with the password (\S+)/.exec(first.printed)?.[1];
        expect(password, first.printed).toBeDefined();
        expect(password!.length).toBeGreaterThanOrEqual(8);
        expect((await signIn(first.app, password!)).statusCode).toBe(200);
        await first.app.close();

        const second = await start();
        try {
          expect(second.printed).not.toContain(password);
          expect(second.printed).not.toMatch(/admin/);
          expect((await signIn(second.app, password!)).statusCode).toBe(200);
          const admins = await second.app.db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM ${second.app.tables.get(second.app.definitions.access!.userEntity)!.table} WHERE data->>'username' = 'admin'`,
          );
          expect(admins.rows[0]!.n).toBe(1);
        } finally {
          await second.app.close();
        }
      } finally {
        await database?.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });

    it('prints nothing when ADMIN_PASSWORD is set, and that password signs in', async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-first-start-'));
      const database = backend.name === 'postgres' ? await createTestDatabase() : undefined;
      process.env.ADMIN_PASSWORD = 'chosen admin password';
      const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
      const app = await buildApp({ dataDir, inMemory: backend.name === 'pglite', databaseUrl: database?.url });
      try {
        await app.ready();
        expect(log.mock.calls.map((args) => args.join(' ')).join('\n')).not.toMatch(/admin/);
        expect(
          (
            await app.inject({
              method: 'POST',
              url: '/api/auth-payload',
              payload: { username: 'admin', password: 'chosen admin password' },
            })
          ).statusCode,
        ).toBe(200);
      } finally {
        delete process.env.ADMIN_PASSWORD;
        await app.close();
        await database?.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });

    it('takes an ADMIN_PASSWORD the password policy refuses, warning in the log; a strong one, silently', async () => {
      for (const [password, warned] of [
        ['admin12345', true],
        ['olive kettle marathon 42', false],
      ] as const) {
        const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-first-start-'));
        const database = backend.name === 'postgres' ? await createTestDatabase() : undefined;
        const lines: Array<{ level: number; msg: string; rule?: string }> = [];
        const logger = { level: 'warn', stream: { write: (line: string) => void lines.push(JSON.parse(line)) } };
        const app = await buildApp({
          dataDir,
          inMemory: backend.name === 'pglite',
          databaseUrl: database?.url,
          adminPassword: password,
          logger,
        });
        try {
          await app.ready();
          expect(
            (await app.inject({ method: 'POST', url: '/api/auth-payload', payload: { username: 'admin', password } }))
              .statusCode,
          ).toBe(200);
          const warning = lines.find((l) => l.msg.includes('ADMIN_PASSWORD does not meet the password policy'));
          if (warned)
            expect(warning, JSON.stringify(lines)).toMatchObject({ level: 40, rule: 'passwordPolicy.tooShort' });
          else expect(warning, JSON.stringify(lines)).toBeUndefined();
        } finally {
          await app.close();
          await database?.drop();
          rmSync(dataDir, { recursive: true, force: true });
        }
      }
    });
  });
}
