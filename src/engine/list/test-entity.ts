/**
 * The made-up entity "gadget" of the list screen's component tests (the engine must not know
 * real ones): schema, grid with every filter kind, manifest, machine and screens, and what
 * `src/definitions/client.ts` serves in those tests. It imports nothing, so a `vi.mock` factory
 * may load it.
 * @example vi.mock('../../definitions/client.ts', async () => (await import('./test-entity.ts')).definitionsClientMock);
 */
export const schema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    price: { type: 'number' },
    madeOn: { type: 'string', format: 'date' },
    regionId: { type: 'integer', reference: { list: 'region' } },
    districtId: { type: 'integer', reference: { list: 'district', parentField: 'regionId' } },
    active: { type: 'boolean' },
    kind: {
      type: 'string',
      oneOf: [
        { const: 'A', title: 'test.kind.A' },
        { const: 'B', title: 'test.kind.B' },
      ],
    },
  },
};
export const grid = {
  columns: [
    { field: '/id', titleKey: 'test.col.id', sortable: true },
    { field: '/name', titleKey: 'test.col.name', sortable: true },
    { field: '/price', titleKey: 'test.col.price', format: 'money', sortable: true },
    { field: '/madeOn', titleKey: 'test.col.madeOn', format: 'date' },
    { field: '/regionId', titleKey: 'test.col.region', format: 'reference', reference: 'region' },
    { field: '/active', titleKey: 'test.col.active', format: 'boolean' },
    { field: '/kind', titleKey: 'test.col.kind', format: 'enum' },
    { field: '/status', titleKey: 'test.col.status', format: 'status', sortable: true },
    { field: '/createdAt', titleKey: 'test.col.createdAt', format: 'datetime', sortable: true },
  ],
  defaultSort: [{ field: '/createdAt', desc: true }],
  filters: [
    { name: 'keyword', kind: 'keyword', titleKey: 'test.filter.keyword' },
    { name: 'statusId', kind: 'eq', field: '/status', titleKey: 'test.filter.status', primary: true },
    {
      name: 'regionId',
      kind: 'eq',
      field: '/regionId',
      reference: 'region',
      titleKey: 'test.filter.region',
      primary: true,
    },
    {
      name: 'districtId',
      kind: 'eq',
      field: '/districtId',
      reference: 'district',
      parentFilter: 'regionId',
      titleKey: 'test.filter.district',
    },
    { name: 'createdDate', kind: 'dateRange', field: '/createdAt', titleKey: 'test.filter.created', primary: true },
    { name: 'price', kind: 'range', field: '/price', titleKey: 'test.filter.price' },
    { name: 'active', kind: 'bool', field: '/active', titleKey: 'test.filter.active' },
    { name: 'kinds', kind: 'in', field: '/kind', titleKey: 'test.filter.kinds' },
  ],
};
export const manifest = {
  id: 'gadget',
  description: '',
  base: '/gadget',
  titleKey: 'test.title',
  subject: 'Gadget',
  schema: 'schema.json',
  grid: 'grid.json',
  workflow: 'gadget-flow',
};
export const machine = {
  id: 'gadget-flow',
  version: 1,
  description: '',
  initial: 'DRAFT',
  states: { DRAFT: { description: '' }, DONE: { description: '', type: 'final' } },
};
export const screens = [
  {
    id: 'gadget-list',
    route: '/gadgets',
    kind: 'list',
    entity: 'gadget',
    titleKey: 'test.screen.list',
    permission: 'public',
  },
  {
    id: 'gadget-detail',
    route: '/gadgets/:id',
    kind: 'detail',
    entity: 'gadget',
    titleKey: 'test.screen.detail',
    permission: 'public',
  },
  {
    id: 'gadget-new',
    route: '/gadgets/new',
    kind: 'form',
    entity: 'gadget',
    titleKey: 'test.screen.new',
    permission: 'public',
  },
];

/** The test entity as `loadEntity` answers it. */
export const def = { id: 'gadget', manifest, schema, grid, ui: undefined, dir: 'schemas/gadget' };

/** The module `src/definitions/client.ts` as the list tests see it: the test entity only. */
export const definitionsClientMock = {
  manifests: new Map([['gadget', manifest]]),
  screens,
  loadEntity: async () => def,
  loadMachine: async (id?: string) => (id === machine.id ? machine : undefined),
  loadUi: async () => undefined,
};
