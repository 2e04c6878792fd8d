/**
 * An administrator sets another user's password (`POST /api/auth/set-password`, the Users
 * screen's "Set password" action), on both backends: a confirmation that differs and a
 * password the policy refuses (too short here; tests/contract/password-policy.test.ts has the
 * rest) are refused on their fields in the caller's language and change nothing; a valid one replaces the old password and ends the user's sessions (their
 * refresh token no longer refreshes); a user without the right to update users is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { REPO_ROOT } from '../../src/server/app.ts';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { backends } from '../support/databases.ts';
import { createCaller, signIn, startTestApp } from '../support/app.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const userBase = `/api${registry.entities.get(registry.access!.userEntity)!.manifest.base}`;
const FIRST = 'first password 1';
const NEXT = 'next password 22';

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`setting another user's password on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let call: ReturnType<typeof createCaller>;
    let userId = 0;
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
      call = createCaller(app);
      const created = await call('POST', `${userBase}/create`, {
        username: 'reset-me',
        firstName: 'Dilnoza',
        lastName: 'Karimova',
        isOuter: false,
        canLogin: true,
        roles: ['employee'],
        regionId: 1,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      userId = created.body.id as number;
      expect((await call('POST', '/api/auth/set-password', { userId, password: FIRST })).status).toBe(200);
    });
    afterAll(async () => close?.());

    it("refuses a confirmation that differs and a short password on their fields, in the caller's language, changing nothing", async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/set-password',
        headers: { 'accept-language': 'ru' },
        payload: { userId, password: 'short', confirmPassword: 'other' },
      });
      expect(res.statusCode).toBe(400);
      const { fieldErrors } = res.json() as { fieldErrors: Record<string, string> };
      expect(Object.keys(fieldErrors).sort()).toEqual(['/confirmPassword', '/password']);
      expect(fieldErrors['/confirmPassword']).toBe('Пароли не совпадают');
      expect(fieldErrors['/password']).toBe('Не менее 12 символов (сейчас 5)');
      await expect(signIn(app, 'reset-me', FIRST)).resolves.toMatchObject({ id: userId });
    });

    it("sets a valid one: the new password signs in, the old one does not, and the user's sessions end", async () => {
      const session = await signIn(app, 'reset-me', FIRST);
      const set = await call('POST', '/api/auth/set-password', { userId, password: NEXT, confirmPassword: NEXT });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      await expect(signIn(app, 'reset-me', FIRST)).rejects.toThrow(/401/);
      await expect(signIn(app, 'reset-me', NEXT)).resolves.toMatchObject({ id: userId });
      const refreshed = await app.inject({
        method: 'POST',
        url: '/api/o/token/',
        headers: { authorization: '' },
        payload: { grant_type: 'refresh_token', refresh_token: session.refreshToken },
      });
      expect(refreshed.statusCode).toBe(401);
    });

    it('refuses a user who may not update users', async () => {
      const created = await call('POST', `${userBase}/create`, {
        username: 'plain-staff',
        firstName: 'Bobur',
        lastName: 'Aliyev',
        isOuter: false,
        canLogin: true,
        roles: ['employee'],
        regionId: 1,
      });
      await call('POST', '/api/auth/set-password', { userId: created.body.id, password: FIRST });
      const staff = await signIn(app, 'plain-staff', FIRST);
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/set-password',
        headers: { authorization: `Bearer ${staff.token}` },
        payload: { userId, password: 'taken over 123', confirmPassword: 'taken over 123' },
      });
      expect([403, 404]).toContain(res.statusCode);
      await expect(signIn(app, 'reset-me', NEXT)).resolves.toMatchObject({ id: userId });
    });
  });
}
