// @vitest-environment happy-dom
/**
 * The permission matrix (issue #17, item 6): a role's permission strings as rows of record
 * types by their titles and columns of actions, a machine's events by their labels; boxes
 * to edit, ticks to read; the stored strings unchanged.
 */
import { describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import type { RJSFSchema } from '@rjsf/utils';
import { renderEntityForm } from '../../testing.tsx';

vi.mock('../../../../definitions/client.ts', () => ({
  manifests: new Map([
    ['gadget', { id: 'gadget', titleKey: 'test.roles.gadgets', subject: 'Gadget', workflow: 'gadget-flow' }],
    ['widget', { id: 'widget', titleKey: 'test.roles.widgets', subject: 'Widget' }],
  ]),
  screens: [],
  loadMachine: async (id: string) =>
    id === 'gadget-flow'
      ? {
          id,
          initial: 'NEW',
          states: { NEW: { on: { APPROVE: { target: 'DONE' }, REJECT: { target: 'DONE' } } }, DONE: {} },
        }
      : undefined,
  loadEntity: async () => {
    throw new Error('not needed');
  },
  loadUi: async () => undefined,
}));

const schema = {
  type: 'object',
  properties: { permissions: { type: 'array', title: 'test.text', items: { type: 'string' }, default: [] } },
} as RJSFSchema;
const uiSchema = {
  permissions: {
    'ui:widget': 'permissionMatrix',
    'ui:options': {
      subjects: [
        { subject: 'all', labelKey: 'test.roles.all' },
        {
          subject: 'Talk',
          labelKey: 'test.roles.talk',
          basic: ['read'],
          actions: [{ action: 'announce', labelKey: 'test.roles.announce' }],
        },
      ],
    },
  },
};
const matrix = () => document.querySelector<HTMLElement>('[data-permission-matrix]')!;
const box = (permission: string) =>
  matrix().querySelector<HTMLInputElement>(
    `input[type="checkbox"][data-permission="${permission}"], [data-permission="${permission}"] input`,
  )!;

describe('permissionMatrix widget', () => {
  it('shows record types by their titles and the events by their labels, and toggles the permission strings', async () => {
    const { user, data } = renderEntityForm({
      schema,
      uiSchema,
      formData: { permissions: ['read Gadget', 'read Mystery'] },
    });
    await waitFor(() => expect(matrix().querySelector('[data-subject="Gadget"] th')!.textContent).toBe('Gadgets'));
    expect(matrix().querySelector('[data-subject="Widget"] th')!.textContent).toBe('Widgets');
    expect(matrix().querySelector('[data-subject="all"] th')!.textContent).toBe('All records');
    // The column heads are words, not action codes.
    expect([...matrix().querySelectorAll('thead th')].map((th) => th.textContent)).toEqual([
      'Record type',
      'Full access',
      'View',
      'Add',
      'Change',
      'Delete',
      'Other actions',
    ]);
    expect(box('read Gadget').checked).toBe(true);
    expect(box('update Gadget').checked).toBe(false);
    // A subsystem row has only the columns its options name.
    expect(box('read Talk')).toBeTruthy();
    expect(matrix().querySelector('[data-subject="Talk"] [data-permission="update Talk"]')).toBeNull();

    await user.click(box('update Gadget'));
    await waitFor(() => expect(data().permissions).toEqual(['read Gadget', 'read Mystery', 'update Gadget']));

    // The machine's events, by their labels, behind the row's "other actions".
    const expand = await waitFor(() => {
      const b = matrix().querySelector<HTMLButtonElement>('[data-expand="Gadget"]');
      if (!b) throw new Error('no events yet');
      return b;
    });
    expect(expand.textContent).toContain('0 of 2');
    await user.click(expand);
    const events = matrix().querySelector<HTMLElement>('[data-events="Gadget"]')!;
    expect(events.textContent).toContain('Approve');
    expect(events.textContent).toContain('Reject');
    await user.click(box('APPROVE Gadget'));
    await waitFor(() => expect(data().permissions).toContain('APPROVE Gadget'));
    await user.click(box('read Gadget'));
    await waitFor(() => expect(data().permissions).not.toContain('read Gadget'));
    // A permission no cell shows stays, listed apart.
    expect(matrix().querySelector('[data-others]')!.textContent).toContain('read Mystery');
  });

  it('read-only: ticks, only the rows that grant something, full access implying the rest, no action codes', async () => {
    renderEntityForm({
      schema,
      uiSchema,
      formData: { permissions: ['manage Widget', 'read Gadget', 'REJECT Gadget'] },
      readOnly: true,
    });
    await waitFor(() => expect(matrix().dataset.permissionMatrix).toBe('read'));
    await waitFor(() =>
      expect(matrix().querySelector('[data-actions="Gadget"]')?.textContent).toBe('Other actions: Reject'),
    );
    const granted = (p: string) => matrix().querySelector<HTMLElement>(`[data-permission="${p}"]`)?.dataset.granted;
    expect(granted('read Gadget')).toBe('explicit');
    expect(granted('update Gadget')).toBe('none');
    expect(granted('manage Widget')).toBe('explicit');
    expect(granted('delete Widget')).toBe('implied');
    expect(matrix().querySelector('[data-subject="all"]')).toBeNull();
    expect(matrix().querySelector('[data-subject="Talk"]')).toBeNull();
    expect(matrix().querySelector('input[type="checkbox"]')).toBeNull();
    expect(matrix().textContent).not.toMatch(/read Gadget|REJECT/);
  });

  it('read-only with "read all": every record type shows a lighter tick under View', async () => {
    renderEntityForm({ schema, uiSchema, formData: { permissions: ['read all'] }, readOnly: true });
    await waitFor(() =>
      expect(matrix().querySelector<HTMLElement>('[data-permission="read Widget"]')?.dataset.granted).toBe('implied'),
    );
    expect(matrix().querySelector<HTMLElement>('[data-permission="read all"]')?.dataset.granted).toBe('explicit');
    expect(matrix().querySelector<HTMLElement>('[data-permission="update Widget"]')?.dataset.granted).toBe('none');
  });
});
