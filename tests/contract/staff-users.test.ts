/**
 * The staff picker's directory and the `staffUser` check, on both backends:
 *  - `GET /api/staff-users` finds staff users who may sign in by name, as "Last First Middle"
 *    with their unit (department) from the staff card; outer users, users who may not sign in and
 *    cards that may not sign in are not offered; by ids it names the stored values; outer users
 *    and visitors may not ask;
 *  - a transition's payload (`ASSIGN_EXECUTOR`) and a record's field (`signerId`) holding a
 *    citizen's, a locked user's or an unknown id get 400 `validation.staffUser` in the caller's
 *    language on that field, and nothing changes; a staff user's id passes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { REPO_ROOT } from '../../src/server/app.ts';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { backends } from '../support/databases.ts';
import { createCaller, signIn, startTestApp } from '../support/app.ts';
import { createSampler } from '../support/sample-data.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const ajv = createServerAjv();
const access = registry.access!;
const cardBase = `/api${registry.entities.get(access.employeeEntity!)!.manifest.base}`;
const userBase = `/api${registry.entities.get(access.userEntity)!.manifest.base}`;
const PASSWORD = 'correct horse battery';
const baseOf = (entity: string) => `/api${registry.entities.get(entity)!.manifest.base}`;
const APPEAL = baseOf('pharmacy-appeal');
const DOCUMENT = baseOf('correspondence');

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`staff users on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let call: ReturnType<typeof createCaller>;
    const ids: Record<string, number> = {};
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
      call = createCaller(app);
      const user = async (key: string, body: Record<string, unknown>) => {
        const res = await call('POST', `${userBase}/create`, {
          username: key,
          firstName: 'X',
          lastName: key,
          roles: ['executor'],
          regionId: 1,
          ...body,
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        ids[key] = res.body.id as number;
        await call('POST', '/api/auth/set-password', { userId: ids[key], password: PASSWORD });
      };
      await user('karimov', { isOuter: false, canLogin: true });
      await user('locked', { isOuter: false, canLogin: false, lastName: 'Karimova' });
      await user('citizen', { isOuter: true, canLogin: true, roles: ['citizen'], lastName: 'Karimbekov' });
      await user('carded-off', { isOuter: false, canLogin: true, lastName: 'Karimjonov' });
      const card = async (userId: number, body: Record<string, unknown>) => {
        const res = await call('POST', `${cardBase}/create`, { departmentId: 1, userId, canRegister: false, ...body });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      };
      await card(ids.karimov!, { lastName: 'Karimov', firstName: 'Aziz', middleName: 'Olimovich', canLogin: true });
      await card(ids['carded-off']!, { lastName: 'Karimjonov', firstName: 'Bek', canLogin: false });
    });
    afterAll(async () => close?.());

    it('finds staff who may sign in by name, with their unit (department); names stored ids; staff only', async () => {
      const found = await call('GET', '/api/staff-users?search=KARIM');
      expect(found.status).toBe(200);
      const names = found.body.list.map((u: { name: string }) => u.name);
      expect(names).toEqual(['Karimov Aziz Olimovich']);
      const karimov = found.body.list[0];
      expect(karimov.id).toBe(ids.karimov);
      expect(typeof karimov.unit).toBe('string');
      expect(karimov.unit.length).toBeGreaterThan(0);

      const named = await call('GET', `/api/staff-users?ids=${ids.karimov},${ids.citizen},${ids.locked},999999`);
      expect(named.body.list.map((u: { id: number }) => u.id)).toEqual([ids.karimov]);

      const citizen = await signIn(app, 'citizen', PASSWORD);
      const asCitizen = await app.inject({
        method: 'GET',
        url: '/api/staff-users?search=a',
        headers: { authorization: `Bearer ${citizen.token}` },
      });
      expect(asCitizen.statusCode).toBe(403);
      const anonymous = await app.inject({
        method: 'GET',
        url: '/api/staff-users?search=a',
        headers: { authorization: '' },
      });
      expect(anonymous.statusCode).toBe(401);
      expect((await call('GET', '/api/staff-users?ids=1;DROP')).status).toBe(400);
    });

    it('refuses a non-staff or unknown executor in a transition, localized, and changes nothing', async () => {
      const data = createSampler(
        registry.entities.get('pharmacy-appeal')!.schema,
        registry.references,
        ajv,
      )(5, { full: true });
      delete data.executorId;
      let record = (await call('POST', `${APPEAL}/create`, data)).body;
      for (const event of ['ASSIGN_TO_REGION', 'CONFIRM']) {
        const moved = await call('POST', `${APPEAL}/transition/${record.id}`, { event, version: record.version });
        expect(moved.status, JSON.stringify(moved.body)).toBe(200);
        record = moved.body;
      }
      for (const bad of [ids.citizen, ids.locked, ids['carded-off'], 999_999]) {
        const refused = await call('POST', `${APPEAL}/transition/${record.id}`, {
          event: 'ASSIGN_EXECUTOR',
          version: record.version,
          payload: { executorId: bad },
        });
        expect(refused.status, `${bad}: ${JSON.stringify(refused.body)}`).toBe(400);
        expect(Object.keys(refused.body.fieldErrors)).toEqual(['/payload/executorId']);
      }
      const ru = await app.inject({
        method: 'POST',
        url: `${APPEAL}/transition/${record.id}`,
        payload: { event: 'ASSIGN_EXECUTOR', version: record.version, payload: { executorId: ids.citizen } },
        headers: { 'accept-language': 'ru' },
      });
      expect(ru.json().fieldErrors['/payload/executorId']).toBe('Выберите сотрудника, который может войти в систему');
      const unchanged = await call('GET', `${APPEAL}/get/${record.id}`);
      expect(unchanged.body).toMatchObject({ status: 'BEING_SEEN', version: record.version });
      const history = await call('GET', `${APPEAL}/history/${record.id}`);
      expect(history.body.list).toHaveLength(2);

      const assigned = await call('POST', `${APPEAL}/transition/${record.id}`, {
        event: 'ASSIGN_EXECUTOR',
        version: record.version,
        payload: { executorId: ids.karimov },
      });
      expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
      expect(assigned.body).toMatchObject({ status: 'PROCCESS', executorId: ids.karimov });
    });

    it('refuses a non-staff signer on a record; a staff signer passes and stays valid on update', async () => {
      const data = createSampler(
        registry.entities.get('correspondence')!.schema,
        registry.references,
        ajv,
      )(9, { full: false, minimal: true });
      const refused = await call('POST', `${DOCUMENT}/create`, { ...data, signerId: ids.citizen });
      expect(refused.status).toBe(400);
      expect(Object.keys(refused.body.fieldErrors)).toEqual(['/signerId']);
      const created = await call('POST', `${DOCUMENT}/create`, { ...data, signerId: ids.karimov });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const { id, version, status: _s, createdAt: _c, updatedAt: _u, ...rest } = created.body;
      const updated = await call('PUT', `${DOCUMENT}/update/${id}`, { ...rest, version, summary: 'Changed summary' });
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
      const swapped = await call('PUT', `${DOCUMENT}/update/${id}`, {
        ...rest,
        version: updated.body.version,
        signerId: ids.locked,
      });
      expect(swapped.status).toBe(400);
      expect(Object.keys(swapped.body.fieldErrors)).toEqual(['/signerId']);
    });
  });
}
