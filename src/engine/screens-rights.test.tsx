// @vitest-environment happy-dom
/**
 * Component tests of what a user may do on the record screens: the role's permissions and
 * read-only fields, the record's edit rules in its status (GET /rights/{id}) and the fields a
 * role may not read — each on screens of the test entity against a test double of the
 * DataProvider.
 */
import { describe, expect, it, vi } from 'vitest';
import { waitFor, within } from '@testing-library/react';
import type { ScreenDefinition } from '../generated/meta.ts';
import { createFakeDataProvider } from './form/testing.tsx';
import FormScreen from './form/FormScreen.tsx';
import WizardScreen from './wizard/WizardScreen.tsx';
import DetailScreen from './detail/DetailScreen.tsx';
import { abilityOfRoles } from '../shared/ability.ts';
import type { StoredRecord } from '../client/data-provider.ts';
import { action, confirmDialog, field, input, record, renderScreen, screenOf } from './screens-testing.tsx';

vi.mock('../definitions/client.ts', async () => (await import('./test-entity.ts')).definitionsClientMock);

describe('what the user may not use is not offered', () => {
  it('hides edit and delete from a user who may only read, and creating needs no field rules', async () => {
    const reader = abilityOfRoles([{ permissions: ['read Gadget'] }]).ability;
    renderScreen(
      DetailScreen,
      screenOf('gadget-detail'),
      '/gadgets/7',
      createFakeDataProvider({ getOne: async () => record(), getAudit: async () => [] }),
      reader,
    );
    await waitFor(() => expect(document.querySelector('[data-record="7"]')).toBeTruthy());
    expect(action('edit')).toBeNull();
    expect(action('delete')).toBeNull();
  });

  it('shows the fields a role may read but not change read-only when editing, and sends them unchanged', async () => {
    const editor = abilityOfRoles([
      { permissions: ['read Gadget', 'update Gadget'], readOnlyFields: [{ subject: 'Gadget', fields: ['/amount'] }] },
    ]).ability;
    const update = vi.fn(async (_e: string, _id: number, data: Record<string, unknown>) => record(data));
    const { user } = renderScreen(
      FormScreen,
      screenOf('gadget-edit'),
      '/gadgets/7/edit',
      createFakeDataProvider({ getOne: async () => record(), update }),
      editor,
    );
    await waitFor(() => expect(input('/name').value).toBe('Lamp'));
    expect(input('/amount').readOnly).toBe(true);
    expect(input('/name').readOnly).toBe(false);
    await user.type(input('/name'), ' 2');
    await user.click(action('save'));
    await user.click(await confirmDialog());
    await waitFor(() => expect(update).toHaveBeenCalledWith('gadget', 7, { name: 'Lamp 2', amount: 2, version: 3 }));
  });

  it('keeps read-only fields read-only through the steps of an edit wizard', async () => {
    const editor = abilityOfRoles([
      { permissions: ['read Gadget', 'update Gadget'], readOnlyFields: [{ subject: 'Gadget', fields: ['/amount'] }] },
    ]).ability;
    const update = vi.fn(async (_e: string, _id: number, data: Record<string, unknown>) => record(data));
    const screen = { ...screenOf('gadget-edit'), kind: 'wizard' } as ScreenDefinition;
    const { user } = renderScreen(
      WizardScreen,
      screen,
      '/gadgets/7/edit',
      createFakeDataProvider({ getOne: async () => record(), update }),
      editor,
    );
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

describe("the record's edit rules in its status (GET /rights/{id})", () => {
  const editor = abilityOfRoles([{ permissions: ['read Gadget', 'update Gadget', 'delete Gadget'] }]).ability;

  it('hides edit and delete on the record page when the rules allow neither now', async () => {
    const getRights = vi.fn(async () => ({ update: false, delete: false, readOnly: ['/amount', '/name', '/note'] }));
    renderScreen(
      DetailScreen,
      screenOf('gadget-detail'),
      '/gadgets/7',
      createFakeDataProvider({ getOne: async () => record(), getAudit: async () => [], getRights }),
      editor,
    );
    await waitFor(() => expect(getRights).toHaveBeenCalledWith('gadget', 7));
    await waitFor(() => expect(document.querySelector('[data-record="7"]')).toBeTruthy());
    expect(action('edit')).toBeNull();
    expect(action('delete')).toBeNull();
  });

  it('marks the fields the rules keep read-only when editing', async () => {
    const update = vi.fn(async (_e: string, _id: number, data: Record<string, unknown>) => record(data));
    const getRights = vi.fn(async () => ({ update: true, delete: false, readOnly: ['/name'] }));
    const { user } = renderScreen(
      FormScreen,
      screenOf('gadget-edit'),
      '/gadgets/7/edit',
      createFakeDataProvider({ getOne: async () => record(), update, getRights }),
      editor,
    );
    await waitFor(() => expect(input('/name').value).toBe('Lamp'));
    expect(input('/name').readOnly).toBe(true);
    expect(input('/amount').readOnly).toBe(false);
    await user.clear(input('/amount'));
    await user.type(input('/amount'), '5');
    await user.click(action('save'));
    await user.click(await confirmDialog());
    await waitFor(() => expect(update).toHaveBeenCalledWith('gadget', 7, { name: 'Lamp', amount: 5, version: 3 }));
  });

  it("shows a closed record's edit screen as a notice with the way to its page, not a form", async () => {
    const getRights = vi.fn(async () => ({ update: false, delete: false, readOnly: ['/amount', '/name', '/note'] }));
    renderScreen(
      FormScreen,
      screenOf('gadget-edit'),
      '/gadgets/7/edit',
      createFakeDataProvider({ getOne: async () => record(), getRights }),
      editor,
    );
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
  const owner = abilityOfRoles([
    { permissions: ['read Gadget', 'update Gadget'], hiddenFields: [{ subject: 'Gadget', fields: ['/amount'] }] },
  ]).ability;
  const seen = () => {
    const { amount, ...rest } = record({ note: 'n' });
    void amount;
    return rest as StoredRecord;
  };

  it('leaves them out of the detail screen', async () => {
    renderScreen(
      DetailScreen,
      screenOf('gadget-detail'),
      '/gadgets/7',
      createFakeDataProvider({ getOne: async () => seen(), getAudit: async () => [] }),
      owner,
    );
    await waitFor(() => expect(field('/name')).toBeTruthy());
    // Not named at all (no empty row, no title): the reader does not learn the field is there.
    expect(field('/amount')).toBeNull();
    expect(field('/note').textContent).toBe('Noten');
    expect(document.body.textContent).not.toContain('Amount');
  });

  it('leaves them out of the edit form, which saves without insisting on them', async () => {
    const update = vi.fn(async (_e: string, _id: number, data: Record<string, unknown>) => record(data));
    const { user } = renderScreen(
      FormScreen,
      screenOf('gadget-edit'),
      '/gadgets/7/edit',
      createFakeDataProvider({ getOne: async () => seen(), update }),
      owner,
    );
    await waitFor(() => expect(input('/name').value).toBe('Lamp'));
    expect(field('/amount').hidden).toBe(true);
    await user.type(input('/name'), ' 2');
    await user.click(action('save'));
    await user.click(await confirmDialog());
    await waitFor(() => expect(update).toHaveBeenCalledWith('gadget', 7, { name: 'Lamp 2', note: 'n', version: 3 }));
  });
});
