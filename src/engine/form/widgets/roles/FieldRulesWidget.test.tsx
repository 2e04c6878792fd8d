// @vitest-environment happy-dom
/**
 * A role's field rules picked by field title (issue #17, item 6): the picker lists a record
 * type's fields as "Owner › Phone" and stores the JSON pointer; the read view shows titles,
 * never pointers.
 */
import { describe, expect, it, vi } from 'vitest';
import { screen as dom, waitFor } from '@testing-library/react';
import type { RJSFSchema } from '@rjsf/utils';
import { renderEntityForm } from '../../testing.tsx';

const gadgetSchema = {
  type: 'object',
  title: 'test.roles.gadgets',
  properties: {
    name: { type: 'string', title: 'test.roles.gadget.name' },
    owner: {
      type: 'object',
      title: 'test.roles.gadget.owner',
      properties: { phone: { type: 'string', title: 'test.roles.gadget.phone' } },
    },
  },
};
vi.mock('../../../../definitions/client.ts', () => ({
  manifests: new Map([['gadget', { id: 'gadget', titleKey: 'test.roles.gadgets', subject: 'Gadget' }]]),
  screens: [],
  loadMachine: async () => undefined,
  loadEntity: async (id: string) => ({ id, manifest: { id }, schema: gadgetSchema }),
  loadUi: async () => undefined,
}));

const schema = {
  type: 'object',
  properties: {
    hiddenFields: {
      type: 'array',
      title: 'test.text',
      default: [],
      items: {
        type: 'object',
        properties: { subject: { type: 'string' }, fields: { type: 'array', items: { type: 'string' } } },
      },
    },
  },
} as RJSFSchema;
const uiSchema = { hiddenFields: { 'ui:widget': 'fieldRules' } };
const root = () => document.querySelector<HTMLElement>('[data-field-rules]')!;

describe('fieldRules widget', () => {
  it('lists the fields by their titles and stores their pointers', async () => {
    const { user, data } = renderEntityForm({ schema, uiSchema, formData: { hiddenFields: [] } });
    await user.click(root().querySelector<HTMLButtonElement>('[data-action="add-rule"]')!);
    const select = await waitFor(() => root().querySelector<HTMLSelectElement>('select')!);
    expect([...select.options].map((o) => o.textContent)).toEqual(['Choose a record type', 'Gadgets']);
    await user.selectOptions(select, 'Gadget');
    await waitFor(() => expect(data().hiddenFields).toEqual([{ subject: 'Gadget', fields: [] }]));
    const picker = await waitFor(() => {
      const input = root().querySelector<HTMLInputElement>('[data-fields-picker="Gadget"]');
      if (!input || input.disabled) throw new Error('picker not ready');
      return input;
    });
    await user.click(picker);
    const options = await dom.findAllByRole('menuitemcheckbox');
    expect(options.map((o) => o.textContent)).toEqual(['Name', 'Owner', 'Owner › Phone']);
    await user.click(dom.getByRole('menuitemcheckbox', { name: 'Owner › Phone' }));
    await waitFor(() => expect(data().hiddenFields).toEqual([{ subject: 'Gadget', fields: ['/owner/phone'] }]));
    expect(root().querySelector('[data-chosen]')!.textContent).toContain('Owner › Phone');
  });

  it('read-only: the record type and the field titles, no pointers', async () => {
    renderEntityForm({
      schema,
      uiSchema,
      formData: { hiddenFields: [{ subject: 'Gadget', fields: ['/owner/phone', '/name'] }] },
      readOnly: true,
    });
    await waitFor(() =>
      expect(root().querySelector('[data-rule="Gadget"]')!.textContent).toBe('Gadgets: Owner › Phone, Name'),
    );
    expect(root().textContent).not.toContain('/');
    expect(root().querySelector('input, select')).toBeNull();
  });
});
