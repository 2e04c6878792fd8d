/**
 * Dashboards' server side on both backends, over generated appeals whose status and creation
 * day the test sets itself: aggregate measures with their own filter against counts computed
 * here (and against list-search's total for the drill-down query of the same number), one row
 * for an aggregate without groups, the region scope; and the XLSX export of a test dashboard's
 * panels read back with exceljs — title, the filters in words, column groups, group headings,
 * subtotals, the total, compare columns, every row of a paged list, a chart's table — with its
 * refusals (404, 401, 403, 400).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import ExcelJS from 'exceljs';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import type { DashboardOptions } from '../../src/generated/meta.ts';
import { drillQuery, effectiveValues } from '../../src/shared/dashboard-query.ts';
import { filterParamNames } from '../../src/shared/filter-kinds.ts';
import { backends } from '../support/databases.ts';
import { createRecords, signIn, startTestApp } from '../support/app.ts';
import { createDefinitionsFixture, type DefinitionsFixture } from '../support/definitions-fixture.ts';
import { createSampler } from '../support/sample-data.ts';
import { DASHBOARD, fixtureTexts, MEASURES, OUTCOME_AGGREGATES } from '../support/dashboard-fixture.ts';

const ROWS = 130;
const STATUSES = ['EXPLAINED', 'SEEN', 'REJECTED', 'EXPLAINED', 'CREATED'];
/** The creation day of the record with this id: spread over 2025-04-01 … 2025-09-27. */
const dayOf = (id: number): string =>
  new Date(Date.UTC(2025, 3, 1) + ((id * 37) % 180) * 86_400_000).toISOString().slice(0, 10);
const statusOf = (id: number): string => STATUSES[id % STATUSES.length]!;

interface Appeal {
  id: number;
  regionId: number;
  appealTypeId: number;
  status: string;
  day: string;
}

let fixture: DefinitionsFixture;
beforeAll(() => {
  fixture = createDefinitionsFixture();
  fixture.edit('schemas/appeal/entity.json', (m) => {
    m.aggregates = { ...m.aggregates, ...OUTCOME_AGGREGATES };
  });
  fixture.write('screens/test-dashboard.json', DASHBOARD);
  for (const [lang, texts] of Object.entries(fixtureTexts()))
    fixture.edit(`src/i18n/locales/${lang}.json`, (j) => Object.assign(j, texts));
});
afterAll(() => fixture?.remove());

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`dashboards on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let appeals: Appeal[] = [];
    let home: number;
    let employee: string;

    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name, { root: fixture.root }));
      const def = app.definitions.entities.get('appeal')!;
      const sample = createSampler(def.schema, app.definitions.references, createServerAjv());
      const created = await createRecords(
        app,
        '/api/appeal',
        ROWS,
        (seed) => sample(seed, { full: seed % 2 === 0 }),
        7000,
      );
      // Statuses and creation days as the test chooses them, so the expected counts are computed here.
      for (const r of created) {
        await app.db.query(
          `UPDATE e_appeal SET status = $2, created_at = ($3::date + time '10:00') AT TIME ZONE 'Asia/Tashkent' WHERE id = $1`,
          [r.id, statusOf(r.id), dayOf(r.id)],
        );
      }
      appeals = created.map((r) => ({
        id: r.id,
        regionId: (r.regionId ?? null) as number,
        appealTypeId: (r.appealTypeId ?? null) as number,
        status: statusOf(r.id),
        day: dayOf(r.id),
      }));
      home = appeals[0]!.regionId;
      const user = await app.inject({
        method: 'POST',
        url: '/api/portal-user/create',
        payload: {
          username: 'dash-region',
          firstName: 'Test',
          lastName: 'User',
          isOuter: false,
          canLogin: true,
          roles: ['employee'],
          regionId: home,
        },
      });
      expect(user.statusCode, user.body).toBe(200);
      await app.inject({
        method: 'POST',
        url: '/api/auth/set-password',
        payload: { userId: user.json().id, password: 'correct horse battery' },
      });
      employee = (await signIn(app, 'dash-region', 'correct horse battery')).token;
    });
    afterAll(async () => close?.());

    const Q3 = (a: Appeal) => a.day >= '2025-07-01' && a.day <= '2025-09-30';
    const expected = (rows: Appeal[]) => ({
      all: rows.length,
      explained: rows.filter((a) => a.status === 'EXPLAINED').length,
      early: rows.filter((a) => a.day <= '2025-08-15').length,
      proposals: rows.filter((a) => a.appealTypeId === 2).length,
    });
    const get = async (url: string, token?: string) => {
      const res = await app.inject({
        method: 'GET',
        url,
        ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().list as Array<Record<string, number>>;
    };

    it('counts each measure over the rows its own filter leaves, per group, as computed here', async () => {
      const list = await get(
        '/api/appeal/aggregate/test-by-region?createdDateFrom=2025-07-01&createdDateTo=2025-09-30',
      );
      const regions = [...new Set(appeals.filter(Q3).map((a) => a.regionId))].sort((a, b) => a - b);
      expect(list.map((r) => r.regionId)).toEqual(regions);
      for (const row of list)
        expect(row, `region ${row.regionId}`).toEqual({
          regionId: row.regionId,
          ...expected(appeals.filter((a) => Q3(a) && a.regionId === row.regionId)),
        });
    });

    it('answers one row without groups, zeros when nothing matches', async () => {
      expect(
        await get('/api/appeal/aggregate/test-summary?createdDateFrom=2025-07-01&createdDateTo=2025-09-30'),
      ).toEqual([expected(appeals.filter(Q3))]);
      expect(await get('/api/appeal/aggregate/test-summary?createdDateTo=1999-12-31')).toEqual([
        { all: 0, explained: 0, early: 0, proposals: 0 },
      ]);
    });

    it("equals list-search's total for the drill-down query of every number", async () => {
      const options = DASHBOARD.options as DashboardOptions;
      const panel = options.panels.find((p) => p.id === 'outcomes')!;
      const listFilters = new Set(registry.entities.get('appeal')!.grid.filters.flatMap(filterParamNames));
      // A month ending before the "early" measure's own bound, and a quarter ending after it.
      for (const [period, from, to] of [
        ['2025-07', '2025-07-01', '2025-07-31'],
        ['2025-Q3', '2025-07-01', '2025-09-30'],
      ] as const) {
        const values = effectiveValues(options.filters, { period });
        const list = await get(`/api/appeal/aggregate/test-outcomes?createdDateFrom=${from}&createdDateTo=${to}`);
        expect(list.length).toBeGreaterThan(3);
        for (const row of list) {
          if (row.regionId === null) continue; // a null group names no list filter value
          for (const m of MEASURES) {
            // A type the measure's own filter excludes counts 0: no list shows "type 1 and type 2".
            if (m.name === 'proposals' && row.appealTypeId !== 2) continue;
            const group = { regionId: row.regionId, appealTypeId: row.appealTypeId };
            const query = drillQuery(panel, options.filters, values, group, m.filter, listFilters);
            const res = await app.inject({ method: 'POST', url: `/api/appeal/list-search?${query}`, payload: {} });
            expect(res.json().total, `${m.name} of ${JSON.stringify(row)} · ${query}`).toBe(row[m.name]);
          }
        }
      }
    });

    const Q2 = (a: Appeal) => a.day >= '2025-04-01' && a.day <= '2025-06-30';
    const regionName = (id: number) => app.references.get('region', id)!.nameEn;
    const download = async (path: string, token?: string) => {
      const res = await app.inject({
        method: 'GET',
        url: `/api/dashboards/test-dashboard/${path}`,
        ...(token !== undefined ? { headers: { authorization: token && `Bearer ${token}` } } : {}),
      });
      return res;
    };
    const sheetOf = async (path: string, token?: string) => {
      const res = await download(path, token);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      expect(res.headers['content-type']).toMatch(/spreadsheetml/);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as never);
      const sheet = book.worksheets[0]!;
      const row = (r: number) => (sheet.getRow(r).values as unknown[]).slice(1);
      return { res, sheet, row };
    };

    it('exports a grouped, compared table with the layout shown: title, filters, column groups, groups, subtotals, total', async () => {
      const { res, sheet, row } = await sheetOf('outcomes/export?period=2025-Q3&lang=en');
      expect(res.headers['content-disposition']).toContain(encodeURIComponent('Test dashboard 2025-Q3.xlsx'));
      expect(row(1)[0]).toBe('Test dashboard — Outcomes');
      expect(row(2)[0]).toBe('Period: Quarter 3, 2025 · Region: all');
      // Column groups above the titles; a column outside a group spans both header rows.
      expect(row(4)[5]).toBe('Outcome');
      expect(sheet.getCell(4, 11).master.address).toBe('F4');
      expect(sheet.getCell(5, 1).master.address).toBe('A4');
      expect(row(5)).toEqual([
        'Region',
        'Type',
        'All',
        'All, previous period',
        'All, change',
        'Explained',
        'Explained, previous period',
        'Explained, change',
        'Early',
        'Early, previous period',
        'Early, change',
      ]);
      expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 5 });
      // The first group: its heading, its rows, its subtotal (the exact totals of both periods).
      const first = Number(
        appeals
          .filter(Q3)
          .map((a) => a.regionId)
          .sort((a, b) => a - b)[0],
      );
      expect(row(6)[0]).toBe(`Region: ${regionName(first)}`);
      let r = 7;
      while (row(r)[0] === regionName(first)) r++;
      const now = expected(appeals.filter((a) => Q3(a) && a.regionId === first));
      const before = expected(appeals.filter((a) => Q2(a) && a.regionId === first));
      expect(row(r).slice(0, 4)).toEqual([`Subtotal: ${regionName(first)}`, undefined, now.all, before.all]);
      expect(row(r)[5]).toBe(now.explained);
      if (before.all) expect(row(r)[4]).toBeCloseTo((now.all - before.all) / before.all, 6);
      // The grand total of both periods, in the last row.
      const last = row(sheet.rowCount);
      expect(last[0]).toBe('Total');
      expect([last[2], last[3], last[5], last[8]]).toEqual([
        appeals.filter(Q3).length,
        appeals.filter(Q2).length,
        expected(appeals.filter(Q3)).explained,
        expected(appeals.filter(Q3)).early,
      ]);
      expect(sheet.getCell(sheet.rowCount, 3).numFmt).toBe('#,##0');
      expect(sheet.getCell(sheet.rowCount, 5).numFmt).toContain('%');
    });

    it('exports every row of a paged list, a chart as its table, and names the region chosen', async () => {
      const list = await sheetOf('list/export?period=2025&lang=en');
      expect(list.row(4)).toEqual(['Number', 'Region', 'Status']);
      const ids = Array.from({ length: list.sheet.rowCount - 4 }, (_, i) => list.row(i + 5)[0]);
      expect(ids.length).toBeGreaterThan(100); // more than one page of list-search
      expect(new Set(ids)).toEqual(new Set(appeals.map((a) => a.id)));
      const chart = await sheetOf(`chart/export?period=2025-Q3&regionId=${home}&lang=en`);
      expect(chart.row(2)[0]).toBe(`Period: Quarter 3, 2025 · Region: ${regionName(home)}`);
      expect(chart.row(4)).toEqual(['Region', 'All']);
      expect(chart.row(5)).toEqual([
        regionName(home),
        expected(appeals.filter((a) => Q3(a) && a.regionId === home)).all,
      ]);
    });

    it("holds only a regional user's region", async () => {
      const { sheet, row } = await sheetOf('outcomes/export?period=2025&lang=en', employee);
      const regions = new Set<unknown>();
      for (let r = 6; r < sheet.rowCount; r++) if (!String(row(r)[0]).includes(':')) regions.add(row(r)[0]);
      expect([...regions]).toEqual([regionName(home)]);
      expect(row(sheet.rowCount)[2]).toBe(appeals.filter((a) => a.regionId === home).length);
    });

    it('refuses in plain words: unknown screen or panel 404, a visitor 401, a panel not allowed 403, a bad filter 400', async () => {
      const unknown = await app.inject({ method: 'GET', url: '/api/dashboards/no-such/outcomes/export?lang=en' });
      expect([unknown.statusCode, unknown.json().message]).toEqual([404, 'There is no dashboard “no-such”']);
      const panel = await download('no-such/export?lang=en');
      expect([panel.statusCode, panel.json().message]).toEqual([
        404,
        'The dashboard “Test dashboard” has no table “no-such” to download',
      ]);
      expect((await download('tiles/export')).statusCode).toBe(404);
      expect((await download('outcomes/export', '')).statusCode).toBe(401);
      expect((await download('secret/export', employee)).statusCode).toBe(403);
      expect((await download('secret/export')).statusCode).toBe(200);
      const period = await download('outcomes/export?period=2025-Q7&lang=ru');
      expect([period.statusCode, period.json().message]).toEqual([
        400,
        '«2025-Q7» — недопустимое значение фильтра «Period»',
      ]);
      expect((await download('outcomes/export?regionId=999')).statusCode).toBe(400);
      expect((await download('outcomes/export?period=2025-07-10..2025-07-01')).statusCode).toBe(400);
    });

    it("keeps a regional user's numbers to their region", async () => {
      const list = await get('/api/appeal/aggregate/test-by-region?createdDateFrom=2025-01-01', employee);
      expect(list).toEqual([
        { regionId: home, ...expected(appeals.filter((a) => a.regionId === home && a.day >= '2025-01-01')) },
      ]);
    });
  });
}
