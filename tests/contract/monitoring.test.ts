/**
 * The leadership's monitoring on both backends (issue #18, items 4 and 5): the control
 * monitoring table (compliance cases of the period grouped by region, the subtotals from the
 * `monitoring-by-region` aggregate) and the chairman monitoring's panels over the areas'
 * `monitoring-*` aggregates. Records are generated through the API with known regions,
 * statuses and dates; every number a panel shows is compared with a count computed here from
 * those records, a drill-down's list total with the number, and the scope of a regional head.
 * The panels, their sources and measures are read from the screens and manifests, so a panel
 * added to the dashboards is covered by the same checks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry, type EntityDefinition } from '../../src/definitions/registry.ts';
import type { DashboardOptions, DashboardPanel, DashboardSource } from '../../src/generated/meta.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { tableName } from '../../src/server/db/entity-table.ts';
import {
  aggregateOf,
  drillQuery,
  effectiveValues,
  panelCall,
  type FilterValues,
} from '../../src/shared/dashboard-query.ts';
import { parsePeriod } from '../../src/shared/periods.ts';
import { backends } from '../support/databases.ts';
import { createRecords, signIn, startTestApp } from '../support/app.ts';
import { createRng, createSampler } from '../support/sample-data.ts';
import { at, withField } from '../support/records.ts';
import { createRegionPlacer } from '../support/regions.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const { HOME, ELSEWHERE, inRegion } = createRegionPlacer(registry);
const THIRD = registry.references.get('region')!.items[2]!.id;
const REGIONS = [HOME, ELSEWHERE, THIRD];
const PER_ENTITY = 24;
const PASSWORD = 'monitoring-pass-1';
/** The period the checks ask for, and (for comparisons) the one before: records fall in both. */
const PERIOD = '2025';
const DAYS = ['2024-02-10', '2024-11-30', '2025-01-01', '2025-03-31', '2025-07-15', '2025-12-31', '2026-01-01'];

type Row = Record<string, unknown> & { id: number; status: string };

/** Rows by a key, in first-seen order. */
function groupBy<K>(list: Row[], key: (r: Row) => K): Map<K, Row[]> {
  const out = new Map<K, Row[]>();
  for (const r of list) out.set(key(r), [...(out.get(key(r)) ?? []), r]);
  return out;
}
type Measure = { name: string; fn: string; field?: string; filter?: Record<string, unknown> };

const optionsOf = (screen: string) => registry.screens.get(screen)!.options as unknown as DashboardOptions;
const CONTROL = optionsOf('control-monitoring');
const CHAIRMAN = optionsOf('chairman-monitoring');
const entityByBase = (base: string): EntityDefinition =>
  [...registry.entities.values()].find((e) => e.manifest.base === base)!;
/** The entity and declared aggregate behind an aggregate endpoint. */
const aggregateBehind = (endpoint: string) => {
  const { base, name } = aggregateOf(endpoint)!;
  const def = entityByBase(base);
  const aggregate = (def.manifest as { aggregates?: Record<string, { groupBy?: string[]; measures: Measure[] }> })
    .aggregates![name]!;
  return { def, aggregate };
};
/** Chairman panels over the areas' aggregates (those of other helpers' entities are checked where they exist). */
const areaPanels = CHAIRMAN.panels.filter((p) => aggregateOf(p.source.endpoint)?.name.startsWith('monitoring-'));
const areaEntities = [...new Set(areaPanels.map((p) => aggregateBehind(p.source.endpoint).def.id))];

/** Whether a row passes one grid filter with its query-string value (the kinds the measures use). */
function passes(def: EntityDefinition, row: Row, name: string, value: unknown): boolean {
  const filter = def.grid.filters.find((f) => f.name === name);
  if (!filter?.field) throw new Error(`${def.id}: no grid filter ${name}`);
  const got = filter.field === '/status' ? row.status : at(row, filter.field);
  const wanted = Array.isArray(value) ? value.map(String) : String(value).split(',');
  if (filter.kind === 'eq' || filter.kind === 'in' || filter.kind === 'bool') return wanted.includes(String(got));
  throw new Error(`${def.id}: filter kind ${filter.kind} is not modelled here`);
}

/** The day a record falls on for a dateRange filter (createdAt in Tashkent, else the date field). */
const dayOf = (row: Row, field: string): string | undefined => {
  const v = at(row, field);
  if (typeof v !== 'string') return undefined;
  return v.length > 10
    ? new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tashkent', dateStyle: 'short' }).format(new Date(v))
    : v;
};

/** Rows a source's call leaves for the values: region, period, fixed query — computed here. */
function rowsOf(def: EntityDefinition, rows: Row[], source: DashboardSource, values: FilterValues): Row[] {
  const period = parsePeriod(values.period);
  const periodField = source.period ? def.grid.filters.find((f) => f.name === source.period)!.field! : undefined;
  return rows.filter((r) => {
    if (
      values.regionId &&
      (source.filters ?? []).includes('regionId') &&
      String(at(r, '/regionId')) !== values.regionId
    )
      return false;
    if (periodField && period) {
      const day = dayOf(r, periodField);
      if (!day || day < period.from || day > period.to) return false;
    }
    return true;
  });
}

/** One measure over rows, as the aggregate should answer it. */
function measureOf(def: EntityDefinition, rows: Row[], m: Measure): number | null {
  const kept = rows.filter((r) => Object.entries(m.filter ?? {}).every(([k, v]) => passes(def, r, k, v)));
  if (m.fn === 'count') return kept.length;
  const nums = kept.map((r) => at(r, m.field!)).filter((v): v is number => typeof v === 'number');
  if (!nums.length) return null;
  if (m.fn === 'sum') return nums.reduce((a, b) => a + b, 0);
  throw new Error(`fn ${m.fn} is not modelled here`);
}

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`monitoring on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    const rows = new Map<string, Row[]>();
    const tokens: Record<string, string> = {};
    const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}`, 'accept-language': 'en' });

    const call = async (source: DashboardSource, options: DashboardOptions, values: FilterValues, who = 'admin') => {
      const c = panelCall(source, options.filters, values);
      const res = await app.inject({
        method: c.method,
        url: `${c.endpoint}?${new URLSearchParams(c.query)}`,
        ...(c.body ? { payload: c.body } : {}),
        headers: who === 'admin' ? { 'accept-language': 'en' } : as(who),
      });
      expect(res.statusCode, `${c.endpoint} ${res.body}`).toBe(200);
      return res.json() as { list: Array<Record<string, unknown>>; total?: number };
    };
    const listTotal = async (def: EntityDefinition, query: URLSearchParams, who = 'admin') => {
      const res = await app.inject({
        method: 'POST',
        url: `/api${def.manifest.base}/list-search?${query}`,
        payload: { itemsPerPage: 1 },
        headers: who === 'admin' ? { 'accept-language': 'en' } : as(who),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().total as number;
    };
    const user = async (username: string, roles: string[], regionId: number) => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/portal-user/create',
        payload: { username, firstName: 'Test', lastName: username, isOuter: false, canLogin: true, roles, regionId },
      });
      expect(res.statusCode, res.body).toBe(200);
      const set = await app.inject({
        method: 'POST',
        url: '/api/auth/set-password',
        payload: { userId: res.json().id, password: PASSWORD },
      });
      expect(set.statusCode).toBe(200);
      tokens[username] = (await signIn(app, username, PASSWORD)).token;
    };

    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
      const rng = createRng(18);
      const pick = <T>(list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
      for (const id of new Set(['compliance-case', ...areaEntities])) {
        const def = registry.entities.get(id)!;
        const sample = createSampler(def.schema, registry.references, createServerAjv());
        // The area's date filters the dashboards use: data fields get known days; createdAt is set below.
        const dateFields = [
          ...new Set(
            [...CHAIRMAN.panels, ...CONTROL.panels]
              .filter(
                (p) =>
                  aggregateOf(p.source.endpoint)?.base === def.manifest.base ||
                  p.source.endpoint.startsWith(`/api${def.manifest.base}/`),
              )
              .map((p) => def.grid.filters.find((f) => f.name === p.source.period)?.field)
              .filter((f): f is string => !!f),
          ),
        ];
        const created = (await createRecords(
          app,
          `/api${def.manifest.base}`,
          PER_ENTITY,
          (seed) => {
            let data = inRegion(def, sample(seed, { full: true }), REGIONS[seed % REGIONS.length]!);
            for (const f of dateFields) if (f !== '/createdAt') data = withField(data, f, DAYS[seed % DAYS.length]);
            return data;
          },
          5000,
        )) as Row[];
        const machine = def.manifest.workflow ? registry.machines.get(def.manifest.workflow) : undefined;
        const states = Object.keys(machine?.states ?? {});
        for (const r of created) {
          const status = states.length ? pick(states) : r.status;
          const day = pick(DAYS);
          await app.db.query(
            `UPDATE ${tableName(def.id)} SET status = $1, created_at = $2::timestamptz WHERE id = $3`,
            [status, `${day}T12:00:00+05:00`, r.id],
          );
        }
        const res = await app.inject({
          method: 'POST',
          url: `/api${def.manifest.base}/list-search`,
          payload: { itemsPerPage: 100 },
        });
        rows.set(id, res.json().list as Row[]);
        expect(rows.get(id)!.length, id).toBeGreaterThanOrEqual(PER_ENTITY);
      }
      await user('mon-head', ['department-head'], HOME);
      await user('mon-chair', ['chair'], ELSEWHERE);
      await user('mon-prices', ['price-monitor'], HOME);
    }, 300_000);
    afterAll(async () => close?.());

    const values = (options: DashboardOptions, url: Record<string, string> = {}) =>
      effectiveValues(options.filters, { period: PERIOD, ...url });

    describe('control monitoring table', () => {
      const panel = CONTROL.panels[0]!;
      const cases = () => rows.get('compliance-case')!;
      const def = registry.entities.get('compliance-case')!;

      it('lists the cases of the period by region, then date; the subtotals are exact sums per region', async () => {
        for (const url of [{}, { regionId: String(ELSEWHERE) }, { period: '2025-Q1' }] as Array<
          Record<string, string>
        >) {
          const v = values(CONTROL, url);
          const expected = rowsOf(def, cases(), panel.source, v);
          // The filters leave some cases and drop others, so the comparison means something.
          expect(expected.length, JSON.stringify(url)).toBeGreaterThan(0);
          expect(expected.length, JSON.stringify(url)).toBeLessThan(cases().length);
          const got = await call(panel.source, CONTROL, v);
          expect(got.total, JSON.stringify(url)).toBe(expected.length);
          expect(got.list.map((r) => r.id).sort()).toEqual(expected.map((r) => r.id).sort());
          const regions = got.list.map((r) => r.regionId as number);
          expect(regions, 'grouped by region').toEqual([...regions].sort((a, b) => a - b));
          const totals = await call(panel.groupRows!.totals!, CONTROL, v);
          const { aggregate } = aggregateBehind(panel.groupRows!.totals!.endpoint);
          const byRegion = groupBy(expected, (r) => r.regionId as number);
          expect(totals.list.map((t) => t.regionId)).toEqual([...byRegion.keys()].sort((a, b) => a - b));
          for (const t of totals.list) {
            const group = byRegion.get(t.regionId as number)!;
            for (const m of aggregate.measures) {
              const want = measureOf(def, group, m);
              if (want === null) expect(t[m.name], `${m.name} of region ${t.regionId}`).toBeNull();
              else expect(t[m.name], `${m.name} of region ${t.regionId}`).toBeCloseTo(want, 2);
            }
          }
        }
      });

      it('shows exactly the columns of the spec in order, with the recovered amounts under one group header', () => {
        expect(panel.columns!.map((c) => c.field)).toEqual([
          'regionId',
          'chairman',
          'responsible',
          'caseDate',
          'caseNumber',
          'name',
          'basis',
          'violatedLaw',
          'article',
          'finding',
          'summary',
          'amount',
          'reviewResult',
          'decision',
          'instruction',
          'executionDeadline',
          'extensionBasis',
          'performance',
          'returnedToConsumer',
          'paidToAccount',
          'fine',
          'comment',
        ]);
        expect(panel.columnGroups).toEqual([
          expect.objectContaining({ columns: ['returnedToConsumer', 'paidToAccount', 'fine'] }),
        ]);
        const money = panel.columns!.filter((c) =>
          ['amount', 'returnedToConsumer', 'paidToAccount', 'fine'].includes(c.field),
        );
        expect(money.map((c) => c.format)).toEqual(['millions', 'millions', 'millions', 'millions']);
      });

      it('a subtotal drills to the list of its region and period, whose total is the number of cases', async () => {
        const v = values(CONTROL);
        const totals = await call(panel.groupRows!.totals!, CONTROL, v);
        const listFilters = new Set(
          def.grid.filters.flatMap((f) => (f.kind === 'dateRange' ? [`${f.name}From`, `${f.name}To`] : [f.name])),
        );
        for (const t of totals.list) {
          const query = drillQuery(panel, CONTROL.filters, v, { regionId: t.regionId }, undefined, listFilters);
          expect(query.get('caseDateFrom')).toBe('2025-01-01');
          expect(await listTotal(def, query)).toBe(t.received);
        }
      });

      it("a regional head's table and subtotals hold only their region", async () => {
        const v = values(CONTROL);
        const got = await call(panel.source, CONTROL, v, 'mon-head');
        const expected = rowsOf(def, cases(), panel.source, v).filter((r) => r.regionId === HOME);
        expect(got.total).toBe(expected.length);
        expect(new Set(got.list.map((r) => r.regionId))).toEqual(new Set(expected.length ? [HOME] : []));
        const totals = await call(panel.groupRows!.totals!, CONTROL, v, 'mon-head');
        expect(totals.list.map((t) => [t.regionId, t.received])).toEqual(
          expected.length ? [[HOME, expected.length]] : [],
        );
        // Asking for another region gives nothing rather than its cases.
        const other = await call(panel.source, CONTROL, values(CONTROL, { regionId: String(ELSEWHERE) }), 'mon-head');
        expect(other.total).toBe(0);
      });

      it("a regional head's XLSX holds only their region's cases, and every case of it", async () => {
        const v = values(CONTROL);
        const res = await app.inject({
          method: 'GET',
          url: `/api/dashboards/control-monitoring/cases/export?period=${PERIOD}&lang=en`,
          headers: as('mon-head'),
        });
        expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
        const book = new ExcelJS.Workbook();
        await book.xlsx.load(res.rawPayload as never);
        const texts: string[] = [];
        book.worksheets[0]!.eachRow((row) => {
          texts.push(((row.values as unknown[]).slice(1) as unknown[]).map((x) => String(x ?? '')).join('|'));
        });
        const mine = rowsOf(def, cases(), panel.source, v).filter((r) => r.regionId === HOME);
        const others = rowsOf(def, cases(), panel.source, v).filter((r) => r.regionId !== HOME);
        expect(mine.length).toBeGreaterThan(0);
        const name = (id: number) => app.references.get('region', id)!.nameEn;
        for (const r of mine)
          expect(
            texts.some((t) => t.includes(`|${r.caseNumber}|`)),
            String(r.caseNumber),
          ).toBe(true);
        for (const r of others)
          expect(
            texts.some((t) => t.includes(`|${r.caseNumber}|`)),
            String(r.caseNumber),
          ).toBe(false);
        expect(texts.some((t) => t.includes(name(ELSEWHERE)))).toBe(false);
      });

      it('a role that may not read compliance cases is refused the data', async () => {
        const c = panelCall(panel.groupRows!.totals!, CONTROL.filters, values(CONTROL));
        const res = await app.inject({
          method: 'GET',
          url: `${c.endpoint}?${new URLSearchParams(c.query)}`,
          headers: as('mon-prices'),
        });
        expect(res.statusCode).toBe(403);
      });
    });

    describe('chairman monitoring', () => {
      /** The expected answer rows of an aggregate panel: one per group value present. */
      const expectedRows = (panel: DashboardPanel, v: FilterValues, only?: number) => {
        const { def, aggregate } = aggregateBehind(panel.source.endpoint);
        const kept = rowsOf(def, rows.get(def.id)!, panel.source, v).filter(
          (r) => only === undefined || r.regionId === only,
        );
        const groups: Map<number | undefined, Row[]> = aggregate.groupBy?.length
          ? groupBy<number | undefined>(kept, (r) => at(r, aggregate.groupBy![0]!) as number)
          : new Map([[undefined, kept]]);
        return { def, aggregate, groups };
      };

      it('has the five tabs, each panel in one, and a stat panel per area over an aggregate with no grouping', () => {
        expect(CHAIRMAN.tabs!.map((t) => t.id)).toEqual(['sections', 'departments', 'regions', 'reports', 'results']);
        const inTabs = CHAIRMAN.tabs!.flatMap((t) => t.panels);
        expect(inTabs.sort()).toEqual(CHAIRMAN.panels.map((p) => p.id).sort());
        const sections = CHAIRMAN.panels.filter((p) => CHAIRMAN.tabs![0]!.panels.includes(p.id));
        expect(sections.length).toBeGreaterThanOrEqual(6);
        for (const p of sections) {
          expect(p.kind).toBe('stat');
          expect(aggregateBehind(p.source.endpoint).aggregate.groupBy ?? []).toEqual([]);
        }
      });

      it('every number of every area panel equals the count computed from the records, for the chair and the admin', async () => {
        for (const url of [{}, { regionId: String(HOME) }, { period: '2024' }] as Array<Record<string, string>>) {
          const v = values(CHAIRMAN, url);
          for (const panel of areaPanels) {
            const { def, aggregate, groups } = expectedRows(panel, v);
            expect([...groups.values()].flat().length, `${panel.id} has records`).toBeGreaterThan(0);
            const got = await call(panel.source, CHAIRMAN, v, 'mon-chair');
            const keyed = aggregate.groupBy?.length ? [...groups.keys()].sort((a, b) => a! - b!) : [undefined];
            expect(got.list.length, `${panel.id} ${JSON.stringify(url)}`).toBe(keyed.length);
            for (const [i, key] of keyed.entries()) {
              const row = got.list[i]!;
              if (key !== undefined) expect(row.regionId).toBe(key);
              for (const m of aggregate.measures) {
                const want = measureOf(def, groups.get(key) ?? [], m);
                const cell = `${panel.id} ${JSON.stringify(url)} ${key ?? ''} ${m.name}`;
                if (want === null) expect(row[m.name], cell).toBeNull();
                else expect(row[m.name], cell).toBeCloseTo(want, 2);
              }
            }
          }
        }
      });

      it('a number drills to the list of the same records: the list total equals it', async () => {
        const v = values(CHAIRMAN);
        for (const panel of areaPanels) {
          const { def, aggregate } = aggregateBehind(panel.source.endpoint);
          const listFilters = new Set(
            def.grid.filters.flatMap((f) => (f.kind === 'dateRange' ? [`${f.name}From`, `${f.name}To`] : [f.name])),
          );
          const got = await call(panel.source, CHAIRMAN, v);
          for (const row of got.list.slice(0, 3)) {
            const group = Object.fromEntries((aggregate.groupBy ?? []).map((p) => [p.slice(1), row[p.slice(1)]]));
            for (const m of aggregate.measures.filter((x) => x.fn === 'count')) {
              const query = drillQuery(panel, CHAIRMAN.filters, v, group, m.filter as never, listFilters);
              expect(await listTotal(def, query), `${panel.id} ${JSON.stringify(group)} ${m.name}`).toBe(row[m.name]);
            }
          }
        }
      });

      it('only a role holding read ChairmanMonitoring gets its data as XLSX; others are refused', async () => {
        const url = `/api/dashboards/chairman-monitoring/departments-compliance-case/export?period=${PERIOD}&lang=ru`;
        const chair = await app.inject({ method: 'GET', url, headers: as('mon-chair') });
        expect(chair.statusCode, chair.body.slice(0, 300)).toBe(200);
        expect(chair.headers['content-type']).toMatch(/spreadsheetml/);
        // The regional head reads compliance cases, but not the chairman's monitoring.
        expect((await app.inject({ method: 'GET', url, headers: as('mon-head') })).statusCode).toBe(403);
        expect((await app.inject({ method: 'GET', url, headers: as('mon-prices') })).statusCode).toBe(403);
      });

      it("a regional head's numbers hold only their region", async () => {
        const v = values(CHAIRMAN);
        for (const panel of areaPanels) {
          const { def, aggregate, groups } = expectedRows(panel, v, HOME);
          const read = await app.inject({
            method: 'POST',
            url: `/api${def.manifest.base}/list-search`,
            payload: { itemsPerPage: 1 },
            headers: as('mon-head'),
          });
          if (read.statusCode === 403) continue; // the head's role does not read this area at all
          const got = await call(panel.source, CHAIRMAN, v, 'mon-head');
          if (aggregate.groupBy?.length) {
            expect(
              got.list.map((r) => r.regionId),
              panel.id,
            ).toEqual(groups.size ? [HOME] : []);
          }
          const count = aggregate.measures.find((m) => m.fn === 'count' && !m.filter)!;
          const total = got.list.reduce((s, r) => s + (r[count.name] as number), 0);
          expect(total, panel.id).toBe(groups.get(aggregate.groupBy?.length ? HOME : undefined)?.length ?? 0);
        }
      });
    });
  });
}
