// @vitest-environment happy-dom
/**
 * Component tests of the screen kinds that make and show a record — form, wizard, detail and its
 * history tab — each rendered from a definition of the test entity, in a data router, against a
 * test double of the DataProvider.
 */
import { describe, expect, it, vi } from 'vitest';
import { screen as dom, waitFor, within } from '@testing-library/react';
import type { ScreenDefinition } from '../generated/meta.ts';
import { createFakeDataProvider } from './form/testing.tsx';
import { HttpError } from '../client/http.ts';
import FormScreen from './form/FormScreen.tsx';
import WizardScreen from './wizard/WizardScreen.tsx';
import DetailScreen from './detail/DetailScreen.tsx';
import { action, confirmDialog, field, input, record, renderScreen, screenOf } from './screens-testing.tsx';

vi.mock('../definitions/client.ts', async () => (await import('./test-entity.ts')).definitionsClientMock);

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
    await waitFor(() =>
      expect(create).toHaveBeenCalledWith('gadget', { name: 'Kettle', amount: 3, note: 'default note' }),
    );
    await waitFor(() => expect(dom.getByTestId('where').textContent).toBe('/gadgets/11'));
  }, 15_000);

  it('puts the field errors of a 400 on their fields', async () => {
    const create = vi.fn(async () => {
      throw new HttpError(
        400,
        {
          message: 'Please fill all required (*) fields correctly',
          fieldErrors: { '/name': 'Name: this value is already registered' },
        },
        'bad',
      );
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
    const findBy = vi.fn(async (_e: string, _f: string, value: string) =>
      value === 'Taken' ? record({ id: 99, name: 'Taken' }) : null,
    );
    const dp = createFakeDataProvider({ getEmpty: async () => ({}), findBy });
    const { user } = renderScreen(FormScreen, screenOf('gadget-new'), '/gadgets/new', dp);
    await waitFor(() => expect(field('/name')).toBeTruthy());
    await user.type(input('/name'), 'Taken');
    await waitFor(() => expect(findBy).toHaveBeenCalled(), { timeout: 3000 });
    await waitFor(() => expect(field('/name').textContent).toContain('Name: this value is already registered'), {
      timeout: 3000,
    });
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
    const saveDraft = vi.fn(async (_e: string, _id: string | undefined, data: Record<string, unknown>) => ({
      id: 'd6f1c1f2-1111-4aaa-8bbb-000000000001',
      data,
      updatedAt: '',
    }));
    const dp = createFakeDataProvider({ getEmpty: async () => ({}), saveDraft });
    const { user } = renderScreen(FormScreen, screenOf('gadget-new'), '/gadgets/new', dp);
    await waitFor(() => expect(field('/name')).toBeTruthy());
    await user.type(input('/note'), 'half done');
    await user.click(action('save-draft'));
    await waitFor(() => expect(saveDraft).toHaveBeenCalledWith('gadget', undefined, { note: 'half done' }));
    await waitFor(() =>
      expect(dom.getByTestId('where').textContent).toBe('/gadgets/new?draft=d6f1c1f2-1111-4aaa-8bbb-000000000001'),
    );
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
    expect(JSON.parse(sessionStorage.getItem('portal.wizard.gadget-new.new')!)).toEqual({
      step: 1,
      data: { name: 'Fan' },
    });
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

describe('wizard error summary', () => {
  it('lists every step’s errors on send, focused; a link to a field of another step opens that step at the field', async () => {
    const screen = { ...screenOf('gadget-new'), kind: 'wizard' } as ScreenDefinition;
    const dp = createFakeDataProvider({ getEmpty: async () => ({}) });
    // Back on the last step with the first step's name missing (a draft kept in the tab).
    sessionStorage.setItem('portal.wizard.gadget-new.new', JSON.stringify({ step: 1, data: {} }));
    const { user } = renderScreen(WizardScreen, screen, '/gadgets/new', dp);
    await waitFor(() => expect(field('/amount')).toBeTruthy());
    await user.type(input('/amount'), '5');
    await user.click(within(field('/__confirm')).getByRole('checkbox'));
    await user.click(action('save'));
    const summary = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('[data-region="error-summary"]');
      if (!el) throw new Error('no summary');
      return el;
    });
    await waitFor(() => expect(document.activeElement).toBe(summary));
    const link = summary.querySelector<HTMLAnchorElement>('a[data-error-link="/name"]')!;
    expect(link.textContent).toBe('Name: Mandatory field');
    await user.click(link);
    await waitFor(() => expect(document.querySelector('[data-step="0"]')).toBeTruthy());
    await waitFor(() => expect(document.activeElement).toBe(input('/name')));
    expect(field('/name').textContent).toContain('Mandatory field');
  });
});

describe('detail screen', () => {
  it('shows the record as a read view with its status chip and history, and deletes after confirmation', async () => {
    const remove = vi.fn(async () => undefined);
    const dp = createFakeDataProvider({
      getOne: async () => record(),
      getAudit: async () => [
        { id: 1, at: '2026-01-02T03:04:05.000Z', actor: null, action: 'update', changed: ['name'] },
      ],
      delete: remove,
    });
    const { user } = renderScreen(DetailScreen, screenOf('gadget-detail'), '/gadgets/7', dp);
    await waitFor(() => expect(document.querySelector('[data-record="7"]')).toBeTruthy());
    // The page is named by its record, not "Gadget № 7"; so is the browser tab.
    expect(dom.getByRole('heading', { level: 1 }).textContent).toBe('Lamp');
    await waitFor(() => expect(document.title).toMatch(/^Lamp — Gadget/));
    expect(document.querySelector('[data-region="record-status"][data-status="CREATED"]')!.textContent).toBe(
      'Registered',
    );
    // Read, not a disabled form: labelled values, the empty note left out, no controls at all.
    const view = document.querySelector('[data-region="record-view"]')!;
    expect(view.querySelector('[data-field="/name"] dt')!.textContent).toBe('Name');
    expect(view.querySelector('[data-field="/name"] dd')!.textContent).toBe('Lamp');
    expect(view.querySelector('[data-field="/amount"] dd')!.textContent).toBe('2');
    expect(view.querySelector('[data-field="/note"]')).toBeNull();
    expect(document.querySelectorAll('[data-screen="gadget-detail"] input, select, textarea').length).toBe(0);
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
  it('tells each change in words: who by name, the field by its title, old → new; a save without changes; long values shortened', async () => {
    const at = '2026-01-02T03:04:05.000Z';
    const dp = createFakeDataProvider({
      getOne: async () => record(),
      getAudit: async () => [
        {
          id: 3,
          at,
          actor: '1',
          actorName: 'Rahimov Aziz',
          action: 'transition',
          changed: ['status'],
          diff: [{ pointer: '/status', old: 'CREATED', new: 'DONE' }],
        },
        {
          id: 2,
          at,
          actor: '1',
          actorName: 'Rahimov Aziz',
          action: 'update',
          changed: ['name', 'note'],
          diff: [
            { pointer: '/name', old: 'Lamp', new: 'Fan' },
            { pointer: '/note', old: 'x'.repeat(10_000), truncated: ['old'] },
          ],
        },
        { id: 1, at, actor: 'system', actorName: null, action: 'update', changed: [], diff: [] },
      ],
    });
    const { user } = renderScreen(DetailScreen, screenOf('gadget-detail'), '/gadgets/7', dp);
    await waitFor(() => expect(document.querySelector('[data-record="7"]')).toBeTruthy());
    await user.click(document.querySelector<HTMLElement>('[data-tab="history"]')!);
    await waitFor(() =>
      expect(document.querySelector('[data-change="/name"]')?.textContent).toBe(
        'Rahimov Aziz changed Name: Lamp → Fan',
      ),
    );
    // The state's one label, not the stored code; no user id anywhere.
    expect(document.querySelector('[data-change="/status"]')!.textContent).toBe(
      'Rahimov Aziz changed Status: Registered → DONE',
    );
    const note = document.querySelector('[data-change="/note"]')!.textContent!;
    expect(note).toMatch(/^Rahimov Aziz changed Note: x+… → —$/);
    expect(note.length).toBeLessThan(300);
    expect(document.querySelectorAll('[data-audit="update"]')[1]!.textContent).toContain(
      'The system saved without changes',
    );
    expect(document.querySelector('[data-region="history"]')!.textContent).not.toMatch(/\b1\b|\/status/);
  });
});
