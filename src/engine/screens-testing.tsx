/**
 * Helpers of the screen-kind component tests (src/engine/screens-*.test.tsx): one screen kind
 * rendered from a definition of the test entity (./test-entity.ts) in a data router, against a
 * test double of the DataProvider, with the test texts; and finders by the stable selectors.
 * Each test file mocks `../definitions/client.ts` with `definitionsClientMock` itself (a mock
 * belongs to the file that declares it).
 */
import { beforeEach } from 'vitest';
import { configure, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import type { ScreenDefinition } from '../generated/meta.ts';
import type { ScreenProps } from './types.ts';
import { confirmPrompt, renderWithProviders } from './form/testing.tsx';
import type { DataProvider, StoredRecord } from '../client/data-provider.ts';
import type { PortalAbility } from '../shared/ability.ts';
import { screens } from './test-entity.ts';

/** The texts of the test entity, added to the English bundle. */
export const TEXTS = {
  test: {
    gadget: {
      title: 'Gadget',
      new: 'New gadget',
      edit: 'Edit gadget',
      name: 'Name',
      amount: 'Amount',
      note: 'Note',
      confirm: 'The gadget data is right',
      stepOne: 'Naming',
      stepTwo: 'Counting',
      notFound: 'Nothing found',
      query: 'Number',
      answer: 'Answer',
      page: { title: 'About gadgets', p1: 'First paragraph.', headingMore: 'More', p2: 'Second paragraph.' },
    },
  },
  // The one status of an entity without a machine is labelled in the entity's own texts.
  entity: { gadget: { states: { CREATED: 'Registered' } } },
};

/** A stored record of the test entity (id 7, version 3), with `over` applied. */
export const record = (over: Partial<StoredRecord> = {}): StoredRecord => ({
  id: 7,
  version: 3,
  status: 'CREATED',
  createdAt: '2026-01-02T03:04:05.000000Z',
  updatedAt: '2026-01-02T03:04:05.000000Z',
  name: 'Lamp',
  amount: 2,
  ...over,
});

/** Prints where the router is (`data-testid="where"`): path and query. */
function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

/** What a scripted request receives besides method and path. */
export type Sent = { query?: Record<string, unknown>; body?: unknown };

/** Renders one screen kind at `path` in a data router (leave guards need one). */
export function renderScreen(
  Kind: (p: ScreenProps) => React.ReactNode,
  screen: ScreenDefinition,
  path: string,
  dataProvider: DataProvider,
  ability?: PortalAbility,
) {
  const router = createMemoryRouter(
    [
      {
        path: screen.route,
        element: (
          <>
            <Kind screen={screen} />
            <Where />
          </>
        ),
      },
      { path: '*', element: <Where /> },
    ],
    { initialEntries: [path] },
  );
  const result = renderWithProviders(<RouterProvider router={router} />, { dataProvider, ability });
  result.i18n.addResourceBundle('en', 'translation', TEXTS, true, true);
  return { ...result, router };
}

/** The test entity's screen definition with this id. */
export const screenOf = (id: string) => screens.find((s) => s.id === id) as unknown as ScreenDefinition;
/** The field with this JSON pointer (`data-field`), its input, and an action button (`data-action`). */
export const field = (pointer: string) => document.querySelector<HTMLElement>(`[data-field="${pointer}"]`)!;
export const input = (pointer: string) => field(pointer).querySelector<HTMLInputElement>('input, textarea')!;
export const action = (name: string) => document.querySelector<HTMLButtonElement>(`[data-action="${name}"]`)!;
/** The confirm button of the confirmation prompt, once it is open. */
export const confirmDialog = async () =>
  (await confirmPrompt()).querySelector<HTMLButtonElement>('[data-action="confirm"]')!;

// testing.tsx sets the same; said here too because these helpers wait for Fluent's dialogs:
// under a full, parallel run Fluent's dialogs can take more than the default second to appear.
configure({ asyncUtilTimeout: 20_000 });

// A wizard keeps its input in sessionStorage; each test starts without it.
beforeEach(() => sessionStorage.clear());
