/**
 * Documents by department (issue #19 docflow2, spec §5 list-search/by-department/{depId} and
 * without-department), on both databases, one app each: a document's department is a unit of
 * the organisation structure (departmentId), set by "send to a department head"; the list
 * filters by departments (`departmentIds`) and finds the documents without one
 * (`withoutDepartment`); the by-department counts equal the filtered lists' totals — with other
 * filters too, and within a regional reader's scope; migration 2 maps a stored department text
 * to the unit of that name, and keeps a text naming no unit aside; reception methods are the
 * reference list reception-method kept as records, and migration 3 maps the stored codes to its ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { createCaller, signIn, startTestApp } from '../support/app.ts';
import { evolveStoredRecords } from '../../src/server/evolution/record-evolution.ts';

const PASSWORD = 'Str0ng-enough-passw0rd!';
type Call = (method: 'GET' | 'POST', url: string, payload?: unknown) => Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`documents by department on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let admin: Call;
    let unitA: number;
    let unitB: number;
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
      admin = createCaller(app) as Call;
      const unit = async (code: string) =>
        Number(
          (await app.db.query<{ id: number }>('SELECT id FROM e_department WHERE data->>$1 = $2', ['code', code]))
            .rows[0]!.id,
        );
      unitA = await unit('R1703');
      unitB = await unit('R1706');
      const doc = async (number: string, regionId: number, departmentId?: number) => {
        const created = await admin('POST', '/api/document/create', {
          number,
          date: '2026-05-04',
          type: 'LETTER',
          regionId,
        });
        expect(created.status, JSON.stringify(created.body)).toBe(200);
        if (departmentId === undefined) return;
        const sent = await admin('POST', `/api/document/transition/${created.body.id}`, {
          event: 'SEND_TO_DEPARTMENT_HEAD',
          version: created.body.version,
          payload: { departmentId },
        });
        expect(sent.status, JSON.stringify(sent.body)).toBe(200);
        expect(sent.body).toMatchObject({ departmentId, routedTo: 'DEPARTMENT_HEAD', status: 'RECEIVED' });
      };
      await doc('D-1', 1, unitA);
      await doc('D-2', 1, unitB);
      await doc('D-3', 2, unitA);
      await doc('D-4', 2, unitA);
      await doc('D-5', 1);
      await doc('D-6', 2);
    }, 120_000);
    afterAll(async () => close?.());

    /** The by-department counts (department id or null → count) for a query string. */
    const counts = async (call: Call, query = '') => {
      const res = await call('GET', `/api/document/aggregate/by-department${query ? `?${query}` : ''}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return new Map<number | null, number>(
        (res.body.list as Array<{ departmentId: number | null; count: unknown }>).map((r) => [
          r.departmentId ?? null,
          Number(r.count),
        ]),
      );
    };
    const total = async (call: Call, query: string) => {
      const res = await call('POST', `/api/document/list-search?${query}`, {});
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.total as number;
    };
    /** Every count equals the list's total with that department (or none) chosen, and they add up to the list. */
    const expectCountsAreTotals = async (call: Call, query: string) => {
      const by = await counts(call, query);
      const and = query ? `&${query}` : '';
      for (const [id, n] of by)
        expect(
          await total(call, id === null ? `withoutDepartment=true${and}` : `departmentIds=${id}${and}`),
          String(id),
        ).toBe(n);
      expect([...by.values()].reduce((a, b) => a + b, 0)).toBe(await total(call, query));
      return by;
    };

    it("filters by departments and finds the documents without one; the counts are the lists' totals", async () => {
      const by = await expectCountsAreTotals(admin, '');
      expect(by.get(unitA)).toBe(3);
      expect(by.get(unitB)).toBe(1);
      expect(by.get(null)).toBeGreaterThanOrEqual(2);
      expect(await total(admin, `departmentIds=${unitA},${unitB}`)).toBe(4);
      const none = await admin('POST', '/api/document/list-search?withoutDepartment=true', {});
      expect(none.body.list.every((r: { departmentId?: number }) => r.departmentId === undefined)).toBe(true);
      // With another filter the counts follow it.
      const region1 = await expectCountsAreTotals(admin, 'regionIds=1');
      expect(region1.get(unitA)).toBe(1);
      expect(region1.get(unitB)).toBe(1);
    });

    it("a regional reader's counts cover their region only", async () => {
      const created = await admin('POST', '/api/portal-user/create', {
        username: 'dept-reader',
        firstName: 'Test',
        lastName: 'Reader',
        isOuter: false,
        canLogin: true,
        roles: ['employee'],
        regionId: 2,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      await admin('POST', '/api/auth/set-password', { userId: created.body.id, password: PASSWORD });
      const { token } = await signIn(app, 'dept-reader', PASSWORD);
      const reader: Call = async (method, url, payload) => {
        const res = await app.inject({
          method,
          url,
          payload: payload as never,
          headers: { authorization: `Bearer ${token}` },
        });
        return { status: res.statusCode, body: res.json() };
      };
      const by = await expectCountsAreTotals(reader, '');
      expect(by.get(unitA)).toBe(2);
      expect(by.has(unitB)).toBe(false);
      expect(by.get(null)).toBe(await total(reader, 'withoutDepartment=true'));
    });

    it('migration 2 maps a stored department text to the unit of that name, and keeps other text aside', async () => {
      const named = (
        await app.db.query<{ name: string }>("SELECT data->>'nameRu' AS name FROM e_department WHERE id = $1", [unitB])
      ).rows[0]!.name;
      const stored = async (number: string, department: string) => {
        const res = await admin('POST', '/api/document/create', {
          number,
          date: '2026-05-04',
          type: 'LETTER',
          regionId: 1,
        });
        // As the first version stored it: free text, version 1.
        await app.db.query(
          `UPDATE e_correspondence SET data = data || jsonb_build_object('department', $2::text), schema_version = 1 WHERE id = $1`,
          [res.body.id, department],
        );
        return res.body.id as number;
      };
      const matching = await stored('M-1', `  ${named.toUpperCase()} `);
      const unknown = await stored('M-2', 'Markets division');
      await app.db.query("DELETE FROM record_evolution WHERE entity = 'correspondence'");
      await evolveStoredRecords(app.db, app.definitions, app.tables, { root: app.config.root, log: () => {} });
      const rows = await app.db.query<{
        id: number;
        data: Record<string, unknown>;
        kept_aside: Record<string, unknown> | null;
      }>('SELECT id, data, kept_aside FROM e_correspondence WHERE id = ANY($1::bigint[]) ORDER BY id', [
        [matching, unknown],
      ]);
      expect(rows.rows[0]!.data).toMatchObject({ departmentId: unitB });
      expect(rows.rows[0]!.data.department).toBeUndefined();
      expect(rows.rows[1]!.data.departmentId).toBeUndefined();
      expect(rows.rows[1]!.data.department).toBeUndefined();
      expect(rows.rows[1]!.kept_aside).toEqual({ '/department': 'Markets division' });
      expect(await total(admin, `departmentIds=${unitB}`)).toBe(2);
    });

    it('reception methods are a reference list kept on screens; migration 3 turns the stored codes into its ids', async () => {
      const list = await admin('GET', '/api/reference/reception-method');
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      const items = (Array.isArray(list.body) ? list.body : list.body.list) as Array<{ id: number; code: string }>;
      expect(items.slice(0, 7).map((i) => [i.id, i.code])).toEqual([
        [1, 'MAIL'],
        [2, 'EMAIL'],
        [3, 'PORTAL'],
        [4, 'DXA'],
        [5, 'EDO'],
        [6, 'IN_PERSON'],
        [7, 'COURIER'],
      ]);
      const added = await admin('POST', '/api/reception-method/create', {
        code: 'FAX',
        nameLt: 'Faks',
        nameUz: 'Факс',
        nameRu: 'Факс',
        nameEn: 'Fax',
        active: true,
        order: 80,
      });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      const base = { date: '2026-05-04', type: 'LETTER', regionId: 1 };
      const faxed = await admin('POST', '/api/document/create', {
        ...base,
        number: 'R-1',
        receptionMethodId: added.body.id,
      });
      expect(faxed.status, JSON.stringify(faxed.body)).toBe(200);
      const unknown = await admin('POST', '/api/document/create', { ...base, number: 'R-2', receptionMethodId: 999 });
      expect(unknown.status).toBe(400);
      expect(Object.keys(unknown.body.fieldErrors ?? {})).toContain('/receptionMethodId');

      // A document stored by version 2 with a code.
      const old = await admin('POST', '/api/document/create', { ...base, number: 'R-3' });
      await app.db.query(
        `UPDATE e_correspondence SET data = data || '{"receptionMethod": "EMAIL"}'::jsonb, schema_version = 2 WHERE id = $1`,
        [old.body.id],
      );
      await app.db.query("DELETE FROM record_evolution WHERE entity = 'correspondence'");
      await evolveStoredRecords(app.db, app.definitions, app.tables, { root: app.config.root, log: () => {} });
      const after = await admin('GET', `/api/document/get/${old.body.id}`);
      expect(after.body.receptionMethodId).toBe(2);
      expect(after.body.receptionMethod).toBeUndefined();
    });
  });
}
