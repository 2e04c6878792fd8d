/**
 * Saved views of lists (issue #17), `/api/views/{screen}`: a user saves the list as arranged
 * (name, filters, sort, columns), reads it back, replaces it under the same name and deletes
 * it; a view naming a filter, sort or column the list does not have is refused in plain words;
 * another user can neither read nor delete mine; a visitor is asked to sign in.
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
const PASSWORD = 'correct horse battery';
const SCREEN = 'appeal-list';
const state = {
  filters: { statusId: 'NEW', createdDateFrom: '2025-02-01' },
  sort: [{ field: '/createdAt', desc: true }],
  columns: [
    { field: '/status', width: 160 },
    { field: '/id', hidden: true },
  ],
};

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`saved views on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let call: ReturnType<typeof createCaller>;
    let otherToken: string;
    /** A request as the other user. */
    const asOther = async (method: 'GET' | 'DELETE', url: string) => {
      const res = await app.inject({ method, url, headers: { authorization: `Bearer ${otherToken}` } });
      return { status: res.statusCode, body: res.json() as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
      call = createCaller(app);
      const res = await call('POST', `${userBase}/create`, {
        username: 'executor1',
        firstName: 'X',
        lastName: 'Executor',
        roles: ['executor'],
        regionId: 1,
        isOuter: false,
        canLogin: true,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      await call('POST', '/api/auth/set-password', { userId: res.body.id, password: PASSWORD });
      otherToken = (await signIn(app, 'executor1', PASSWORD)).token;
    });
    afterAll(async () => close?.());

    it('saves a view, lists it, replaces it under the same name and deletes it', async () => {
      const saved = await call('POST', `/api/views/${SCREEN}`, { name: ' New this month ', state });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(saved.body).toEqual({ id: expect.any(Number), name: 'New this month', state });
      const again = await call('POST', `/api/views/${SCREEN}`, {
        name: 'New this month',
        state: { ...state, filters: { statusId: 'NEW' } },
      });
      expect(again.body.id).toBe(saved.body.id);
      const listed = await call('GET', `/api/views/${SCREEN}`);
      expect(listed.body.list).toEqual([
        { id: saved.body.id, name: 'New this month', state: { ...state, filters: { statusId: 'NEW' } } },
      ]);
      expect((await call('DELETE', `/api/views/${SCREEN}/${saved.body.id}`)).body).toEqual({ ok: true });
      expect((await call('GET', `/api/views/${SCREEN}`)).body.list).toEqual([]);
      expect((await call('DELETE', `/api/views/${SCREEN}/${saved.body.id}`)).status).toBe(404);
    });

    it('refuses a view naming a filter, sort or column the list does not have, in plain words', async () => {
      const save = (s: unknown) => call('POST', `/api/views/${SCREEN}`, { name: 'Broken', state: s });
      const ghostFilter = await save({ ...state, filters: { ghost: '1' } });
      expect(ghostFilter.status).toBe(400);
      expect(ghostFilter.body.message).toBe('This list has no filter “ghost”, so the view cannot be saved');
      const ghostSort = await save({ ...state, sort: [{ field: '/ghost', desc: false }] });
      expect(ghostSort.body.message).toBe('This list cannot be sorted by “/ghost”, so the view cannot be saved');
      const ghostColumn = await save({ ...state, columns: [{ field: '/ghost' }] });
      expect(ghostColumn.body.message).toBe('This list has no column “/ghost”, so the view cannot be saved');
      expect((await save({ filters: {}, sort: [] })).status).toBe(400);
      expect((await call('POST', `/api/views/${SCREEN}`, { name: '   ', state })).status).toBe(400);
      expect((await call('POST', '/api/views/home', { name: 'x', state })).status).toBe(404);
      expect((await call('GET', `/api/views/${SCREEN}`)).body.list).toEqual([]);
    });

    it('keeps my views to me: another user can neither read nor delete them; a visitor must sign in', async () => {
      const mine = await call('POST', `/api/views/${SCREEN}`, { name: 'Mine', state });
      expect(mine.status).toBe(200);
      expect((await asOther('GET', `/api/views/${SCREEN}`)).body.list).toEqual([]);
      expect((await asOther('DELETE', `/api/views/${SCREEN}/${mine.body.id}`)).status).toBe(404);
      expect((await call('GET', `/api/views/${SCREEN}`)).body.list.map((v: { name: string }) => v.name)).toEqual([
        'Mine',
      ]);
      const anonymous = await app.inject({
        method: 'GET',
        url: `/api/views/${SCREEN}`,
        headers: { authorization: '' },
      });
      expect(anonymous.statusCode).toBe(401);
    });
  });
}
