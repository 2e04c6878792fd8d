/**
 * Where a header counter leads: the list of its entity filtered to exactly what it counts — one
 * status by the grid's `eq` filter, several by its `in` filter (the letter counters' "incoming":
 * RECEIVED and SEEN) —, "my work" for a counter of the user's own records.
 */
import { describe, expect, it, vi } from 'vitest';
import type { GridDefinition } from '../../generated/meta.ts';
import { createAbility } from '../../shared/ability.ts';

vi.mock('../../definitions/client.ts', () => ({
  screens: [{ id: 'doc-list', route: '/admin/documents', kind: 'list', entity: 'doc', permission: 'read Document' }],
  loadCounterRules: vi.fn(),
  loadEntity: vi.fn(),
}));
const { counterLink } = await import('./counter-links.ts');

const grid = (filters: GridDefinition['filters']): GridDefinition =>
  ({ columns: [], defaultSort: [], filters }) as unknown as GridDefinition;
const withBoth = grid([
  { name: 'statusId', kind: 'eq', field: '/status', titleKey: 'x' },
  { name: 'statuses', kind: 'in', field: '/status', titleKey: 'y' },
]);
const ability = createAbility([{ action: 'read', subject: 'Document' }]);

describe('counterLink', () => {
  it('filters by the one status with the eq filter', () => {
    const link = counterLink(
      [{ entity: 'doc', statuses: ['DESCENDED'] }],
      new Map([['doc', withBoth]]),
      ability,
      '/admin',
    );
    expect(link).toBe('/admin/documents?statusId=DESCENDED');
  });

  it('filters by several statuses with the in filter, not the whole list', () => {
    const link = counterLink(
      [{ entity: 'doc', statuses: ['RECEIVED', 'SEEN'] }],
      new Map([['doc', withBoth]]),
      ability,
      '/admin',
    );
    expect(link).toBe('/admin/documents?statuses=RECEIVED%2CSEEN');
  });

  it('opens the whole list when the grid cannot filter so, and my work for assigned records', () => {
    const only = new Map([['doc', grid([{ name: 'statusId', kind: 'eq', field: '/status', titleKey: 'x' }])]]);
    expect(counterLink([{ entity: 'doc', statuses: ['A', 'B'] }], only, ability, '/admin')).toBe('/admin/documents');
    expect(counterLink([{ entity: 'doc', statuses: ['A'], assignedTo: '/signerId' }], only, ability, '/admin')).toBe(
      '/admin#my-work',
    );
  });
});
