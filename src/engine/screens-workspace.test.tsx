// @vitest-environment happy-dom
/**
 * The staff home (screen kind `workspace`) rendered from the test entity's definitions against a
 * test double of the DataProvider: my work grouped by entity with the state's label, the
 * deadline and the overdue mark, each record linking to its page; the counters as tiles leading
 * to the list (filtered by status) or to my work; recently opened records; quick create for
 * what the user may create; an outer user is sent away; nothing waiting says so.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { waitFor, within } from '@testing-library/react';
import type { ScreenDefinition } from '../generated/meta.ts';
import { createFakeDataProvider } from './form/testing.tsx';
import { renderScreen } from './screens-testing.tsx';
import { setSetting } from '../client/settings.ts';
import { rememberRecord } from '../client/recent.ts';
import { createAbility } from '../shared/ability.ts';
import type { MyWork } from '../client/data-provider.ts';
import WorkspaceScreen from './workspace/WorkspaceScreen.tsx';

const home = {
  id: 'staff-home',
  route: '/home',
  kind: 'workspace',
  titleKey: 'home.title',
  permission: 'signedIn',
  audience: 'staff',
} as ScreenDefinition;

vi.mock('../definitions/client.ts', async () => {
  const mock = (await import('./test-entity.ts')).definitionsClientMock;
  const def = (await import('./test-entity.ts')).def;
  const grid = { ...def.grid, filters: [{ name: 'statusId', kind: 'eq', field: '/status', titleKey: 'x' }] };
  return {
    ...mock,
    screens: [
      ...mock.screens,
      { id: 'staff-home', route: '/home', kind: 'workspace', titleKey: 'home.title', permission: 'signedIn' },
    ],
    loadEntity: async () => ({ ...def, grid }),
    loadCounterRules: async () => ({
      applicationCount: [{ entity: 'gadget', statuses: ['CREATED'] }],
      descendedCount: [{ entity: 'gadget', statuses: ['CREATED'], assignedTo: '/ownerId' }],
    }),
  };
});

const work: MyWork = {
  groups: [
    {
      entity: 'gadget',
      total: 12,
      list: [
        { id: 7, status: 'CREATED', label: 'Lamp', due: '2026-05-01', overdue: true },
        { id: 8, status: 'CREATED', label: null, due: null, overdue: false },
      ],
    },
  ],
};

const provider = (answer: MyWork) =>
  createFakeDataProvider({
    getMyWork: async () => answer,
    getCounters: async () => ({ applicationCount: 3, descendedCount: 2, total: 5 }),
  });

describe('staff home', () => {
  beforeEach(() => {
    localStorage.clear();
    setSetting('accessToken', 'token');
    setSetting('isOuter', false);
    setSetting('userInfo', { id: 1, username: 'ivanov', firstName: 'Anna', lastName: 'Ivanova' });
  });

  it('shows my work per entity with state labels, deadlines and overdue marks, linking each record', async () => {
    rememberRecord({ path: '/gadgets/3', entity: 'gadget', id: 3, label: 'Old lamp' });
    renderScreen(WorkspaceScreen, home, '/home', provider(work));
    await waitFor(() => expect(document.querySelector('[data-work-entity="gadget"]')).toBeTruthy());
    const root = document.querySelector<HTMLElement>('[data-screen="staff-home"]')!;
    expect(within(root).getByRole('heading', { level: 1 }).textContent).toBe('Hello, Anna Ivanova');
    const group = document.querySelector<HTMLElement>('[data-work-entity="gadget"]')!;
    expect(within(group).getByRole('heading', { level: 3 }).textContent).toContain('Gadget');
    expect(group.textContent).toContain('12');
    const first = group.querySelector<HTMLElement>('[data-work-record="7"]')!;
    expect(within(first).getByRole('link', { name: 'Lamp' }).getAttribute('href')).toBe('/gadgets/7');
    expect(first.querySelector('[data-state-label]')!.textContent).toBe('Registered');
    expect(first.textContent).toContain('due 01.05.2026');
    expect(first.querySelector('[data-overdue]')!.textContent).toBe('Overdue');
    const second = group.querySelector<HTMLElement>('[data-work-record="8"]')!;
    expect(within(second).getByRole('link', { name: 'No. 8' })).toBeTruthy();
    expect(second.querySelector('[data-overdue]')).toBeNull();
    // More than shown: a way to the list.
    expect(within(group).getByRole('link', { name: 'All 12 in the list' }).getAttribute('href')).toBe('/gadgets');

    // Counters as tiles: a status queue leads to its filtered list, "assigned to me" to my work.
    await waitFor(() =>
      expect(document.querySelector('[data-counter="applicationCount"] a')?.getAttribute('href')).toBe(
        '/gadgets?statusId=CREATED',
      ),
    );
    expect(document.querySelector('[data-counter="applicationCount"]')!.textContent).toContain('3');
    expect(document.querySelector('[data-counter="descendedCount"] a')!.getAttribute('href')).toBe('/home#my-work');

    const recent = document.querySelector<HTMLElement>('[data-region="recent"]')!;
    expect(within(recent).getByRole('link', { name: 'Old lamp' }).getAttribute('href')).toBe('/gadgets/3');
    expect(document.querySelector('[data-create="gadget"]')!.getAttribute('href')).toBe('/gadgets/new');
  });

  it('offers no quick create the roles do not allow, and says when nothing waits', async () => {
    const reader = createAbility([{ action: 'read', subject: 'Gadget' }]);
    renderScreen(WorkspaceScreen, home, '/home', provider({ groups: [] }), reader);
    await waitFor(() => expect(document.querySelector('[data-region="my-work"]')!.textContent).toContain('Nothing'));
    expect(document.querySelector('[data-region="my-work"]')!.textContent).toContain(
      'Nothing is waiting for you right now.',
    );
    expect(document.querySelector('[data-region="quick-create"]')).toBeNull();
  });

  it('sends an outer user to their own start', async () => {
    setSetting('isOuter', true);
    const { getByTestId } = renderScreen(WorkspaceScreen, home, '/home', provider(work));
    await waitFor(() => expect(getByTestId('where').textContent).toBe('/'));
    expect(document.querySelector('[data-screen="staff-home"]')).toBeNull();
  });
});
