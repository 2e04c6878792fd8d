/**
 * The whole open-data catalogue (spec §1, §2: datasets 2-009-0001 … 2-009-0028), derived from
 * the definitions: every file of schemas/_opendata is checked against its source entity's seed
 * (columns, row count, the rows themselves in CSV and JSON), and a record created through the
 * API appears in its dataset's download. A new dataset is covered without new test code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { JSONSchema7 } from 'json-schema';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import type { EntityManifest, GridDefinition, OpenDataset } from '../../src/generated/meta.ts';
import { forSelectedEntity } from '../support/test-selection.ts';

const anon = { authorization: '' };
const read = <T>(...parts: string[]): T => JSON.parse(readFileSync(path.join(REPO_ROOT, ...parts), 'utf8')) as T;
const datasets = readdirSync(path.join(REPO_ROOT, 'schemas/_opendata'))
  .sort()
  .map((f) => read<OpenDataset>('schemas/_opendata', f));
type Row = Record<string, unknown>;
const source = (entity: string) => ({
  manifest: read<EntityManifest>('schemas', entity, 'entity.json'),
  schema: read<JSONSchema7>('schemas', entity, 'schema.json'),
  grid: read<GridDefinition>('schemas', entity, 'grid.json'),
  seed: read<{ records: Row[] }>('schemas', entity, 'seed.json').records,
});
const propertyOf = (schema: JSONSchema7, pointer: string) =>
  schema.properties?.[pointer.slice(1)] as (JSONSchema7 & { reference?: { list: string } }) | undefined;

/** The declared columns: each field, and `<name>Name` beside a reference id. */
const columnsOf = (d: OpenDataset): string[] => {
  const { schema } = source(d.entity);
  return d.fields.flatMap((f) => (propertyOf(schema, f.field)?.reference ? [f.name, `${f.name}Name`] : [f.name]));
};
/** The seed rows a dataset's fixed filters (grid `eq` filters) keep. */
const seedRowsOf = (d: OpenDataset): Row[] => {
  const { grid, seed } = source(d.entity);
  return seed.filter((r) =>
    Object.entries(d.filters ?? {}).every(([name, value]) => {
      const filter = grid.filters.find((g) => g.name === name)!;
      expect(filter.kind, `${d.code}: fixed filter ${name}`).toBe('eq');
      return r[filter.field!.slice(1)] === value;
    }),
  );
};
/** A row as the download gives it, without the localized name columns: compared order-free. */
const projection = (d: OpenDataset, r: Row): string => JSON.stringify(d.fields.map((f) => r[f.field.slice(1)] ?? null));
const downloaded = (d: OpenDataset, r: Row): string => JSON.stringify(d.fields.map((f) => r[f.name] ?? null));

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`open-data catalogue on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name, { seedSamples: true, publicRateLimit: 100_000 }));
    }, 120_000);
    afterAll(async () => close?.());

    it('lists all 28 codes of the spec, each with metadata, one file per code', async () => {
      const expected = Array.from({ length: 28 }, (_, i) => `2-009-${String(i + 1).padStart(4, '0')}`);
      expect(datasets.map((d) => d.code)).toEqual(expected);
      for (const lang of ['en', 'ru', 'uz', 'uzCyrillic']) {
        const res = await app.inject({ method: 'GET', url: `/api/open-data?lang=${lang}`, headers: anon });
        expect(res.statusCode).toBe(200);
        const list = res.json().list as Array<Record<string, unknown>>;
        expect(list.map((m) => m.code)).toEqual(expected);
        for (const m of list) {
          expect(m.title, `${String(m.code)} title in ${lang}`).not.toMatch(/^openData\./);
          expect(m.description, `${String(m.code)} description in ${lang}`).not.toMatch(/^openData\./);
          expect(m.frequency, `${String(m.code)} frequency in ${lang}`).not.toMatch(/^openData\./);
          expect(m).toMatchObject({
            publisher: expect.stringMatching(/\S/),
            license: 'CC BY 4.0',
            updateFrequency: expect.any(String),
          });
        }
      }
    });

    for (const d of forSelectedEntity(datasets, (x) => x.entity)) {
      it(`${d.code} (${d.entity}): CSV and JSON carry the declared columns and the seeded live rows`, async () => {
        const { manifest } = source(d.entity);
        expect(manifest.publicRead, `${d.entity} must be a public registry`).toBe(true);
        const expected = seedRowsOf(d);
        expect(expected.length, `${d.code} has sample rows to show`).toBeGreaterThan(0);
        const columns = columnsOf(d);
        const meta = (
          await app.inject({ method: 'GET', url: `/api/open-data/${d.code}?lang=en`, headers: anon })
        ).json();
        expect(meta.columns).toEqual(columns);
        expect(meta.rows).toBe(expected.length);
        expect(meta.lastUpdated).toMatch(/^\d{4}-\d{2}-\d{2}T/);

        const json = await app.inject({
          method: 'GET',
          url: `/api/open-data/${d.code}/data.json?lang=ru`,
          headers: anon,
        });
        expect(json.statusCode).toBe(200);
        expect(json.headers['content-type']).toMatch(/^application\/json/);
        const rows = json.json() as Row[];
        expect(rows.length).toBe(expected.length);
        for (const row of rows) expect(Object.keys(row)).toEqual(columns);
        expect(rows.map((r) => downloaded(d, r)).sort()).toEqual(expected.map((r) => projection(d, r)).sort());
        // A reference id comes with its localized name (Russian asked for: no Latin-only names).
        const named = columns.filter((c) => c.endsWith('Name') && columns.includes(c.slice(0, -4)));
        for (const c of named)
          for (const row of rows) if (row[c.slice(0, -4)] !== null) expect(row[c], `${d.code} ${c}`).toMatch(/[а-яё]/i);

        const csv = await app.inject({
          method: 'GET',
          url: `/api/open-data/${d.code}/data.csv?lang=en`,
          headers: anon,
        });
        expect(csv.statusCode).toBe(200);
        expect(csv.headers['content-type']).toMatch(/^text\/csv/);
        expect(csv.body.startsWith('\uFEFF')).toBe(true);
        const [header, ...lines] = csv.body.slice(1).split('\r\n').filter(Boolean);
        expect(header).toBe(columns.join(','));
        // Seed texts carry no line breaks, so a line is a row.
        expect(lines.length).toBe(expected.length);
      });
    }

    it('a record created through the API appears in its dataset’s download', async () => {
      for (const d of datasets) {
        const { manifest, schema } = source(d.entity);
        // A registry with unique keys (the classifier) would need invented keys; 2-009-0001 in public-data.test.ts covers the path.
        if (manifest.unique?.length) continue;
        const record: Row = structuredClone(seedRowsOf(d)[0]!);
        // Mark the copy in a free-text column of the dataset, or else in a wide numeric one.
        const text = d.fields.find((f) => {
          const p = propertyOf(schema, f.field);
          return p?.type === 'string' && !p.format && !p.pattern;
        });
        const number = [...d.fields].reverse().find((f) => {
          const p = propertyOf(schema, f.field);
          return p?.type === 'integer' && !p.reference && (p.maximum ?? 0) >= 1_000_000;
        });
        const marked = text ?? number;
        expect(marked, `${d.code} has a column to mark a new row in`).toBeTruthy();
        const value = text ? `Sinov yozuvi ${d.code}` : 987_650 + Number(d.code.slice(-2));
        record[marked!.field.slice(1)] = value;
        const before = (await app.inject({ method: 'GET', url: `/api/open-data/${d.code}`, headers: anon })).json()
          .rows as number;
        const created = await app.inject({ method: 'POST', url: `/api${manifest.base}/create`, payload: record });
        expect(created.statusCode, created.body).toBe(200);
        expect((await app.inject({ method: 'GET', url: `/api/open-data/${d.code}`, headers: anon })).json().rows).toBe(
          before + 1,
        );
        const rows = (
          await app.inject({ method: 'GET', url: `/api/open-data/${d.code}/data.json`, headers: anon })
        ).json() as Row[];
        expect(
          rows.filter((r) => r[marked!.name] === value),
          d.code,
        ).toHaveLength(1);
        const csv = (await app.inject({ method: 'GET', url: `/api/open-data/${d.code}/data.csv`, headers: anon })).body;
        expect(csv).toContain(String(value));
      }
    });

    it('a dataset over a staff-only entity publishes nothing to visitors', async () => {
      // npm run check refuses such a file; this is the server's own line behind it.
      const staffOnly = {
        ...datasets[0]!,
        code: '2-009-0099',
        entity: 'customs-record',
        fields: [{ field: '/id', name: 'id' }],
        filters: undefined,
        sort: undefined,
      };
      app.definitions.openData.set(staffOnly.code, staffOnly);
      try {
        const res = await app.inject({
          method: 'GET',
          url: `/api/open-data/${staffOnly.code}/data.json`,
          headers: anon,
        });
        expect(res.statusCode).toBe(401);
        expect(res.body).not.toContain('"id"');
      } finally {
        app.definitions.openData.delete(staffOnly.code);
      }
    });
  });
}
