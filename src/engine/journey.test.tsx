// @vitest-environment happy-dom
/**
 * Component tests of the citizen's journey (issue #17): the confirmation page after a public
 * submit (its own address, the reference large, what happens next with the due date, print,
 * the tracking link pre-filled), the lookup opened from that link (it runs by itself and shows
 * the status in plain words) and an applicant's records as cards instead of the staff grid.
 */
import { describe, expect, it, vi } from 'vitest';
import { act, waitFor } from '@testing-library/react';
import type { MachineDefinition, ScreenDefinition } from '../generated/meta.ts';
import { createFakeDataProvider, createScriptedDataProvider } from './form/testing.tsx';
import FormScreen from './form/FormScreen.tsx';
import LookupScreen from './lookup/LookupScreen.tsx';
import CardList from './list/CardList.tsx';
import { def } from './test-entity.ts';
import { renderScreen, screenOf, type Sent } from './screens-testing.tsx';
import { renderWithProviders } from './form/testing.tsx';
import { MemoryRouter } from 'react-router-dom';

const { machine } = vi.hoisted(() => ({
  machine: {
    id: 'gadgetflow',
    initial: 'CREATED',
    states: {
      CREATED: { on: { TAKE: { target: 'WORKING' } } },
      WORKING: { on: { ANSWER: { target: 'DONE' } }, deadline: { field: '/dueOn', event: 'LATE' } },
      DONE: { type: 'final' },
    },
  } as unknown as MachineDefinition,
}));

// The test entity with a status machine (its states' labels and plain sentences are below).
vi.mock('../definitions/client.ts', async () => {
  const mock = (await import('./test-entity.ts')).definitionsClientMock;
  return {
    ...mock,
    manifests: new Map([['gadget', { ...mock.manifests.get('gadget')!, workflow: 'gadgetflow' }]]),
    loadEntity: async () => ({
      ...(await mock.loadEntity()),
      manifest: { ...mock.manifests.get('gadget')!, workflow: 'gadgetflow' },
    }),
    loadMachine: async (id: string | undefined) => (id === 'gadgetflow' ? machine : undefined),
  };
});

const TEXTS = {
  test: {
    journey: {
      sent: 'Your gadget was received',
      review: 'We answer within {{days}} days, by {{date}}.',
      keep: 'Keep {{reference}}.',
      byReference: 'By number',
    },
  },
  workflow: {
    gadgetflow: {
      states: { CREATED: 'Received', WORKING: 'Under review', DONE: 'Answered' },
      plain: {
        CREATED: 'Received on {{since}}; waiting to be taken up.',
        WORKING: 'Under review since {{since}}; answer due by {{deadline}}.',
        DONE: 'Answered on {{since}}.',
      },
    },
  },
};

/** Re-renders with the test texts (i18next re-renders its users on a language change). */
const withTexts = async (i18n: {
  addResourceBundle: (...a: never[]) => unknown;
  changeLanguage: (l: string) => unknown;
}) =>
  act(async () => {
    (i18n.addResourceBundle as (l: string, ns: string, r: unknown, d: boolean, o: boolean) => void)(
      'en',
      'translation',
      TEXTS,
      true,
      true,
    );
    await i18n.changeLanguage('en');
  });

describe('confirmation page', () => {
  const form = {
    ...screenOf('gadget-new'),
    options: {
      submit: {
        endpoint: '/api/gadget/send',
        doneKey: 'test.journey.sent',
        confirmation: {
          nextKeys: ['test.journey.review', 'test.journey.keep'],
          days: 15,
          track: { screen: 'gadget-list', tab: 'reference', contact: { name: '/name' } },
        },
      },
    },
  } as unknown as ScreenDefinition;

  it('lives at the form’s address with ?sent=, so a reload shows the reference, the due date, print and the links', async () => {
    sessionStorage.setItem(
      'submitted:G-2026-000007',
      JSON.stringify({ tab: 'reference', reference: 'G-2026-000007', name: 'Lamp' }),
    );
    const print = vi.fn();
    window.print = print;
    const { i18n, user } = renderScreen(
      FormScreen,
      form,
      '/gadgets/new?sent=G-2026-000007&on=2026-11-26T10:00:00.000Z',
      createFakeDataProvider(),
    );
    await withTexts(i18n as never);
    await waitFor(() => expect(document.querySelector('[data-reference-number]')?.textContent).toBe('G-2026-000007'));
    expect(document.querySelector('h1')!.textContent).toBe('Your gadget was received');
    expect(document.querySelector('[data-region="next-steps"]')!.textContent).toContain(
      'We answer within 15 days, by 11.12.2026.Keep G-2026-000007.',
    );
    expect(document.querySelector('[data-region="confirmation-panel"]')!.textContent).toContain('26.11.2026');
    const track = document.querySelector<HTMLAnchorElement>('[data-action="track"]')!;
    expect(track.getAttribute('href')).toBe('/gadgets?tab=reference&reference=G-2026-000007&name=Lamp&run=1');
    expect(document.querySelector('[data-action="another"]')!.getAttribute('href')).toBe('/gadgets/new');
    // The form itself is not shown.
    expect(document.querySelector('[data-action="save"]')).toBeNull();
    await user.click(document.querySelector<HTMLButtonElement>('[data-action="print"]')!);
    expect(print).toHaveBeenCalledOnce();
    // On paper the shell and the buttons are hidden.
    expect(document.querySelector('[data-region="confirmation"] style')!.textContent).toMatch(
      /@media print[\s\S]*\[data-region="header"\]/,
    );
  });

  it('sends the form, then moves to its confirmation address and remembers the tracking values for this tab', async () => {
    const submitPublic = vi.fn(async () => ({
      id: 7,
      referenceNumber: 'G-2026-000008',
      createdAt: '2026-11-26T10:00:00.000Z',
    }));
    const { user, router } = renderScreen(
      FormScreen,
      form,
      '/gadgets/new',
      createFakeDataProvider({ submitPublic, getEmpty: vi.fn(async () => ({})) } as never),
    );
    await waitFor(() => expect(document.querySelector('[data-field="/name"] input')).toBeTruthy());
    await user.type(document.querySelector<HTMLInputElement>('[data-field="/name"] input')!, 'Desk');
    await user.type(document.querySelector<HTMLInputElement>('[data-field="/amount"] input')!, '2');
    await user.click(document.querySelector<HTMLButtonElement>('[data-action="save"]')!);
    const yes = await waitFor(() => {
      const b = document.querySelector<HTMLButtonElement>('[role="dialog"] [data-action="confirm"]');
      if (!b) throw new Error('no prompt');
      return b;
    });
    await user.click(yes);
    await waitFor(() =>
      expect(router.state.location.search).toBe('?sent=G-2026-000008&on=2026-11-26T10%3A00%3A00.000Z'),
    );
    expect(JSON.parse(sessionStorage.getItem('submitted:G-2026-000008')!)).toEqual({
      tab: 'reference',
      reference: 'G-2026-000008',
      name: 'Desk',
    });
    await waitFor(() => expect(document.querySelector('[data-reference-number]')?.textContent).toBe('G-2026-000008'));
  });
});

describe('tracking lookup opened from a link', () => {
  const lookup = {
    id: 'gadget-track',
    route: '/gadget-track',
    kind: 'lookup',
    entity: 'gadget',
    titleKey: 'test.gadget.title',
    permission: 'public',
    options: {
      endpoint: '/api/gadget/by-phone',
      query: { type: 'object', properties: {} },
      result: [],
      tabs: [
        {
          id: 'phone',
          titleKey: 'test.gadget.query',
          query: { type: 'object', properties: { phone: { type: 'string', title: 'test.gadget.query' } } },
        },
        {
          id: 'reference',
          titleKey: 'test.journey.byReference',
          endpoint: '/api/gadget/status',
          method: 'GET',
          query: {
            type: 'object',
            required: ['reference'],
            properties: {
              reference: { type: 'string', title: 'test.gadget.query' },
              name: { type: 'string', title: 'test.gadget.name' },
            },
          },
          statusPanel: { status: '/status', changedAt: '/changedAt', deadline: '/deadline' },
          emptyKey: 'test.gadget.notFound',
        },
      ],
    },
  } as unknown as ScreenDefinition;

  it('opens the tab, fills it in, runs once and shows the status label, the plain sentence and the date of the last change', async () => {
    const call = vi.fn(async (_m: string, _p: string, _o: Sent) => ({
      list: [{ status: 'WORKING', changedAt: '2026-11-27T06:00:00.000Z', deadline: '2026-12-12' }],
    }));
    const { i18n } = renderScreen(
      LookupScreen,
      lookup,
      '/gadget-track?tab=reference&reference=G-2026-000007&name=Lamp&other=x&run=1',
      createScriptedDataProvider(call),
    );
    await withTexts(i18n as never);
    await waitFor(() => expect(document.querySelector('[data-region="tracked-status"]')).toBeTruthy());
    expect(call).toHaveBeenCalledOnce();
    expect(call).toHaveBeenCalledWith('GET', '/api/gadget/status', {
      query: { reference: 'G-2026-000007', name: 'Lamp' },
    });
    expect(document.querySelector('[data-region="status-label"]')!.textContent).toBe('Under review');
    expect(document.querySelector('[data-region="status-plain"]')!.textContent).toBe(
      'Under review since 27.11.2026; answer due by 12.12.2026.',
    );
    expect(document.querySelector('[data-region="status-changed"]')!.textContent).toContain('27.11.2026');
  });

  it('without run=1 only fills the form in: the visitor adds what is missing and searches', async () => {
    const call = vi.fn(async () => ({ list: [] }));
    renderScreen(
      LookupScreen,
      lookup,
      '/gadget-track?tab=reference&reference=G-2026-000007',
      createScriptedDataProvider(call),
    );
    await waitFor(() =>
      expect(document.querySelector<HTMLInputElement>('[data-field="/reference"] input')?.value).toBe('G-2026-000007'),
    );
    expect(document.querySelector('[data-tab="reference"]')!.getAttribute('aria-selected')).toBe('true');
    await new Promise((r) => setTimeout(r, 50));
    expect(call).not.toHaveBeenCalled();
  });
});

describe('cards presentation', () => {
  const screen = {
    id: 'my-gadgets',
    route: '/cabinet/gadgets',
    kind: 'list',
    entity: 'gadget',
    titleKey: 'test.gadget.title',
    permission: 'read Gadget',
    options: {
      presentation: 'cards',
      card: {
        titleField: '/name',
        filters: ['keyword', 'statusId'],
        referencesEndpoint: '/api/public-submit/gadget/references',
      },
    },
  } as unknown as ScreenDefinition;
  const grid = {
    columns: [],
    defaultSort: [{ field: '/createdAt', desc: true }],
    filters: [
      { name: 'keyword', kind: 'keyword', titleKey: 'k' },
      { name: 'statusId', kind: 'eq', field: '/status', titleKey: 's' },
      { name: 'regionId', kind: 'eq', field: '/regionId', titleKey: 'r' },
    ],
  };
  const rows = [
    {
      id: 7,
      version: 1,
      status: 'WORKING',
      createdAt: '2026-11-20T10:00:00.000Z',
      updatedAt: '2026-11-21T10:00:00.000Z',
      name: 'Lamp',
      dueOn: '2026-12-06',
    },
    {
      id: 8,
      version: 1,
      status: 'DONE',
      createdAt: '2026-11-22T10:00:00.000Z',
      updatedAt: '2026-11-25T10:00:00.000Z',
      name: 'Desk',
    },
  ];

  it('shows each record as a card — reference, title, sent date, status label, next step — with only a keyword and a status filter', async () => {
    const getList = vi.fn(async () => ({ list: rows, total: 2 }));
    const lookupCall = vi.fn(async () => ({ list: [{ id: 7, referenceNumber: 'G-2026-000007' }] }));
    const { i18n, user } = renderWithProviders(
      <MemoryRouter initialEntries={['/cabinet/gadgets']}>
        <CardList screen={screen} def={{ ...def, grid } as never} machine={machine} />
      </MemoryRouter>,
      { dataProvider: createFakeDataProvider({ getList, lookup: lookupCall }) },
    );
    await withTexts(i18n as never);
    await waitFor(() => expect(document.querySelectorAll('[data-card]')).toHaveLength(2));
    const [lamp, desk] = [...document.querySelectorAll('[data-card]')];
    await waitFor(() =>
      expect(lamp!.querySelector('[data-region="card-reference"]')!.textContent).toBe('G-2026-000007'),
    );
    expect(lookupCall).toHaveBeenCalledWith(
      { endpoint: '/api/public-submit/gadget/references', method: 'GET' },
      { ids: '7,8' },
    );
    expect(desk!.querySelector('[data-region="card-reference"]')!.textContent).toBe('№ 8');
    expect(lamp!.querySelector('h2')!.textContent).toBe('Lamp');
    expect(lamp!.querySelector('[data-region="card-status"]')!.textContent).toBe('Under review');
    expect(lamp!.querySelector('[data-region="card-next"]')!.textContent).toBe(
      'Under review since 21.11.2026; answer due by 06.12.2026.',
    );
    expect(lamp!.querySelector('[data-region="card-sent"]')!.textContent).toContain('20.11.2026');
    expect(desk!.querySelector('[data-region="card-next"]')!.textContent).toBe('Answered on 25.11.2026.');
    // No grid, no export, no other filters.
    expect(document.querySelector('.ag-root, [data-action="export"], [data-filter="regionId"]')).toBeNull();
    expect([...document.querySelectorAll('[data-filter]')].map((x) => x.getAttribute('data-filter'))).toEqual([
      'keyword',
      'statusId',
    ]);
    await user.selectOptions(document.querySelector('select[data-filter="statusId"]')!, 'DONE');
    await waitFor(() =>
      expect(getList).toHaveBeenLastCalledWith('gadget', expect.objectContaining({ filters: { statusId: 'DONE' } })),
    );
  });
});
