// @vitest-environment happy-dom
/**
 * Component tests of the screen kinds the shell routes to — form, wizard, detail, lookup and
 * page — each rendered from a definition of a test entity, in a data router, against a test
 * double of the DataProvider (lookups: a scripted server under the real provider).
 */
import { describe, expect, it, vi, beforeEach } from 'vitest';
import { act, configure, screen as dom, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import type { ScreenDefinition } from '../generated/meta.ts';
import type { ScreenProps } from './types.ts';
import { confirmPrompt, createFakeDataProvider, createScriptedDataProvider, renderWithProviders } from './form/testing.tsx';
import { HttpError } from '../client/http.ts';
import type { DataProvider, StoredRecord } from '../client/data-provider.ts';
import FormScreen from './form/FormScreen.tsx';
import WizardScreen from './wizard/WizardScreen.tsx';
import DetailScreen from './detail/DetailScreen.tsx';
import LookupScreen from './lookup/LookupScreen.tsx';
import PageScreen from './page/PageScreen.tsx';
import { abilityOfRoles, type PortalAbility } from '../shared/ability.ts';

const fx = vi.hoisted(() => {
  const schema = {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'amount'],
    properties: {
      name: { type: 'string', title: 'test.gadget.name', maxLength: 50 },
      amount: { type: 'integer', title: 'test.gadget.amount', minimum: 1 },
      note: { type: 'string', title: 'test.gadget.note' },
    },
  };
  const ui = { uiSchema: {}, wizard: { confirmKey: 'test.gadget.confirm', steps: [{ id: 'one', titleKey: 'test.gadget.stepOne', fields: ['/name'] }, { id: 'two', titleKey: 'test.gadget.stepTwo', fields: ['/amount', '/note'] }] } };
  const manifest = { id: 'gadget', base: '/gadget', titleKey: 'test.gadget.title', subject: 'Gadget', schema: 'schema.json', ui: 'ui.json', grid: 'grid.json', edit: 'edit.json', description: 'd', drafts: true, labelField: '/name', unique: ['/name'] };
  const screens = [
    { id: 'gadget-list', route: '/gadgets', kind: 'list', entity: 'gadget', titleKey: 'test.gadget.title', permission: 'read Gadget' },
    { id: 'gadget-new', route: '/gadgets/new', kind: 'form', entity: 'gadget', titleKey: 'test.gadget.new', permission: 'create Gadget', options: { drafts: true } },
    { id: 'gadget-detail', route: '/gadgets/:id', kind: 'detail', entity: 'gadget', titleKey: 'test.gadget.title', permission: 'read Gadget' },
    { id: 'gadget-edit', route: '/gadgets/:id/edit', kind: 'form', entity: 'gadget', titleKey: 'test.gadget.edit', permission: 'update Gadget' },
  ];
  return { schema, ui, manifest, screens, def: { id: 'gadget', manifest, schema, ui, grid: { columns: [], defaultSort: [], filters: [] }, edit: { description: 'd', states: { '*': { update: [{ who: 'any', fields: 'all' }], delete: 'any' } } }, dir: '' } };
});

vi.mock('../definitions/client.ts', () => ({
  manifests: new Map([['gadget', fx.manifest]]),
  screens: fx.screens,
  loadEntity: async () => fx.def,
  loadUi: async () => fx.ui,
  loadMachine: async () => undefined,
}));

const TEXTS = {
  test: {
    gadget: {
      title: 'Gadget', new: 'New gadget', edit: 'Edit gadget', name: 'Name', amount: 'Amount', note: 'Note',
      confirm: 'The gadget data is right', stepOne: 'Naming', stepTwo: 'Counting', notFound: 'Nothing found',
      query: 'Number', answer: 'Answer', page: { title: 'About gadgets', p1: 'First paragraph.', headingMore: 'More', p2: 'Second paragraph.' },
    },
  },
};

const record = (over: Partial<StoredRecord> = {}): StoredRecord => ({ id: 7, version: 3, status: 'CREATED', createdAt: '2026-01-02T03:04:05.000000Z', updatedAt: '2026-01-02T03:04:05.000000Z', name: 'Lamp', amount: 2, ...over });

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

/** Renders one screen kind at `path` in a data router (leave guards need one). */
/** What a scripted request receives besides method and path. */
type Sent = { query?: Record<string, unknown>; body?: unknown };

function renderScreen(Kind: (p: ScreenProps) => React.ReactNode, screen: ScreenDefinition, path: string, dataProvider: DataProvider, ability?: PortalAbility) {
  const router = createMemoryRouter([
    { path: screen.route, element: <><Kind screen={screen} /><Where /></> },
    { path: '*', element: <Where /> },
  ], { initialEntries: [path] });
  const result = renderWithProviders(<RouterProvider router={router} />, { dataProvider, ability });
  result.i18n.addResourceBundle('en', 'translation', TEXTS, true, true);
  return { ...result, router };
}

const screenOf = (id: string) => fx.screens.find((s) => s.id === id) as unknown as ScreenDefinition;
const field = (pointer: string) => document.querySelector<HTMLElement>(`[data-field="${pointer}"]`)!;
const input = (pointer: string) => field(pointer).querySelector<HTMLInputElement>('input, textarea')!;
const action = (name: string) => document.querySelector<HTMLButtonElement>(`[data-action="${name}"]`)!;
const confirmDialog = async () => within(await confirmPrompt()).getByText('Yes');

// Under a full, parallel run Fluent's dialogs can take more than the default second to appear.
configure({ asyncUtilTimeout: 20_000 });

beforeEach(() => sessionStorage.clear());

describe('form screen', () => {
  it('creates a record: refuses while required fields are empty, confirms, saves, opens the record', async () => {
    const create = vi.fn(async (_e: string, data: Record<string, unknown>) => record({ id: 11, ...data }));
    const dp = createFakeDataProvider({ getEmpty: async () => ({ note: 'default note' }), create });
    const { user } = renderScreen(FormScreen, screenOf('gadget-new'), '/gadgets/new', dp);
    await waitFor(() => expect(field('/name')).toBeTruthy());
    expect(document.querySelector('[data-screen="gadget-new"][data-entity="gadget"]')).toBeTruthy();
    expect(input('/note').value).toBe('default note');

    await user.click(action('save'));
    await waitFor(() => expect(field('/name').textContent).toContain('Mandatory field'));
    expect(create).not.toHaveBeenCalled();

    await user.type(input('/name'), 'Kettle');
    await user.type(input('/amount'), '3');
    await new Promise((r) => setTimeout(r, 3100)); // the save button is locked for 3 s after a click
    await user.click(action('save'));
    await user.click(await confirmDialog());
    await waitFor(() => expect(create).toHaveBeenCalledWith('gadget', { name: 'Kettle', amount: 3, note: 'default note' }));
    await waitFor(() => expect(dom.getByTestId('where').textContent).toBe('/gadgets/11'));
  }, 15_000);

  it('puts the field errors of a 400 on their fields', async () => {
    const create = vi.fn(async () => {
      throw new HttpError(400, { message: 'Please fill all required (*) fields correctly', fieldErrors: { '/name': 'Name: this value is already registered' } }, 'bad');
    });
    const dp = createFakeDataProvider({ getEmpty: async () => ({ name: 'Dup', amount: 1 }), create });
    const { user } = renderScreen(FormScreen, screenOf('gadget-new'), '/gadgets/new', dp);
    await waitFor(() => expect(input('/name').value).toBe('Dup'));
    await user.click(action('save'));
    await user.click(await confirmDialog());
    await waitFor(() => expect(field('/name').textContent).toContain('Name: this value is already registered'));
    expect(dom.getByTestId('where').textContent).toBe('/gadgets/new');
  });

  it('checks a unique field with the server while typing', async () => {
    const findBy = vi.fn(async (_e: string, _f: string, value: string) => (value === 'Taken' ? record({ id: 99, name: 'Taken' }) : null));
    const dp = createFakeDataProvider({ getEmpty: async () => ({}), findBy });
    const { user } = renderScreen(FormScreen, screenOf('gadget-new'), '/gadgets/new', dp);
    await waitFor(() => expect(field('/name')).toBeTruthy());
    await user.type(input('/name'), 'Taken');
    await waitFor(() => expect(findBy).toHaveBeenCalled(), { timeout: 3000 });
    await waitFor(() => expect(field('/name').textContent).toContain('Name: this value is already registered'), { timeout: 3000 });
    expect(findBy).toHaveBeenLastCalledWith('gadget', '/name', 'Taken');
    await user.type(input('/name'), '2');
    await waitFor(() => expect(field('/name').textContent).not.toContain('already registered'));
  });

  it('edits a record with the version it read', async () => {
    const update = vi.fn(async (_e: string, _id: number, data: Record<string, unknown>) => record(data));
    const dp = createFakeDataProvider({ getOne: async () => record(), update });
    const { user } = renderScreen(FormScreen, screenOf('gadget-edit'), '/gadgets/7/edit', dp);
    await waitFor(() => expect(input('/name').value).toBe('Lamp'));
    await user.clear(input('/name'));
    await user.type(input('/name'), 'Desk lamp');
    await user.click(action('save'));
    await user.click(await confirmDialog());
    await waitFor(() => expect(update).toHaveBeenCalledWith('gadget', 7, { name: 'Desk lamp', amount: 2, version: 3 }));
    expect(action('save-draft')).toBeNull();
  });

  it('keeps unfinished input as a draft with a private link', async () => {
    const saveDraft = vi.fn(async (_e: string, _id: string | undefined, data: Record<string, unknown>) => ({ id: 'd6f1c1f2-1111-4aaa-8bbb-000000000001', data, updatedAt: '' }));
    const dp = createFakeDataProvider({ getEmpty: async () => ({}), saveDraft });
    const { user } = renderScreen(FormScreen, screenOf('gadget-new'), '/gadgets/new', dp);
    await waitFor(() => expect(field('/name')).toBeTruthy());
    await user.type(input('/note'), 'half done');
    await user.click(action('save-draft'));
    await waitFor(() => expect(saveDraft).toHaveBeenCalledWith('gadget', undefined, { note: 'half done' }));
    await waitFor(() => expect(dom.getByTestId('where').textContent).toBe('/gadgets/new?draft=d6f1c1f2-1111-4aaa-8bbb-000000000001'));
  });
});

describe('wizard screen', () => {
  it('validates each step, keeps input across a reload and asks for confirmation before sending', async () => {
    const screen = { ...screenOf('gadget-new'), kind: 'wizard' } as ScreenDefinition;
    const create = vi.fn(async (_e: string, data: Record<string, unknown>) => record({ id: 12, ...data }));
    const dp = createFakeDataProvider({ getEmpty: async () => ({}), create });
    const first = renderScreen(WizardScreen, screen, '/gadgets/new', dp);
    await waitFor(() => expect(field('/name')).toBeTruthy());
    expect(field('/amount')).toBeNull();
    await first.user.click(action('next'));
    await waitFor(() => expect(field('/name').textContent).toContain('Mandatory field'));
    expect(document.querySelector('[data-step="0"]')).toBeTruthy();
    await first.user.type(input('/name'), 'Fan');
    await first.user.click(action('next'));
    await waitFor(() => expect(field('/amount')).toBeTruthy());
    expect(JSON.parse(sessionStorage.getItem('portal.wizard.gadget-new.new')!)).toEqual({ step: 1, data: { name: 'Fan' } });
    first.unmount();

    // "Reload": the same tab comes back to the same step with the same input.
    const second = renderScreen(WizardScreen, screen, '/gadgets/new', dp);
    await waitFor(() => expect(field('/amount')).toBeTruthy());
    await second.user.type(input('/amount'), '5');
    expect(action('save').disabled).toBe(true);
    await second.user.click(within(field('/__confirm')).getByRole('checkbox'));
    expect(dom.getByText('The gadget data is right')).toBeTruthy();
    await second.user.click(action('save'));
    await second.user.click(await confirmDialog());
    await waitFor(() => expect(create).toHaveBeenCalledWith('gadget', { name: 'Fan', amount: 5 }));
    await waitFor(() => expect(sessionStorage.getItem('portal.wizard.gadget-new.new')).toBeNull());
  });
});

describe('detail screen', () => {
  it('shows the record read-only with its status and history, and deletes after confirmation', async () => {
    const remove = vi.fn(async () => undefined);
    const dp = createFakeDataProvider({
      getOne: async () => record(),
      getAudit: async () => [{ id: 1, at: '2026-01-02T03:04:05.000Z', actor: null, action: 'update', changed: ['name'] }],
      delete: remove,
    });
    const { user } = renderScreen(DetailScreen, screenOf('gadget-detail'), '/gadgets/7', dp);
    await waitFor(() => expect(document.querySelector('[data-record="7"]')).toBeTruthy());
    expect(dom.getByRole('heading', { level: 1 }).textContent).toBe('Gadget № 7 — Lamp');
    expect(document.querySelector('[data-status="CREATED"]')).toBeTruthy();
    expect(input('/name').readOnly).toBe(true);
    expect(document.querySelector('a[href="/gadgets/7/edit"] [data-action="edit"]')).toBeTruthy();

    await user.click(document.querySelector<HTMLElement>('[data-tab="history"]')!);
    await waitFor(() => expect(document.querySelector('[data-audit="update"]')?.textContent).toContain('Name'));
    expect(document.querySelector('[data-audit="update"]')!.textContent).toContain('02.01.2026 08:04');

    await user.click(action('delete'));
    await user.click(await confirmDialog());
    await waitFor(() => expect(remove).toHaveBeenCalledWith('gadget', 7, 3));
    await waitFor(() => expect(dom.getByTestId('where').textContent).toBe('/gadgets'));
  });
});

describe('the history tab', () => {
  it('shows each change as field: old → new, a save without changes, and shortens long values', async () => {
    const at = '2026-01-02T03:04:05.000Z';
    const dp = createFakeDataProvider({
      getOne: async () => record(),
      getAudit: async () => [
        { id: 3, at, actor: '1', action: 'transition', changed: ['status'], diff: [{ pointer: '/status', old: 'CREATED', new: 'DONE' }] },
        { id: 2, at, actor: '1', action: 'update', changed: ['name', 'note'], diff: [{ pointer: '/name', old: 'Lamp', new: 'Fan' }, { pointer: '/note', old: 'x'.repeat(10_000), truncated: ['old'] }] },
        { id: 1, at, actor: null, action: 'update', changed: [], diff: [] },
      ],
    });
    const { user } = renderScreen(DetailScreen, screenOf('gadget-detail'), '/gadgets/7', dp);
    await waitFor(() => expect(document.querySelector('[data-record="7"]')).toBeTruthy());
    await user.click(document.querySelector<HTMLElement>('[data-tab="history"]')!);
    await waitFor(() => expect(document.querySelector('[data-change="/name"]')?.textContent).toBe('Name: Lamp → Fan'));
    expect(document.querySelector('[data-change="/status"]')!.textContent).toMatch(/^Status: .+ → .+$/);
    const note = document.querySelector('[data-change="/note"]')!.textContent!;
    expect(note).toMatch(/^Note: x+… → —$/);
    expect(note.length).toBeLessThan(300);
    expect(document.querySelectorAll('[data-audit="update"]')[1]!.textContent).toContain('Saved without changes');
  });
});

describe('what the user may not use is not offered', () => {
  it('hides edit and delete from a user who may only read, and creating needs no field rules', async () => {
    const reader = abilityOfRoles([{ permissions: ['read Gadget'] }]).ability;
    renderScreen(DetailScreen, screenOf('gadget-detail'), '/gadgets/7', createFakeDataProvider({ getOne: async () => record(), getAudit: async () => [] }), reader);
    await waitFor(() => expect(document.querySelector('[data-record="7"]')).toBeTruthy());
    expect(action('edit')).toBeNull();
    expect(action('delete')).toBeNull();
  });

  it('shows the fields a role may read but not change read-only when editing, and sends them unchanged', async () => {
    const editor = abilityOfRoles([{ permissions: ['read Gadget', 'update Gadget'], readOnlyFields: [{ subject: 'Gadget', fields: ['/amount'] }] }]).ability;
    const update = vi.fn(async (_e: string, _id: number, data: Record<string, unknown>) => record(data));
    const { user } = renderScreen(FormScreen, screenOf('gadget-edit'), '/gadgets/7/edit', createFakeDataProvider({ getOne: async () => record(), update }), editor);
    await waitFor(() => expect(input('/name').value).toBe('Lamp'));
    expect(input('/amount').readOnly).toBe(true);
    expect(input('/name').readOnly).toBe(false);
    await user.type(input('/name'), ' 2');
    await user.click(action('save'));
    await user.click(await confirmDialog());
    await waitFor(() => expect(update).toHaveBeenCalledWith('gadget', 7, { name: 'Lamp 2', amount: 2, version: 3 }));
  });

  it('keeps read-only fields read-only through the steps of an edit wizard', async () => {
    const editor = abilityOfRoles([{ permissions: ['read Gadget', 'update Gadget'], readOnlyFields: [{ subject: 'Gadget', fields: ['/amount'] }] }]).ability;
    const update = vi.fn(async (_e: string, _id: number, data: Record<string, unknown>) => record(data));
    const screen = { ...screenOf('gadget-edit'), kind: 'wizard' } as ScreenDefinition;
    const { user } = renderScreen(WizardScreen, screen, '/gadgets/7/edit', createFakeDataProvider({ getOne: async () => record(), update }), editor);
    await waitFor(() => expect(input('/name').value).toBe('Lamp'));
    await user.type(input('/name'), 's');
    await user.click(action('next'));
    await waitFor(() => expect(field('/amount')).toBeTruthy());
    expect(input('/amount').readOnly).toBe(true);
    await user.click(within(field('/__confirm')).getByRole('checkbox'));
    await user.click(action('save'));
    await user.click(await confirmDialog());
    await waitFor(() => expect(update).toHaveBeenCalledWith('gadget', 7, { name: 'Lamps', amount: 2, version: 3 }));
  });
});

describe('the record\'s edit rules in its status (GET /rights/{id})', () => {
  const editor = abilityOfRoles([{ permissions: ['read Gadget', 'update Gadget', 'delete Gadget'] }]).ability;

  it('hides edit and delete on the record page when the rules allow neither now', async () => {
    const getRights = vi.fn(async () => ({ update: false, delete: false, readOnly: ['/amount', '/name', '/note'] }));
    renderScreen(DetailScreen, screenOf('gadget-detail'), '/gadgets/7', createFakeDataProvider({ getOne: async () => record(), getAudit: async () => [], getRights }), editor);
    await waitFor(() => expect(getRights).toHaveBeenCalledWith('gadget', 7));
    await waitFor(() => expect(document.querySelector('[data-record="7"]')).toBeTruthy());
    expect(action('edit')).toBeNull();
    expect(action('delete')).toBeNull();
  });

  it('marks the fields the rules keep read-only when editing', async () => {
    const update = vi.fn(async (_e: string, _id: number, data: Record<string, unknown>) => record(data));
    const getRights = vi.fn(async () => ({ update: true, delete: false, readOnly: ['/name'] }));
    const { user } = renderScreen(FormScreen, screenOf('gadget-edit'), '/gadgets/7/edit', createFakeDataProvider({ getOne: async () => record(), update, getRights }), editor);
    await waitFor(() => expect(input('/name').value).toBe('Lamp'));
    expect(input('/name').readOnly).toBe(true);
    expect(input('/amount').readOnly).toBe(false);
    await user.clear(input('/amount'));
    await user.type(input('/amount'), '5');
    await user.click(action('save'));
    await user.click(await confirmDialog());
    await waitFor(() => expect(update).toHaveBeenCalledWith('gadget', 7, { name: 'Lamp', amount: 5, version: 3 }));
  });

  it('shows a closed record\'s edit screen as a notice with the way to its page, not a form', async () => {
    const getRights = vi.fn(async () => ({ update: false, delete: false, readOnly: ['/amount', '/name', '/note'] }));
    renderScreen(FormScreen, screenOf('gadget-edit'), '/gadgets/7/edit', createFakeDataProvider({ getOne: async () => record(), getRights }), editor);
    const notice = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('[data-region="locked"]');
      if (!el) throw new Error('no notice');
      return el;
    });
    expect(notice.textContent).toContain('This record cannot be changed now');
    expect(notice.querySelector('a[data-action="open-record"]')!.getAttribute('href')).toBe('/gadgets/7');
    expect(document.querySelector('[data-field="/name"]')).toBeNull();
  });
});

describe('fields a role may not read (hiddenFields)', () => {
  // `amount` is required by the schema; the server sends the record without it to this user.
  const owner = abilityOfRoles([{ permissions: ['read Gadget', 'update Gadget'], hiddenFields: [{ subject: 'Gadget', fields: ['/amount'] }] }]).ability;
  const seen = () => { const { amount, ...rest } = record({ note: 'n' }); void amount; return rest as StoredRecord; };

  it('leaves them out of the detail screen', async () => {
    renderScreen(DetailScreen, screenOf('gadget-detail'), '/gadgets/7', createFakeDataProvider({ getOne: async () => seen(), getAudit: async () => [] }), owner);
    await waitFor(() => expect(field('/name')).toBeTruthy());
    expect(field('/amount').hidden).toBe(true);
    expect(field('/note').hidden).toBe(false);
  });

  it('leaves them out of the edit form, which saves without insisting on them', async () => {
    const update = vi.fn(async (_e: string, _id: number, data: Record<string, unknown>) => record(data));
    const { user } = renderScreen(FormScreen, screenOf('gadget-edit'), '/gadgets/7/edit', createFakeDataProvider({ getOne: async () => seen(), update }), owner);
    await waitFor(() => expect(input('/name').value).toBe('Lamp'));
    expect(field('/amount').hidden).toBe(true);
    await user.type(input('/name'), ' 2');
    await user.click(action('save'));
    await user.click(await confirmDialog());
    await waitFor(() => expect(update).toHaveBeenCalledWith('gadget', 7, { name: 'Lamp 2', note: 'n', version: 3 }));
  });
});

describe('lookup screen', () => {
  const lookup = {
    id: 'gadget-lookup', route: '/gadget-lookup', kind: 'lookup', titleKey: 'test.gadget.title', permission: 'public',
    options: {
      endpoint: '/api/gadget/lookup', method: 'GET', emptyKey: 'test.gadget.notFound',
      query: { type: 'object', required: ['number'], properties: { number: { type: 'string', title: 'test.gadget.query', pattern: '^[0-9]+[-/][0-9]+$' } } },
      result: [{ field: '/answer', titleKey: 'test.gadget.answer' }, { field: '/price', titleKey: 'test.gadget.amount', format: 'money' }],
    },
  } as unknown as ScreenDefinition;

  it('validates the query, calls the endpoint and shows the answer or the empty message', async () => {
    const call = vi.fn(async (_m: string, _p: string, options: Sent) => (options.query?.number === '1-2' ? { answer: 'Found it', price: 1234567 } : null));
    const { user } = renderScreen(LookupScreen, lookup, '/gadget-lookup', createScriptedDataProvider(call));
    await waitFor(() => expect(field('/number')).toBeTruthy());
    await user.type(input('/number'), '12');
    await user.click(action('search'));
    await waitFor(() => expect(field('/number').textContent).toContain('Invalid format'));
    expect(call).not.toHaveBeenCalled();
    await user.clear(input('/number'));
    await user.type(input('/number'), '1-2');
    await new Promise((r) => setTimeout(r, 1100));
    await user.click(action('search'));
    await waitFor(() => expect(document.querySelector('[data-result-field="/answer"]')?.textContent).toContain('Found it'));
    expect(call).toHaveBeenCalledWith('GET', '/api/gadget/lookup', { query: { number: '1-2' } });
    expect(document.querySelector('[data-result-field="/price"]')!.textContent).toContain('1 234 567');
    await user.clear(input('/number'));
    await user.type(input('/number'), '3-4');
    await new Promise((r) => setTimeout(r, 1100));
    await user.click(action('search'));
    await waitFor(() => expect(document.querySelector('[data-region="result"]')!.textContent).toContain('Nothing found'));
  }, 15_000);

  it('tabs of query forms; a found or empty answer in a modal; a 400 puts its message on the field', async () => {
    const tabbed = {
      ...lookup,
      options: {
        endpoint: '/api/gadget/check', emptyKey: 'test.gadget.notFound', emptyModal: true, foundKey: 'test.gadget.answer', result: [],
        tabs: [
          { id: 'a', titleKey: 'test.gadget.name', query: { type: 'object', required: ['name'], properties: { name: { type: 'string', title: 'test.gadget.name' } } } },
          { id: 'b', titleKey: 'test.gadget.note', query: { type: 'object', required: ['note'], properties: { note: { type: 'string', title: 'test.gadget.note' } } } },
        ],
      },
    } as unknown as ScreenDefinition;
    const call = vi.fn(async (_m: string, _p: string, { query: params = {} }: Sent) => {
      if (params.note === 'bad') throw new HttpError(400, { message: 'Invalid', fieldErrors: { '/note': 'Refused by the server' } }, 'Invalid');
      return { count: params.name === 'yes' ? 1 : 0 };
    });
    const { user } = renderScreen(LookupScreen, tabbed, '/gadget-lookup', createScriptedDataProvider(call));
    await waitFor(() => expect(field('/name')).toBeTruthy());
    await user.type(input('/name'), 'yes');
    await user.click(action('search'));
    expect(within(await dom.findByRole('dialog')).getByText('Answer')).toBeTruthy();
    await user.click(within(dom.getByRole('dialog')).getByText('Close'));
    await waitFor(() => expect(dom.queryByRole('dialog')).toBeNull());
    await user.click(document.querySelector<HTMLElement>('[data-tab="b"]')!);
    await waitFor(() => expect(field('/note')).toBeTruthy());
    expect(document.querySelector('[data-field="/name"]')).toBeNull();
    await user.type(input('/note'), 'bad');
    await new Promise((r) => setTimeout(r, 1100));
    await user.click(action('search'));
    await waitFor(() => expect(field('/note').textContent).toContain('Refused by the server'));
    expect(call).toHaveBeenLastCalledWith('GET', '/api/gadget/check', { query: { note: 'bad' } });
    await user.clear(input('/note'));
    await user.type(input('/note'), 'fine');
    await new Promise((r) => setTimeout(r, 1100));
    await user.click(action('search'));
    expect(within(await dom.findByRole('dialog')).getByText('Nothing found')).toBeTruthy();
  }, 15_000);
});

describe('lookup tabs that replace options', () => {
  it('opens on initialTab; a tab may bring its own endpoint, method, query sending and result fields', async () => {
    const screen = {
      id: 'gadget-lookup', route: '/gadget-lookup', kind: 'lookup', titleKey: 'test.gadget.title', permission: 'public',
      options: {
        endpoint: '/api/gadget/lookup', method: 'GET', emptyKey: 'test.gadget.notFound', initialTab: 'code',
        query: { type: 'object', required: ['name'], properties: { name: { type: 'string', title: 'test.gadget.name' } } },
        result: [{ field: '/answer', titleKey: 'test.gadget.answer' }],
        tabs: [
          { id: 'name', titleKey: 'test.gadget.name' },
          {
            id: 'code', titleKey: 'test.gadget.note', endpoint: '/api/gadget/list-search', method: 'POST', send: 'query',
            query: { type: 'object', required: ['note'], properties: { note: { type: 'string', title: 'test.gadget.note' } } },
            result: [{ field: '/price', titleKey: 'test.gadget.amount', format: 'money' }],
          },
        ],
      },
    } as unknown as ScreenDefinition;
    const call = vi.fn(async (_m: string, path: string) => (path.endsWith('list-search') ? { list: [{ price: 5000 }] } : { answer: 'By name' }));
    const { user } = renderScreen(LookupScreen, screen, '/gadget-lookup', createScriptedDataProvider(call));
    await waitFor(() => expect(field('/note')).toBeTruthy());
    expect(document.querySelector('[data-field="/name"]')).toBeNull();
    await user.type(input('/note'), 'x1');
    await user.click(action('search'));
    await waitFor(() => expect(document.querySelector('[data-result-field="/price"]')?.textContent).toContain('5 000'));
    // send: "query" — the POST's body is empty and the query goes in the query string.
    expect(call).toHaveBeenLastCalledWith('POST', '/api/gadget/list-search', { body: {}, query: { note: 'x1' } });
    expect(document.querySelector('[data-result-field="/answer"]')).toBeNull();
    await user.click(document.querySelector<HTMLElement>('[data-tab="name"]')!);
    await waitFor(() => expect(field('/name')).toBeTruthy());
    expect(document.querySelector('[data-region="result"]')!.textContent).toBe('');
    await user.type(input('/name'), 'lamp');
    await new Promise((r) => setTimeout(r, 1100));
    await user.click(action('search'));
    await waitFor(() => expect(document.querySelector('[data-result-field="/answer"]')?.textContent).toContain('By name'));
    expect(call).toHaveBeenLastCalledWith('GET', '/api/gadget/lookup', { query: { name: 'lamp' } });
  }, 15_000);
});

describe('page screen', () => {
  it('renders the title and paragraphs of its content key', async () => {
    const page = { id: 'about', route: '/about', kind: 'page', titleKey: 'test.gadget.title', permission: 'public', options: { contentKey: 'test.gadget.page' } } as unknown as ScreenDefinition;
    renderScreen(PageScreen, page, '/about', createFakeDataProvider());
    await waitFor(() => expect(dom.getByRole('heading', { level: 1 }).textContent).toBe('About gadgets'));
    expect([...document.querySelectorAll('[data-paragraph]')].map((p) => p.textContent)).toEqual(['First paragraph.', 'Second paragraph.']);
    // A key named heading… is a section heading between the paragraphs, not a paragraph.
    expect(dom.getByRole('heading', { level: 2 }).textContent).toBe('More');
    expect(document.querySelector('[data-heading="headingMore"]')?.previousElementSibling?.textContent).toBe('First paragraph.');
    await act(async () => undefined);
  });
});
