/**
 * The test entity "gadget" of the screen-kind component tests (src/engine/screens-*.test.tsx):
 * its schema, uiSchema with wizard steps, manifest, screens and edit rules, and what
 * `src/definitions/client.ts` serves in those tests. It imports nothing, so a `vi.mock` factory
 * may load it.
 * @example vi.mock('../definitions/client.ts', async () => (await import('./test-entity.ts')).definitionsClientMock);
 */
export const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'amount'],
  properties: {
    name: { type: 'string', title: 'test.gadget.name', maxLength: 50 },
    amount: { type: 'integer', title: 'test.gadget.amount', minimum: 1 },
    note: { type: 'string', title: 'test.gadget.note' },
  },
};
export const ui = {
  uiSchema: {},
  wizard: {
    confirmKey: 'test.gadget.confirm',
    steps: [
      { id: 'one', titleKey: 'test.gadget.stepOne', fields: ['/name'] },
      { id: 'two', titleKey: 'test.gadget.stepTwo', fields: ['/amount', '/note'] },
    ],
  },
};
export const manifest = {
  id: 'gadget',
  base: '/gadget',
  titleKey: 'test.gadget.title',
  subject: 'Gadget',
  schema: 'schema.json',
  ui: 'ui.json',
  grid: 'grid.json',
  edit: 'edit.json',
  description: 'd',
  drafts: true,
  labelField: '/name',
  unique: ['/name'],
  publicLookups: [
    {
      name: 'period',
      by: [
        { param: 'from', field: '/madeOn', op: 'gte' as const, type: 'date' as const },
        { param: 'to', field: '/madeOn', op: 'lte' as const, type: 'date' as const },
      ],
      returns: [{ as: 'answer', field: '/name' }],
    },
  ],
};
export const screens = [
  {
    id: 'gadget-list',
    route: '/gadgets',
    kind: 'list',
    entity: 'gadget',
    titleKey: 'test.gadget.title',
    permission: 'read Gadget',
  },
  {
    id: 'gadget-new',
    route: '/gadgets/new',
    kind: 'form',
    entity: 'gadget',
    titleKey: 'test.gadget.new',
    permission: 'create Gadget',
    options: { drafts: true },
  },
  {
    id: 'gadget-detail',
    route: '/gadgets/:id',
    kind: 'detail',
    entity: 'gadget',
    titleKey: 'test.gadget.title',
    permission: 'read Gadget',
  },
  {
    id: 'gadget-edit',
    route: '/gadgets/:id/edit',
    kind: 'form',
    entity: 'gadget',
    titleKey: 'test.gadget.edit',
    permission: 'update Gadget',
  },
];

/** The test entity as `loadEntity` answers it. */
export const def = {
  id: 'gadget',
  manifest,
  schema,
  ui,
  grid: { columns: [], defaultSort: [], filters: [] },
  edit: { description: 'd', states: { '*': { update: [{ who: 'any', fields: 'all' }], delete: 'any' } } },
  dir: '',
};

/** The module `src/definitions/client.ts` as the screen tests see it: the test entity only. */
export const definitionsClientMock = {
  manifests: new Map([['gadget', manifest]]),
  screens,
  loadEntity: async () => def,
  loadUi: async () => ui,
  loadMachine: async () => undefined,
  loadScreen: async ({ id }: { id: string }) => screens.find((s) => s.id === id),
};
