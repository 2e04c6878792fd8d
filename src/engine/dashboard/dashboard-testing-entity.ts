/**
 * What `src/definitions/client.ts` serves in the dashboard's component tests: the list tests'
 * made-up entity "gadget" with two declared aggregates (one with a measure filter). It imports
 * nothing at the top, so a `vi.mock` factory may load it.
 * @example vi.mock('../../definitions/client.ts', async () => (await import('./dashboard-testing-entity.ts')).clientMock);
 */
import { definitionsClientMock, manifest } from '../list/test-entity.ts';

const aggregates = {
  'by-region': {
    groupBy: ['/regionId', '/kind'],
    measures: [
      { name: 'total', fn: 'count' },
      { name: 'done', fn: 'count', filter: { statusId: 'DONE' } },
    ],
  },
  summary: { measures: [{ name: 'total', fn: 'count' }] },
};

/** The mocked module. */
export const clientMock = { ...definitionsClientMock, manifests: new Map([['gadget', { ...manifest, aggregates }]]) };
