/**
 * The list grids as people see them (issue #17, lists): the bar shows at most four filters
 * before "More filters", no two visible columns of a list carry the same header in any
 * language, and year columns are shown without digit grouping.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLocales } from '../../src/definitions/locale-files.ts';
import { LOCALES } from '../../src/shared/locales.ts';
import { MAX_SHOWN_FILTERS, splitFilters } from '../../src/shared/filter-bar.ts';
import { formatCell } from '../../src/shared/cell-formats.ts';
import { statesKeyOf } from '../../src/shared/format.ts';
import type { GridDefinition } from '../../src/generated/meta.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const grids = readdirSync(path.join(ROOT, 'schemas'))
  .filter((d) => !d.startsWith('_') && existsSync(path.join(ROOT, 'schemas', d, 'grid.json')))
  .map((d) => ({
    entity: d,
    grid: JSON.parse(readFileSync(path.join(ROOT, 'schemas', d, 'grid.json'), 'utf8')) as GridDefinition,
  }));
const { locales } = readLocales(ROOT);
const text = (locale: (typeof LOCALES)[number], key: string): unknown =>
  key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], locales[locale]);

describe('list grids', () => {
  it('show at most four filters before "More filters", and grids with more than four mark their primary ones', () => {
    for (const { entity, grid } of grids) {
      const { shown } = splitFilters(grid.filters);
      expect(shown.length, entity).toBeLessThanOrEqual(MAX_SHOWN_FILTERS);
      if (grid.filters.length > MAX_SHOWN_FILTERS)
        expect(
          grid.filters.some((f) => f.primary),
          `${entity}: mark its primary filters`,
        ).toBe(true);
    }
  });

  it('never give two visible columns of a list the same header', () => {
    const clashes: string[] = [];
    for (const { entity, grid } of grids)
      for (const locale of LOCALES) {
        const seen = new Map<string, string>();
        for (const c of grid.columns.filter((col) => !col.hidden)) {
          const title = String(text(locale, c.titleKey) ?? c.titleKey);
          if (seen.has(title)) clashes.push(`${entity} ${locale}: "${title}" (${seen.get(title)}, ${c.field})`);
          seen.set(title, c.field);
        }
      }
    expect(clashes).toEqual([]);
  });

  it('labels every status a list shows in every language (no raw SUBMITTED)', () => {
    const missing: string[] = [];
    for (const { entity, grid } of grids) {
      if (!grid.columns.some((c) => c.field === '/status') && !grid.filters.some((f) => f.field === '/status'))
        continue;
      const manifest = JSON.parse(readFileSync(path.join(ROOT, 'schemas', entity, 'entity.json'), 'utf8'));
      const machineFile = manifest.workflow && path.join(ROOT, 'workflows', `${manifest.workflow}.machine.json`);
      const statuses: string[] =
        machineFile && existsSync(machineFile)
          ? Object.keys(JSON.parse(readFileSync(machineFile, 'utf8')).states)
          : [manifest.initialStatus ?? 'CREATED'];
      for (const locale of LOCALES)
        for (const status of statuses) {
          const label = text(locale, `${statesKeyOf(manifest)}.${status}`);
          if (typeof label !== 'string' || label === status) missing.push(`${entity} ${locale} ${status}`);
        }
    }
    expect(missing).toEqual([]);
  });

  it('shows year columns without digit grouping', () => {
    const ctx = { locale: 'ru' as const, translate: () => undefined };
    expect(formatCell(2025, { kind: 'year' }, ctx)).toBe('2025');
    for (const { entity, grid } of grids)
      for (const c of grid.columns)
        if (/(^|\/)year$/.test(c.field)) expect(c.format, `${entity} ${c.field}`).toBe('year');
  });
});
