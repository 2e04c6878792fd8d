// @vitest-environment happy-dom
/**
 * The tree screen kind: records of a test entity loaded through the data provider, nested by
 * the manifest's parent field, ordered by its sort field, expandable, each linking to its
 * record page and to a new child; and the tree builder's handling of orphans and cycles.
 */
import { describe, expect, it, vi } from 'vitest';
import { screen as dom, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { ScreenDefinition } from '../../generated/meta.ts';
import type { StoredRecord } from '../../client/data-provider.ts';
import { createFakeDataProvider, renderWithProviders } from '../form/testing.tsx';
import TreeScreen from './TreeScreen.tsx';
import { buildTree } from './tree-data.ts';

const fx = vi.hoisted(() => {
  const manifest = {
    id: 'unit',
    base: '/unit',
    titleKey: 'test.unit.title',
    subject: 'Unit',
    schema: 'schema.json',
    grid: 'grid.json',
    edit: 'edit.json',
    description: 'd',
    labelField: '/name',
    tree: { parentField: '/parentId', sortField: '/sort' },
  };
  const screens = [
    {
      id: 'unit-tree',
      route: '/units',
      kind: 'tree',
      entity: 'unit',
      titleKey: 'test.unit.title',
      permission: 'read Unit',
    },
    {
      id: 'unit-list',
      route: '/units/table',
      kind: 'list',
      entity: 'unit',
      titleKey: 'test.unit.title',
      permission: 'read Unit',
    },
    {
      id: 'unit-new',
      route: '/units/new',
      kind: 'form',
      entity: 'unit',
      titleKey: 'test.unit.title',
      permission: 'create Unit',
    },
    {
      id: 'unit-detail',
      route: '/units/:id',
      kind: 'detail',
      entity: 'unit',
      titleKey: 'test.unit.title',
      permission: 'read Unit',
    },
  ];
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'test.unit.title' },
      parentId: { type: 'integer', title: 'test.unit.title' },
      sort: { type: 'integer', title: 'test.unit.title' },
    },
  };
  return {
    manifest,
    screens,
    def: {
      id: 'unit',
      manifest,
      schema,
      ui: undefined,
      grid: { columns: [], defaultSort: [], filters: [] },
      edit: { description: 'd', states: { '*': { update: [{ who: 'any', fields: 'all' }], delete: 'any' } } },
      dir: '',
    },
  };
});

vi.mock('../../definitions/client.ts', () => ({
  manifests: new Map([['unit', fx.manifest]]),
  screens: fx.screens,
  loadEntity: async () => fx.def,
  loadUi: async () => undefined,
  loadMachine: async () => undefined,
}));

const rec = (id: number, name: string, parentId?: number, sort = 0): StoredRecord => ({
  id,
  version: 1,
  status: 'ACTIVE',
  createdAt: '',
  updatedAt: '',
  name,
  sort,
  ...(parentId ? { parentId } : {}),
});

const RECORDS = [
  rec(1, 'Committee'),
  rec(3, 'Bukhara', 1, 2),
  rec(2, 'Andijan', 1, 1),
  rec(4, 'Legal section', 3),
  rec(5, 'Archive'),
];

function renderTree() {
  const getList = vi.fn(async () => ({ list: RECORDS, total: RECORDS.length }));
  const router = createMemoryRouter(
    [{ path: '/units', element: <TreeScreen screen={fx.screens[0] as unknown as ScreenDefinition} /> }],
    { initialEntries: ['/units'] },
  );
  const result = renderWithProviders(<RouterProvider router={router} />, {
    dataProvider: createFakeDataProvider({ getList }),
  });
  result.i18n.addResourceBundle('en', 'translation', { test: { unit: { title: 'Units' } } }, true, true);
  return { ...result, getList };
}

const node = (id: number) => document.querySelector<HTMLElement>(`[data-node="${id}"]`);

describe('tree screen', () => {
  it('nests records by their parent, orders siblings, links each to its page and to a new child', async () => {
    const { getList } = renderTree();
    await waitFor(() => expect(node(1)).toBeTruthy());
    expect(getList).toHaveBeenCalledWith('unit', expect.objectContaining({ page: 0, itemsPerPage: 100 }));
    // Roots start open: the committee's children show, ordered by the sort field.
    const children = [...node(1)!.querySelectorAll<HTMLElement>(':scope [data-node]')].map((n) => n.dataset.node);
    expect(children.slice(0, 2)).toEqual(['2', '3']);
    expect(node(5)).toBeTruthy();
    expect(node(4)).toBeNull(); // inside the closed Bukhara branch
    const open = within(node(2)!)
      .getAllByRole('link')
      .map((a) => a.getAttribute('href'));
    expect(open).toEqual(['/units/2', '/units/new?parentId=2']);
    expect(document.querySelector('[data-action="table"]')?.closest('a')?.getAttribute('href')).toBe('/units/table');

    // Expanding Bukhara shows its section; collapsing the committee hides its children.
    node(3)!.querySelector<HTMLElement>('.fui-TreeItemLayout')!.click();
    await waitFor(() => expect(node(4)).toBeTruthy());
    expect(dom.getByText('Legal section')).toBeTruthy();
    node(1)!.querySelector<HTMLElement>('.fui-TreeItemLayout')!.click();
    await waitFor(() => expect(node(2)).toBeNull());
  });
});

describe('buildTree', () => {
  it('makes orphans roots and never loops on a cycle', () => {
    const records = [rec(1, 'a', 2), rec(2, 'b', 1), rec(3, 'c', 99), rec(4, 'd', 3)];
    const roots = buildTree(records, '/parentId');
    const flat = (nodes: ReturnType<typeof buildTree>): number[] =>
      nodes.flatMap((n) => [n.record.id, ...flat(n.children)]);
    expect(roots.map((r) => r.record.id)).toEqual([3, 1]);
    expect(flat(roots).sort()).toEqual([1, 2, 3, 4]);
    expect(roots[0]!.children.map((c) => c.record.id)).toEqual([4]);
  });
});
