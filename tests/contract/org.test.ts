/**
 * Organisation and employees over the real API on both backends: the definition-driven seed
 * (central office + 14 regional departments, exactly once across restarts; the permission
 * catalogue), links between records (`entityRef`), a staff card's canLogin blocking sign-in,
 * the spec's photo uploads and the password change with its confirmation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.ts';
import { backends, createTestDatabase } from '../support/databases.ts';
import { signIn as signInReply, startTestApp, TEST_ADMIN_PASSWORD } from '../support/app.ts';
import { PDF, PNG, multipart } from '../support/multipart.ts';

const en = { 'accept-language': 'en' };
/** Sign-in with the session fields these tests read. */
const signIn = async (...args: Parameters<typeof signInReply>) =>
  (await signInReply(...args)) as Awaited<ReturnType<typeof signInReply>> & {
    employeeId: number | null;
    uploadPath: string | null;
  };

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`organisation on ${backend.name}`, () => {
    it('seeds the central office and its 14 regional departments once, across restarts', async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-org-'));
      const database = backend.name === 'postgres' ? await createTestDatabase() : undefined;
      const start = async () => {
        const app = await buildApp({ dataDir, databaseUrl: database?.url, adminPassword: TEST_ADMIN_PASSWORD });
        await app.ready();
        return app;
      };
      try {
        let app = await start();
        const first = await app.db.query<{
          id: number;
          data: { code: string; parentId?: number; regionId: number; departmentTypeId: number };
        }>('SELECT id, data FROM e_department ORDER BY id');
        expect(first.rows).toHaveLength(15);
        const central = first.rows.find((r) => r.data.code === 'CENTRAL')!;
        expect(central.data).toMatchObject({ regionId: 15, departmentTypeId: 1 });
        expect(central.data.parentId).toBeUndefined();
        const regional = first.rows.filter((r) => r.data.code !== 'CENTRAL');
        expect(
          regional.every((r) => Number(r.data.parentId) === Number(central.id) && r.data.departmentTypeId === 2),
        ).toBe(true);
        expect(new Set(regional.map((r) => r.data.regionId))).toEqual(
          new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]),
        );
        // Audited as the system actor, through the store.
        const audit = await app.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM audit_log WHERE entity = 'department' AND action = 'create' AND actor IS NULL",
        );
        expect(audit.rows[0]!.n).toBe(15);
        const permissions = await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM e_portal_permission');
        // A regional department deleted by staff stays deleted: the table is not empty any more.
        await app.db.query("DELETE FROM e_department WHERE data->>'code' = 'R1735'");
        await app.db.query("DELETE FROM e_portal_permission WHERE data->>'code' = 'read Department'");
        await app.close();

        app = await start();
        const again = await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM e_department');
        expect(again.rows[0]!.n).toBe(14);
        // The catalogue ("missing") puts back what is missing and adds nothing twice.
        const catalogue = await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM e_portal_permission');
        expect(catalogue.rows[0]!.n).toBe(permissions.rows[0]!.n);
        await app.close();
      } finally {
        await database?.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });

    describe('with a running app', () => {
      let app: FastifyInstance;
      let close: () => Promise<void>;
      beforeAll(async () => {
        ({ app, close } = await startTestApp(backend.name));
      });
      afterAll(async () => close?.());

      const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, token?: string) => {
        const res = await app.inject({
          method,
          url,
          payload: payload as never,
          headers: { ...en, ...(token ? { authorization: `Bearer ${token}` } : {}) },
        });
        return { status: res.statusCode, body: res.json() };
      };
      let made = 0;
      /** A staff user with a password; returns their id and a session. */
      const user = async (roles: string[], extra: Record<string, unknown> = {}) => {
        made += 1;
        const username = `org-${backend.name}-${made}`;
        const created = await call('POST', '/api/portal-user/create', {
          username,
          firstName: 'Dilnoza',
          lastName: 'Karimova',
          isOuter: false,
          canLogin: true,
          roles,
          ...extra,
        });
        expect(created.status, JSON.stringify(created.body)).toBe(200);
        expect(
          (await call('POST', '/api/auth/set-password', { userId: created.body.id, password: 'first password 1' }))
            .status,
        ).toBe(200);
        return { id: created.body.id as number, username };
      };
      const centralId = async () =>
        (await app.db.query<{ id: number }>("SELECT id FROM e_department WHERE data->>'code' = 'CENTRAL'")).rows[0]!.id;

      it('serves the department tree data: roots and children by the parent filter', async () => {
        const all = await call('POST', '/api/department/list-search', {
          page: 0,
          itemsPerPage: 100,
          sortBy: ['sortOrder'],
        });
        expect(all.status).toBe(200);
        expect(all.body.total).toBe(15);
        const children = await call('POST', `/api/department/list-search?parentId=${await centralId()}`, {
          page: 0,
          itemsPerPage: 100,
        });
        expect(children.body.total).toBe(14);
        expect(children.body.list.map((d: { code: string }) => d.code)).not.toContain('CENTRAL');
      });

      it('refuses a link to a record that does not exist, naming the field, and writes nothing', async () => {
        const before = await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM e_staff_member');
        const bad = await call('POST', '/api/employee/create', {
          lastName: 'Aliyev',
          firstName: 'Bobur',
          departmentId: 999999,
          canRegister: false,
          canLogin: true,
        });
        expect(bad.status).toBe(400);
        expect(bad.body.fieldErrors).toEqual({ '/departmentId': 'No such record' });
        const badParent = await call('POST', '/api/department/create', {
          nameLt: 'Bo‘lim',
          code: 'X-1',
          departmentTypeId: 4,
          sortOrder: 1,
          parentId: 424242,
        });
        expect(badParent.body.fieldErrors).toEqual({ '/parentId': 'No such record' });
        expect((await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM e_staff_member')).rows[0]!.n).toBe(
          before.rows[0]!.n,
        );
        const unit = await call('POST', '/api/department/create', {
          nameLt: 'Bo‘lim',
          code: `X-2-${backend.name}`.toUpperCase(),
          departmentTypeId: 4,
          sortOrder: 1,
          parentId: await centralId(),
        });
        const self = await call('PUT', `/api/department/update/${unit.body.id}`, {
          ...unit.body,
          parentId: unit.body.id,
        });
        expect(self.body.fieldErrors).toEqual({ '/parentId': 'A record cannot link to itself' });
        const good = await call('POST', '/api/employee/create', {
          lastName: 'Aliyev',
          firstName: 'Bobur',
          departmentId: await centralId(),
          canRegister: false,
          canLogin: true,
        });
        expect(good.status, JSON.stringify(good.body)).toBe(200);
      });

      it('blocks sign-in of a user whose staff card says canLogin = false, by either link', async () => {
        const byCard = await user(['employee']);
        const card = await call('POST', '/api/employee/create', {
          lastName: 'Karimova',
          firstName: 'Dilnoza',
          departmentId: await centralId(),
          canRegister: false,
          canLogin: true,
          userId: byCard.id,
        });
        expect(card.status, JSON.stringify(card.body)).toBe(200);
        const ok = await signIn(app, byCard.username, 'first password 1');
        expect(ok.employeeId ?? null).toBe(card.body.id);
        const blocked = await call('PUT', `/api/employee/update/${card.body.id}`, { ...card.body, canLogin: false });
        expect(blocked.status, JSON.stringify(blocked.body)).toBe(200);
        const refused = await app.inject({
          method: 'POST',
          url: '/api/auth-payload',
          payload: { username: byCard.username, password: 'first password 1' },
          headers: { ...en, authorization: '' },
        });
        expect(refused.statusCode).toBe(401);
        expect(refused.json().message).toBe('Wrong username or password');

        // The other link: the user's employeeId names the card.
        const card2 = await call('POST', '/api/employee/create', {
          lastName: 'Tursunov',
          firstName: 'Jasur',
          departmentId: await centralId(),
          canRegister: true,
          canLogin: false,
        });
        const byUser = await user(['employee'], { employeeId: card2.body.id });
        const refused2 = await app.inject({
          method: 'POST',
          url: '/api/auth-payload',
          payload: { username: byUser.username, password: 'first password 1' },
          headers: { ...en, authorization: '' },
        });
        expect(refused2.statusCode).toBe(401);
        const log = await app.db.query<{ outcome: string }>('SELECT outcome FROM login_attempt WHERE username = $1', [
          byUser.username,
        ]);
        expect(log.rows.map((r) => r.outcome)).toEqual(['disabled']);
        await call('PUT', `/api/employee/update/${card2.body.id}`, { ...card2.body, canLogin: true });
        expect((await signIn(app, byUser.username, 'first password 1')).id).toBe(byUser.id);
      });

      it("uploads one's own photo (images only, localized refusal) and it becomes the avatar", async () => {
        const me = await user(['employee']);
        const card = await call('POST', '/api/employee/create', {
          lastName: 'Karimova',
          firstName: 'Dilnoza',
          departmentId: await centralId(),
          canRegister: false,
          canLogin: true,
          userId: me.id,
        });
        const session = await signIn(app, me.username, 'first password 1');
        expect(session).toMatchObject({ uploadPath: null });
        const auth = { authorization: `Bearer ${session.token}` };
        const pdf = multipart([{ name: 'cv.pdf', type: 'application/pdf', content: PDF }]);
        const refused = await app.inject({
          method: 'POST',
          url: '/api/file-entity/save/employee-photo/for-profile',
          payload: pdf.payload,
          headers: { ...pdf.headers, ...auth, 'accept-language': 'ru' },
        });
        expect(refused.statusCode).toBe(415);
        expect(refused.json().message).toBe('Этот тип файла не допускается');
        const png = multipart([{ field: 'employeePhoto', name: 'me.png', type: 'image/png', content: PNG }]);
        const saved = await app.inject({
          method: 'POST',
          url: '/api/file-entity/save/employee-photo/for-profile',
          payload: png.payload,
          headers: { ...png.headers, ...auth },
        });
        expect(saved.statusCode, saved.body).toBe(200);
        const { uploadPath, recordId, list } = saved.json();
        expect(recordId).toBe(card.body.id);
        expect(uploadPath).toBe(`/api/file-entity/get/${list[0].id}`);
        // The card now holds it (audited as the user), and the user — who may not read cards — may read it.
        const stored = await app.db.query<{ data: { photo: string[] } }>(
          'SELECT data FROM e_staff_member WHERE id = $1',
          [card.body.id],
        );
        expect(stored.rows[0]!.data.photo).toEqual([list[0].id]);
        const audit = await app.db.query<{ actor: string }>(
          "SELECT actor FROM audit_log WHERE entity = 'staff-member' AND record_id = $1 AND action = 'update'",
          [card.body.id],
        );
        expect(audit.rows.map((r) => r.actor)).toEqual([String(me.id)]);
        const image = await app.inject({ method: 'GET', url: uploadPath, headers: auth });
        expect(image.statusCode).toBe(200);
        expect(image.rawPayload.equals(PNG)).toBe(true);
        const profile = await app.inject({ method: 'GET', url: '/api/auth/profile', headers: { ...auth, ...en } });
        expect(profile.json()).toMatchObject({
          id: me.id,
          uploadPath,
          cardId: card.body.id,
          names: { firstName: 'Dilnoza', lastName: 'Karimova' },
          roles: [{ code: 'employee', name: 'Employee' }],
        });
        expect((await signIn(app, me.username, 'first password 1')).uploadPath).toBe(uploadPath);

        // An admin uploads the photo of a given card; one who may not update cards may not.
        const other = multipart([{ field: 'employeePhoto', name: 'x.png', type: 'image/png', content: PNG }]);
        const byAdmin = await app.inject({
          method: 'POST',
          url: `/api/file-entity/save/employee-photo/${card.body.id}`,
          payload: other.payload,
          headers: other.headers,
        });
        expect(byAdmin.statusCode, byAdmin.body).toBe(200);
        const denied = await app.inject({
          method: 'POST',
          url: `/api/file-entity/save/employee-photo/${card.body.id}`,
          payload: other.payload,
          headers: { ...other.headers, ...auth },
        });
        expect(denied.statusCode).toBe(403);
        // The admin has no staff card: their own photo goes on their user record.
        const own = multipart([{ name: 'admin.png', type: 'image/png', content: PNG }]);
        const adminOwn = await app.inject({
          method: 'POST',
          url: '/api/file-entity/save/employee-photo/for-profile',
          payload: own.payload,
          headers: own.headers,
        });
        expect(adminOwn.statusCode, adminOwn.body).toBe(200);
        expect((await signIn(app)).uploadPath).toBe(adminOwn.json().uploadPath);
      });

      it('changes the password: wrong old, mismatch and weak are field errors; then only the new one works', async () => {
        const me = await user(['employee']);
        const token = (await signIn(app, me.username, 'first password 1')).token;
        const change = (body: Record<string, unknown>) => call('POST', '/api/auth/change-password', body, token);
        const wrong = await change({
          oldPassword: 'not my password',
          newPassword: 'second password 2',
          confirmPassword: 'second password 2',
        });
        expect(wrong.status).toBe(400);
        expect(wrong.body.fieldErrors).toEqual({ '/oldPassword': 'The current password is wrong' });
        const mismatch = await change({
          oldPassword: 'first password 1',
          newPassword: 'second password 2',
          confirmPassword: 'second password 3',
        });
        expect(mismatch.body.fieldErrors).toEqual({ '/confirmPassword': 'The passwords do not match' });
        const weak = await change({ oldPassword: 'first password 1', newPassword: 'short', confirmPassword: 'short' });
        expect(weak.body.fieldErrors).toEqual({ '/newPassword': 'At least 12 characters (now 5)' });
        const ok = await change({
          oldPassword: 'first password 1',
          newPassword: 'second password 2',
          confirmPassword: 'second password 2',
        });
        expect(ok.status, JSON.stringify(ok.body)).toBe(200);
        const old = await app.inject({
          method: 'POST',
          url: '/api/auth-payload',
          payload: { username: me.username, password: 'first password 1' },
          headers: { authorization: '' },
        });
        expect(old.statusCode).toBe(401);
        expect((await signIn(app, me.username, 'second password 2')).id).toBe(me.id);
      });

      it("adds the permissions of the staff member's unit (by its type, and for that unit) to their roles'", async () => {
        const regional = (
          await app.db.query<{ id: number }>("SELECT id FROM e_department WHERE data->>'code' = 'R1706'")
        ).rows[0]!.id;
        const other = (await app.db.query<{ id: number }>("SELECT id FROM e_department WHERE data->>'code' = 'R1703'"))
          .rows[0]!.id;
        expect(
          (
            await call('POST', '/api/department-permission-type/create', {
              departmentTypeId: 2,
              permissions: ['read Prefix'],
            })
          ).status,
        ).toBe(200);
        expect(
          (
            await call('POST', '/api/department-permission-type/create', {
              departmentTypeId: 2,
              departmentId: regional,
              permissions: ['read Employee'],
            })
          ).status,
        ).toBe(200);
        const me = await user(['security']);
        await call('POST', '/api/employee/create', {
          lastName: 'Qodirov',
          firstName: 'Anvar',
          departmentId: regional,
          canRegister: false,
          canLogin: true,
          userId: me.id,
        });
        const session = await signIn(app, me.username, 'first password 1');
        expect(session.permissions).toEqual(expect.arrayContaining(['read Prefix', 'read Employee']));
        expect(
          (await call('POST', '/api/prefix/list-search', { page: 0, itemsPerPage: 10 }, session.token)).status,
        ).toBe(200);
        expect(
          (await call('POST', '/api/contractor/list-search', { page: 0, itemsPerPage: 10 }, session.token)).status,
        ).toBe(403);
        // A unit of the same type gets the type's permissions, not the other unit's own.
        const colleague = await user(['security']);
        await call('POST', '/api/employee/create', {
          lastName: 'Qodirova',
          firstName: 'Nodira',
          departmentId: other,
          canRegister: false,
          canLogin: true,
          userId: colleague.id,
        });
        const theirs = await signIn(app, colleague.username, 'first password 1');
        expect(theirs.permissions).toContain('read Prefix');
        expect(theirs.permissions).not.toContain('read Employee');
      });

      it("offers the permission catalogue: access.json's permissions and CRUD of every subject", async () => {
        const list = await call('POST', '/api/portal-permission/list-search?subject=Department', {
          page: 0,
          itemsPerPage: 100,
        });
        expect(list.body.list.map((p: { code: string }) => p.code).sort()).toEqual([
          'create Department',
          'delete Department',
          'read Department',
          'update Department',
        ]);
        expect(
          (await call('GET', '/api/portal-permission/find-by?field=/code&value=manage%20all')).body.record,
        ).toMatchObject({ action: 'manage', subject: 'all' });
      });
    });
  });
}
