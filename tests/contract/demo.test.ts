/**
 * Demo mode (DEMO=1): one user per default role, named by the role code, regional ones in the
 * first region, each with a random password printed once; every printed pair signs in with
 * the role's permissions. Off unless asked for.
 */
import { delegationPermission } from '../../src/server/auth/delegation.ts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';
import { seedDemoUsers } from '../../src/server/services/demo.ts';
import { configFromEnv } from '../../src/server/app.ts';

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`demo mode on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let printed = '';
    beforeAll(async () => {
      // Capture what the server prints while still printing it.
      const log = vi.spyOn(console, 'log');
      try {
        ({ app, close } = await startTestApp(backend.name, { demoUsers: true }));
        printed = log.mock.calls.map((c) => c.join(' ')).join('\n');
      } finally {
        log.mockRestore();
      }
    });
    afterAll(async () => close?.());

    it('seeds a user per default role and prints each password once', async () => {
      const access = app.definitions.access!;
      const firstRegion = 1;
      for (const role of access.roles.filter((r) => r.code !== 'admin')) {
        const line = printed.split('\n').find((l) => l.trim().startsWith(`${role.code} `));
        expect(line, `printed line of ${role.code}`).toBeTruthy();
        const password = line!.trim().split(/\s+/)[1]!;
        const res = await app.inject({
          method: 'POST',
          url: '/api/auth-payload',
          payload: { username: role.code, password },
          headers: { authorization: '' },
          remoteAddress: `10.88.${access.roles.indexOf(role)}.1`,
        });
        expect(res.statusCode, `${role.code}: ${res.body}`).toBe(200);
        // A role that may grant roles also brings the delegated user administration's marker.
        const marker = role.mayGrantRoles?.length
          ? [delegationPermission(app.definitions.entities.get(access.userEntity)!.manifest.subject)]
          : [];
        expect([...res.json().permissions].sort()).toEqual([...new Set([...role.permissions, ...marker])].sort());
        const user = await app.inject({ method: 'GET', url: `/api/portal-user/get/${res.json().id}` });
        expect(user.json().regionId ?? null).toBe(role.scope === 'REGION' ? firstRegion : null);
      }
      // The admin user already existed: it is left alone, its password is not printed.
      expect(printed.split('\n').some((l) => l.trim().startsWith('admin '))).toBe(false);
    });

    it('creates the outer roles as outer users with the roles registration gives them, never as staff', async () => {
      const access = app.definitions.access!;
      const outer = new Set([...access.outerRoles, ...(access.outerRolesYur ?? [])]);
      expect(outer.has('business'), 'access.json names an outer business role').toBe(true);
      for (const role of access.roles.filter((r) => r.code !== 'admin')) {
        const id = await app.users.idByUsername(role.code);
        const user = (await app.inject({ method: 'GET', url: `/api/portal-user/get/${id}` })).json();
        expect(user.isOuter, `${role.code}: isOuter`).toBe(outer.has(role.code));
        if (access.outerRolesYur?.includes(role.code) && !access.outerRoles.includes(role.code))
          expect(user.roles, `${role.code}: a business user's roles`).toEqual(access.outerRolesYur);
      }
    });

    it('creates nobody twice and prints no password again', async () => {
      expect(await seedDemoUsers(app)).toEqual([]);
    });

    it('is off unless DEMO=1 or DEMO_USERS=1 is set', () => {
      expect(configFromEnv({}).demoUsers).toBe(false);
      expect(configFromEnv({ DEMO: '1' }).demoUsers).toBe(true);
      expect(configFromEnv({ DEMO_USERS: '1' }).demoUsers).toBe(true);
    });
  });
}
