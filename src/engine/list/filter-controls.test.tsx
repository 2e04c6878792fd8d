/** Every filter kind of the grid meta-schema has a control. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FILTER_CONTROLS } from './filter-controls.tsx';

const gridMeta = JSON.parse(readFileSync(new URL('../../../schemas/_meta/grid.schema.json', import.meta.url), 'utf8'));

describe('filter controls', () => {
  it('has a control for every kind of the grid meta-schema, and nothing else', () => {
    const kinds: string[] = gridMeta.properties.filters.items.properties.kind.enum;
    expect(Object.keys(FILTER_CONTROLS).sort()).toEqual([...kinds].sort());
    for (const entry of Object.values(FILTER_CONTROLS)) expect(typeof entry.Control).toBe('function');
  });
});
