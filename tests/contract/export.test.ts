/**
 * The XLSX export against an in-test computation, for every entity and on both backends:
 * 150 generated rows, exported with a filter and a two-key sort in Russian, parsed back with
 * exceljs and compared cell by cell (header titles, row count, order, real dates and
 * numbers, localized names). The store's batched reader is checked on its own with tiny
 * batches, so keyset paging crosses ties and nulls in every sortable column.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import ExcelJS from 'exceljs';
import type { JSONSchema7 } from 'json-schema';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry, type EntityDefinition } from '../../src/definitions/registry.ts';
import { resolveFieldSchema, scalarType } from '../../src/shared/field-schema.ts';
import { statesKeyOf } from '../../src/shared/format.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { tableName } from '../../src/server/db/entity-table.ts';
import { backends } from '../support/databases.ts';
import { startTestApp, storeRecords } from '../support/app.ts';
import { createRng, createSampler } from '../support/sample-data.ts';
import { at, expectedOrder } from '../support/records.ts';
import { systemActor } from '../../src/server/auth/access.ts';
import { cellName, forSelectedEntity } from '../support/test-selection.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const ROWS = 150;
const LOCALE = 'ru';
const TASHKENT_OFFSET_MS = 5 * 3600_000; // UTC+5 all year, no daylight saving
/** The calendar day in Tashkent of an ISO moment. */
const tashkentDay = (iso: string): string => new Date(Date.parse(iso) + TASHKENT_OFFSET_MS).toISOString().slice(0, 10);
type Row = Record<string, unknown> & { id: number };

/** A key from the Russian locale file, or undefined. */
function ru(key: string): string | undefined {
  let node: unknown = registry.locales[LOCALE];
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  return typeof node === 'string' ? node : undefined;
}

/** What a cell must hold, computed here from the record and the definitions. */
function expectedCell(def: EntityDefinition, column: EntityDefinition['grid']['columns'][number], row: Row): unknown {
  const value = at(row, column.field);
  if (value === undefined || value === null || value === '') return null;
  const field = resolveFieldSchema(def.schema, column.field) as
    | (JSONSchema7 & { reference?: { list: string } })
    | undefined;
  const format =
    column.format ??
    (column.field === '/status'
      ? 'status'
      : column.field === '/id'
        ? 'text'
        : field?.reference
          ? 'reference'
          : field?.oneOf
            ? 'enum'
            : (field as { valueLabels?: string } | undefined)?.valueLabels
              ? 'label'
              : field?.format === 'date'
                ? 'date'
                : field?.format === 'date-time'
                  ? 'datetime'
                  : scalarType(field ?? {}) === 'number' || scalarType(field ?? {}) === 'integer'
                    ? 'number'
                    : scalarType(field ?? {}) === 'boolean'
                      ? 'boolean'
                      : 'text');
  switch (format) {
    case 'date': {
      // A moment shown as a date (createdAt) is the day in Tashkent: after 19:00 UTC it is the next one.
      const day = String(value).length > 10 ? tashkentDay(String(value)) : String(value);
      const [y, m, d] = day.split('-').map(Number);
      return new Date(Date.UTC(y!, m! - 1, d!));
    }
    case 'datetime': {
      const t = Date.parse(String(value)) + TASHKENT_OFFSET_MS;
      return new Date(t - (t % 1000));
    }
    case 'money':
      return Math.round(Number(value));
    case 'year':
      // A year kept as text in the schema ("2025") is still a number in the sheet.
      return Number.isFinite(Number(value)) ? Number(value) : String(value);
    case 'number':
      return Number(value);
    case 'boolean':
      return value ? (ru('engine.list.yes') ?? 'Yes') : (ru('engine.list.no') ?? 'No');
    case 'status':
      // One label per state: the machine's (or the entity's own), as the record page shows it.
      return ru(`${statesKeyOf(def.manifest)}.${String(value)}`) ?? String(value);
    case 'enum': {
      const option = (field?.oneOf as JSONSchema7[] | undefined)?.find((o) => o.const === value);
      return (option?.title && ru(option.title)) || String(value);
    }
    case 'label':
      // A value named by its text (a role's code → its Russian name), else itself.
      return ru(`${(field as { valueLabels: string }).valueLabels}.${String(value)}`) ?? String(value);
    case 'reference': {
      const item = registry.references
        .get(column.reference ?? field!.reference!.list)
        ?.items.find((i) => i.id === value);
      return item?.nameRu || item?.nameUz || item?.nameLt || String(value);
    }
    default:
      return typeof value === 'number' ? value : String(value);
  }
}

/** A filter of the grid that matches some but not all rows, with the rows it keeps. */
function pickFilter(def: EntityDefinition, rows: Row[]): { query: Record<string, string>; rows: Row[] } {
  const rng = createRng(7);
  for (const f of def.grid.filters) {
    if ((f.kind !== 'eq' && f.kind !== 'in') || f.field === '/status') continue;
    const values: unknown[] = [
      ...new Set(rows.map((r) => at(r, f.field!)).filter((v) => v !== undefined && v !== null)),
    ];
    if (values.length < 2) continue;
    const chosen: unknown[] =
      f.kind === 'eq' ? [values[Math.floor(rng() * values.length)]] : values.slice(0, Math.ceil(values.length / 2));
    return { query: { [f.name]: chosen.join(',') }, rows: rows.filter((r) => chosen.includes(at(r, f.field!))) };
  }
  const f = def.grid.filters.find((x) => x.kind === 'dateRange' && x.field === '/createdAt');
  if (!f) throw new Error(`${def.id}: no filter to test the export with`);
  return { query: { [`${f.name}From`]: '2000-01-01' }, rows };
}

const readSheet = async (payload: Buffer) => {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(payload as never);
  return workbook.worksheets[0]!;
};

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`export on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    beforeAll(async () => {
      // One session serves every entity's test: on a loaded machine the file outlasts a default token.
      ({ app, close } = await startTestApp(backend.name, { accessTokenSeconds: 3600 }));
    });
    afterAll(async () => close?.());

    for (const def of forSelectedEntity(registry.entities.values(), (d) => d.id)) {
      it(`${def.id}: ${ROWS} rows — filter, sort, titles and cells match the computation`, async () => {
        const base = `/api${def.manifest.base}`;
        // Rows already there (the seeded roles, the admin) are part of what the list must show.
        const sample = createSampler(def.schema, registry.references, createServerAjv());
        const rows: Row[] = [];
        for await (const record of app.store.streamList(def.id, {}, {}, systemActor())) rows.push(record as Row);

        rows.push(
          ...((await storeRecords(
            app,
            def.id,
            ROWS,
            (seed) => sample(seed, { full: (seed - 5000) % 3 !== 0 }),
            5000,
          )) as Row[]),
        );

        const sortable = def.grid.columns.filter((c) => c.sortable && c.field !== '/id').map((c) => c.field);
        const sort = [
          { field: sortable[0] ?? '/id', desc: true },
          { field: '/id', desc: false },
        ];
        const filter = pickFilter(def, rows);
        const expected = expectedOrder(filter.rows, sort);
        const query = new URLSearchParams({
          ...filter.query,
          sortBy: sort.map((s) => s.field.slice(1).split('/').join('.')).join(','),
          sortDesc: sort.map((s) => String(s.desc)).join(','),
          lang: LOCALE,
        });
        const res = await app.inject({ method: 'GET', url: `${base}/export?${query}` });
        const where = cellName(def.id, 'export', JSON.stringify(filter.query));
        expect(res.statusCode, `${where}: ${res.body.slice(0, 300)}`).toBe(200);
        expect(res.headers['content-type'], `${where}: content-type`).toContain(
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        );
        expect(res.headers['content-disposition'], `${where}: content-disposition`).toMatch(
          new RegExp(`^attachment; filename="${def.id}-\\d{4}-\\d{2}-\\d{2}\\.xlsx"$`),
        );

        const sheet = await readSheet(res.rawPayload);
        const columns = def.grid.columns.filter((c) => !c.hidden);
        const header = columns.map((_, i) => sheet.getRow(1).getCell(i + 1).value);
        expect(header, `${where}: the header row`).toEqual(columns.map((c) => ru(c.titleKey) ?? c.titleKey));
        expect(sheet.actualRowCount - 1, `${where}: rows`).toBe(expected.length);
        expect(expected.length, `${where}: the filter keeps some rows`).toBeGreaterThan(0);

        const idColumn = columns.findIndex((c) => c.field === '/id');
        if (idColumn >= 0) {
          const ids = expected.map((_, r) => sheet.getRow(r + 2).getCell(idColumn + 1).value);
          expect(ids, `${where}: the order of ids`).toEqual(expected.map((r) => r.id));
        }
        // Every cell of the first rows, the middle and the last.
        for (const r of [...new Set([0, 1, 2, Math.floor(expected.length / 2), expected.length - 1])]) {
          const got = columns.map((_, c) => sheet.getRow(r + 2).getCell(c + 1).value ?? null);
          expect(got, `${where}: row ${r}`).toEqual(columns.map((c) => expectedCell(def, c, expected[r]!)));
        }
        // Money cells are numbers with a grouping format; dates are real dates.
        columns.forEach((c, i) => {
          const cell = sheet.getRow(2).getCell(i + 1);
          if (c.format === 'money') expect(cell.numFmt, cellName(def.id, 'export', c.field)).toBe('#,##0');
          if (c.format === 'date' && cell.value !== null)
            expect(cell.value, cellName(def.id, 'export', c.field)).toBeInstanceOf(Date);
        });

        // The batched reader pages through ties and nulls in every sortable column, both ways.
        for (const field of def.grid.columns.filter((c) => c.sortable).map((c) => c.field)) {
          for (const desc of [false, true]) {
            const ids: number[] = [];
            const name = field.slice(1).split('/').join('.');
            for await (const record of app.store.streamList(
              def.id,
              {},
              { sortBy: [name], sortDesc: [desc] },
              systemActor(),
              7,
            ))
              ids.push(record.id);
            expect(ids, cellName(def.id, 'batched reader', `${field} ${desc ? 'desc' : 'asc'}`)).toEqual(
              expectedOrder(rows, [{ field, desc }]).map((r) => r.id),
            );
          }
        }
      });
    }

    it('refuses a bad filter or sort with a 400 JSON body, before any file is sent', async () => {
      const def = [...registry.entities.values()][0]!;
      const base = `/api${def.manifest.base}`;
      const badFilter = await app.inject({ method: 'GET', url: `${base}/export?nope=1` });
      expect(badFilter.statusCode).toBe(400);
      expect(badFilter.headers['content-type']).toContain('application/json');
      expect(Object.keys(badFilter.json().fieldErrors)).toEqual(['/nope']);
      const badSort = await app.inject({ method: 'GET', url: `${base}/export?sortBy=data&lang=en` });
      expect(badSort.statusCode).toBe(400);
      expect(badSort.json().message).toBe('The list cannot be sorted by “data”');
      const badDesc = await app.inject({ method: 'GET', url: `${base}/export?sortBy=id&sortDesc=maybe` });
      expect(badDesc.statusCode).toBe(400);
      expect(Object.keys(badDesc.json().fieldErrors)).toEqual(['/sortDesc']);
    });

    it('exports an empty result as a workbook with only the header row', async () => {
      const def = [...registry.entities.values()].find((d) => d.grid.filters.some((f) => f.kind === 'dateRange'))!;
      const f = def.grid.filters.find((x) => x.kind === 'dateRange')!;
      const res = await app.inject({ method: 'GET', url: `/api${def.manifest.base}/export?${f.name}To=1999-12-31` });
      expect(res.statusCode).toBe(200);
      const sheet = await readSheet(res.rawPayload);
      expect(sheet.actualRowCount).toBe(1);
    });
  });
}
