/**
 * Fair price staff on both backends (issue #6): the monitored goods as an entity that backs the
 * reference list fair-price-product (seeded with the former ids, managed by the supervisors,
 * read by the public page, grids and open data in four languages), the delegated user
 * administration of access.json `mayGrantRoles` (a fair-price supervisor lists, creates,
 * disables and resets the password of the price monitors of their region — and nothing else of
 * users), and the server-stamped author of each price entry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { signIn, startTestApp } from '../support/app.ts';

const anon = { authorization: '' };
const REGION = 6;
const OTHER_REGION = 3;
const PASSWORD = 'monitor-pass-1';

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`fair price staff on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let adminId: number;
    let supervisor: { token: string; id: number; permissions: string[] };
    const ids: Record<string, number> = {};
    const as = (token: string) => ({ authorization: `Bearer ${token}`, 'accept-language': 'en' });
    /** A user created by the administrator, with a password. */
    const adminCreates = async (username: string, roles: string[], regionId: number): Promise<number> => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/portal-user/create',
        payload: { username, firstName: 'Test', lastName: username, isOuter: false, canLogin: true, roles, regionId },
      });
      expect(res.statusCode).toBe(200);
      const id = res.json().id as number;
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/api/auth/set-password',
            payload: { userId: id, password: PASSWORD },
          })
        ).statusCode,
      ).toBe(200);
      return id;
    };
    const monitor = (username: string, extra: Record<string, unknown> = {}) => ({
      username,
      firstName: 'Monitor',
      lastName: username,
      isOuter: false,
      canLogin: true,
      roles: ['price-monitor'],
      regionId: REGION,
      ...extra,
    });

    beforeAll(async () => {
      ({ app, close, adminId } = await startTestApp(backend.name));
      ids.supervisor = await adminCreates('fp-supervisor', ['fair-price-admin'], REGION);
      ids.employee = await adminCreates('fp-employee', ['employee'], REGION);
      ids.otherMonitor = await adminCreates('fp-monitor-elsewhere', ['price-monitor'], OTHER_REGION);
      ids.adminMonitor = await adminCreates('fp-monitor-admin-made', ['price-monitor'], REGION);
      supervisor = await signIn(app, 'fp-supervisor', PASSWORD);
    }, 120_000);
    afterAll(async () => close?.());

    describe('goods', () => {
      it('are seeded with the ids of the former static list, named in four languages', async () => {
        const res = await app.inject({ method: 'GET', url: '/api/reference/fair-price-product', headers: anon });
        expect(res.statusCode).toBe(200);
        const list = res.json().list as Array<Record<string, unknown>>;
        expect(list).toHaveLength(24);
        expect(list[0]).toMatchObject({
          id: 1,
          code: 'BREAD_LOAF_600G',
          nameEn: 'Bread (600 g loaf)',
          nameRu: 'Хлеб (буханка 600 г)',
          nameLt: 'Non (600 g li buxanka)',
          nameUz: 'Нон (600 г ли буханка)',
        });
        expect(list.find((i) => i.id === 11)).toMatchObject({ code: 'EGGS' });
        const record = await app.inject({ method: 'GET', url: '/api/fair-price-product/get/11', headers: anon });
        expect(record.json()).toMatchObject({ code: 'EGGS', defaultUnitId: 3, active: true });
      });

      it('a supervisor adds one: offered at once, priced by a monitor, aggregated and published by name', async () => {
        const created = await app.inject({
          method: 'POST',
          url: '/api/fair-price-product/create',
          headers: as(supervisor.token),
          payload: {
            code: 'HONEY',
            nameLt: 'Asal',
            nameUz: 'Асал',
            nameRu: 'Мёд',
            nameEn: 'Honey',
            defaultUnitId: 1,
            active: true,
            order: 250,
          },
        });
        expect(created.statusCode).toBe(200);
        ids.honey = created.json().id;
        expect(ids.honey).toBe(25);
        const list = (
          await app.inject({ method: 'GET', url: '/api/reference/fair-price-product', headers: anon })
        ).json().list as Array<Record<string, unknown>>;
        expect(list.at(-1)).toMatchObject({ id: 25, nameRu: 'Мёд' });

        const mon = await signIn(app, 'fp-monitor-admin-made', PASSWORD);
        const price = await app.inject({
          method: 'POST',
          url: '/api/fair-price/create',
          headers: as(mon.token),
          payload: {
            productId: ids.honey,
            unitId: 1,
            marketTypeId: 1,
            regionId: REGION,
            minPrice: 80000,
            maxPrice: 120000,
            avgPrice: 95000,
            date: '2026-11-20',
            owner: String(adminId),
          },
        });
        expect(price.statusCode).toBe(200);
        // The author is stamped by the server from the session, whatever the body says.
        expect(price.json().owner).toBe(String(mon.id));

        const agg = await app.inject({
          method: 'GET',
          url: '/api/fair-price/aggregate/by-product?marketTypeId=1',
          headers: anon,
        });
        expect(
          (agg.json().list as Array<Record<string, number>>).find((r) => Number(r.productId) === ids.honey),
        ).toMatchObject({ minPrice: 80000, maxPrice: 120000, avgPrice: 95000 });
        const csv = await app.inject({
          method: 'GET',
          url: '/api/open-data/2-009-0005/data.csv?lang=ru',
          headers: { ...anon, 'accept-language': 'ru' },
        });
        expect(csv.statusCode).toBe(200);
        expect(csv.body).toContain('Мёд');
      });

      it('a renamed or deactivated good keeps its name where it is stored; codes stay unique', async () => {
        const before = (
          await app.inject({ method: 'GET', url: `/api/fair-price-product/get/${ids.honey}`, headers: anon })
        ).json();
        const off = await app.inject({
          method: 'PUT',
          url: `/api/fair-price-product/update/${ids.honey}`,
          headers: as(supervisor.token),
          payload: { ...before, nameEn: 'Honey (natural)', active: false },
        });
        expect(off.statusCode).toBe(200);
        const item = (
          (await app.inject({ method: 'GET', url: '/api/reference/fair-price-product', headers: anon })).json()
            .list as Array<Record<string, unknown>>
        ).find((i) => i.id === ids.honey);
        expect(item).toMatchObject({ nameEn: 'Honey (natural)', active: false });
        const csv = await app.inject({
          method: 'GET',
          url: '/api/open-data/2-009-0005/data.csv?lang=en',
          headers: { ...anon, 'accept-language': 'en' },
        });
        expect(csv.body).toContain('Honey (natural)');
        const dup = await app.inject({
          method: 'POST',
          url: '/api/fair-price-product/create',
          headers: as(supervisor.token),
          payload: {
            code: 'HONEY',
            nameLt: 'A',
            nameUz: 'A',
            nameRu: 'A',
            nameEn: 'A',
            defaultUnitId: 1,
            active: true,
            order: 1,
          },
        });
        expect(dup.statusCode).toBe(400);
        expect(dup.json().fieldErrors).toBeTruthy();
      });

      it('monitors and visitors only read them; nobody but the administrator deletes one', async () => {
        const mon = await signIn(app, 'fp-monitor-admin-made', PASSWORD);
        const body = {
          code: 'SALT_IODISED',
          nameLt: 'Tuz',
          nameUz: 'Туз',
          nameRu: 'Соль',
          nameEn: 'Salt',
          defaultUnitId: 1,
          active: true,
          order: 1,
        };
        expect(
          (
            await app.inject({
              method: 'POST',
              url: '/api/fair-price-product/create',
              headers: as(mon.token),
              payload: body,
            })
          ).statusCode,
        ).toBe(403);
        expect(
          (await app.inject({ method: 'POST', url: '/api/fair-price-product/create', headers: anon, payload: body }))
            .statusCode,
        ).toBe(401);
        expect(
          (
            await app.inject({
              method: 'DELETE',
              url: '/api/fair-price-product/delete/1',
              headers: as(supervisor.token),
            })
          ).statusCode,
        ).toBe(403);
        expect(
          (await app.inject({ method: 'GET', url: '/api/reference/fair-price-product', headers: anon })).json().list,
        ).toHaveLength(25);
      });
    });

    describe('delegated user administration', () => {
      it("the session carries the marker permission, not the administrators' user rights", () => {
        expect(supervisor.permissions).toContain('delegate User');
        expect(supervisor.permissions).not.toContain('read User');
        expect(supervisor.permissions).not.toContain('create User');
      });

      it('creates a price monitor of the own region, who signs in once given a password', async () => {
        const res = await app.inject({
          method: 'POST',
          url: '/api/portal-user/create',
          headers: as(supervisor.token),
          payload: monitor('fp-new-monitor'),
        });
        expect(res.statusCode).toBe(200);
        ids.newMonitor = res.json().id;
        const pass = await app.inject({
          method: 'POST',
          url: '/api/auth/set-password',
          headers: as(supervisor.token),
          payload: { userId: ids.newMonitor, password: PASSWORD },
        });
        expect(pass.statusCode).toBe(200);
        const session = await signIn(app, 'fp-new-monitor', PASSWORD);
        expect(session.permissions).toContain('create FairPrice');
      });

      it('lists exactly the monitors of the own region', async () => {
        const res = await app.inject({
          method: 'POST',
          url: '/api/portal-user/list-search',
          headers: as(supervisor.token),
          payload: { itemsPerPage: 100 },
        });
        expect(res.statusCode).toBe(200);
        const names = (res.json().list as Array<{ username: string }>).map((u) => u.username).sort();
        expect(names).toEqual(['fp-monitor-admin-made', 'fp-new-monitor']);
        expect(res.json().total).toBe(2);
        const keyword = await app.inject({
          method: 'GET',
          url: '/api/portal-user/search-by-keyword?keyword=fp-',
          headers: as(supervisor.token),
        });
        expect(keyword.statusCode).toBe(200);
        expect((keyword.json().list as unknown[]).length).toBe(2);
        const admin = await app.inject({
          method: 'GET',
          url: '/api/portal-user/find-by?field=username&value=admin',
          headers: as(supervisor.token),
        });
        expect(admin.json()).toEqual({ record: null });
      });

      it('disables a monitor (canLogin false): the monitor can no longer sign in', async () => {
        const before = (
          await app.inject({
            method: 'GET',
            url: `/api/portal-user/get/${ids.adminMonitor}`,
            headers: as(supervisor.token),
          })
        ).json();
        const res = await app.inject({
          method: 'PUT',
          url: `/api/portal-user/update/${ids.adminMonitor}`,
          headers: as(supervisor.token),
          payload: { ...before, canLogin: false },
        });
        expect(res.statusCode).toBe(200);
        const signin = await app.inject({
          method: 'POST',
          url: '/api/auth-payload',
          headers: anon,
          payload: { username: 'fp-monitor-admin-made', password: PASSWORD },
        });
        expect(signin.statusCode).toBe(401);
      });

      it('refuses to grant any other role, also beside price-monitor (mass assignment), with nothing written', async () => {
        for (const [name, extra] of [
          ['fp-x-admin', { roles: ['admin'] }],
          ['fp-x-mixed', { roles: ['price-monitor', 'admin'] }],
          ['fp-x-employee', { roles: ['employee'] }],
          ['fp-x-none', { roles: [] }],
          ['fp-x-outer', { isOuter: true }],
          ['fp-x-registers', { canRegister: true }],
          ['fp-x-card', { employeeId: 1 }],
          ['fp-x-region', { regionId: OTHER_REGION }],
        ] as const) {
          const payload = monitor(name, extra);
          if (name === 'fp-x-region') expect(payload.regionId).toBe(OTHER_REGION);
          const res = await app.inject({
            method: 'POST',
            url: '/api/portal-user/create',
            headers: as(supervisor.token),
            payload,
          });
          expect(res.statusCode, name).toBe(403);
          expect(res.json().message).toBeTruthy();
        }
        const noRegion = monitor('fp-x-noregion') as Record<string, unknown>;
        delete noRegion.regionId;
        expect(
          (
            await app.inject({
              method: 'POST',
              url: '/api/portal-user/create',
              headers: as(supervisor.token),
              payload: noRegion,
            })
          ).statusCode,
        ).toBe(403);
        const all = await app.inject({
          method: 'POST',
          url: '/api/portal-user/list-search',
          payload: { itemsPerPage: 100 },
        });
        expect(all.statusCode).toBe(200);
        expect((all.json().list as Array<{ username: string }>).filter((u) => u.username.startsWith('fp-x-'))).toEqual(
          [],
        );
      });

      it('cannot promote a monitor it manages, nor move one to another region', async () => {
        const before = (
          await app.inject({
            method: 'GET',
            url: `/api/portal-user/get/${ids.newMonitor}`,
            headers: as(supervisor.token),
          })
        ).json();
        for (const change of [
          { roles: ['price-monitor', 'admin'] },
          { roles: ['fair-price-admin'] },
          { regionId: OTHER_REGION },
          { canRegister: true },
        ]) {
          const res = await app.inject({
            method: 'PUT',
            url: `/api/portal-user/update/${ids.newMonitor}`,
            headers: as(supervisor.token),
            payload: { ...before, ...change },
          });
          expect(res.statusCode).toBe(403);
        }
        const after = (await app.inject({ method: 'GET', url: `/api/portal-user/get/${ids.newMonitor}` })).json();
        expect(after).toMatchObject({ roles: ['price-monitor'], regionId: REGION, version: before.version });
      });

      it('does not see or touch users with other roles, other regions, the administrator or itself', async () => {
        for (const id of [ids.employee, ids.otherMonitor, adminId, ids.supervisor]) {
          expect(
            (await app.inject({ method: 'GET', url: `/api/portal-user/get/${id}`, headers: as(supervisor.token) }))
              .statusCode,
          ).toBe(404);
          const stored = (await app.inject({ method: 'GET', url: `/api/portal-user/get/${id}` })).json();
          const update = await app.inject({
            method: 'PUT',
            url: `/api/portal-user/update/${id}`,
            headers: as(supervisor.token),
            payload: {
              ...stored,
              roles: ['price-monitor'],
              regionId: REGION,
              canLogin: false,
              isOuter: false,
              canRegister: false,
            },
          });
          expect([403, 404]).toContain(update.statusCode);
          const pass = await app.inject({
            method: 'POST',
            url: '/api/auth/set-password',
            headers: as(supervisor.token),
            payload: { userId: id, password: 'taken-over-1' },
          });
          expect(pass.statusCode).toBe(404);
        }
        // The administrator's password still works, the employee is untouched.
        await signIn(app);
        expect((await app.inject({ method: 'GET', url: `/api/portal-user/get/${ids.employee}` })).json()).toMatchObject(
          { roles: ['employee'], canLogin: true },
        );
      });

      it('deletes no user and reads no roles', async () => {
        expect(
          (
            await app.inject({
              method: 'DELETE',
              url: `/api/portal-user/delete/${ids.newMonitor}`,
              headers: as(supervisor.token),
            })
          ).statusCode,
        ).toBe(403);
        expect(
          (
            await app.inject({
              method: 'POST',
              url: '/api/portal-role/list-search',
              headers: as(supervisor.token),
              payload: {},
            })
          ).statusCode,
        ).toBe(403);
      });

      it('a monitor (no mayGrantRoles) manages no users at all', async () => {
        const mon = await signIn(app, 'fp-new-monitor', PASSWORD);
        expect(mon.permissions).not.toContain('delegate User');
        expect(
          (
            await app.inject({
              method: 'POST',
              url: '/api/portal-user/list-search',
              headers: as(mon.token),
              payload: {},
            })
          ).statusCode,
        ).toBe(403);
        expect(
          (
            await app.inject({
              method: 'POST',
              url: '/api/portal-user/create',
              headers: as(mon.token),
              payload: monitor('fp-y'),
            })
          ).statusCode,
        ).toBe(403);
      });
    });
  });
}
