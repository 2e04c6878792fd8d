// @vitest-environment happy-dom
/**
 * The record-link widgets: `entityRef` searches another entity as one types (or by "#id"),
 * stores the chosen record's id and shows its label; `entityChoices` offers another
 * entity's values and keeps the chosen ones.
 */
import { describe, expect, it, vi } from 'vitest';
import { screen as dom, waitFor } from '@testing-library/react';
import type { RJSFSchema } from '@rjsf/utils';
import { createFakeDataProvider, renderEntityForm } from '../testing.tsx';

vi.mock('../../../definitions/client.ts', () => ({
  manifests: new Map([
    ['unit', { id: 'unit', base: '/unit', labelField: '/name' }],
    ['right', { id: 'right', base: '/right', labelField: '/code' }],
  ]),
  screens: [],
  // The catalogue's value field names its values (a role's code → its name): `valueLabels`.
  loadEntity: async (id: string) => ({
    id,
    manifest: { id },
    schema: { type: 'object', properties: { code: { type: 'string', valueLabels: 'test.rights' } } },
  }),
}));

const schema = {
  type: 'object',
  properties: {
    unitId: { type: 'integer', title: 'test.text', entityRef: { entity: 'unit' } },
    rights: { type: 'array', title: 'test.text', items: { type: 'string' }, default: [] },
  },
} as RJSFSchema;
const uiSchema = {
  unitId: { 'ui:widget': 'entityRef' },
  rights: { 'ui:widget': 'entityChoices', 'ui:options': { entity: 'right', valueField: '/code' } },
};
const unit = (id: number, name: string) => ({ id, version: 1, status: 'ACTIVE', createdAt: '', updatedAt: '', name });

describe('entityRef widget', () => {
  it('searches by keyword, stores the id and shows the label; "#id" finds by number', async () => {
    const searchByKeyword = vi.fn(async () => [{ id: 4, label: 'Bukhara office' }]);
    const getOne = vi.fn(async (_e: string, id: number) => unit(id, id === 4 ? 'Bukhara office' : 'Legal section'));
    const getList = vi.fn(async () => ({ list: [], total: 0 }));
    const onChange = vi.fn();
    const { user } = renderEntityForm(
      { schema, uiSchema, formData: {}, onChange },
      { dataProvider: createFakeDataProvider({ searchByKeyword, getOne, getList }) },
    );
    const input = document.querySelector<HTMLInputElement>('[data-field="/unitId"] input')!;
    await user.type(input, 'Bukh');
    await waitFor(() => expect(searchByKeyword).toHaveBeenCalledWith('unit', 'Bukh', 50));
    await user.click(await dom.findByRole('option', { name: 'Bukhara office' }));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ unitId: 4 })));
    await waitFor(() => expect(input.value).toBe('Bukhara office'));

    await user.clear(input);
    await user.type(input, '#9');
    await user.click(await dom.findByRole('option', { name: 'Legal section' }));
    expect(getOne).toHaveBeenCalledWith('unit', 9);
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ unitId: 9 })));
  });

  it('read-only, shows the linked record by its label', async () => {
    const getOne = vi.fn(async (_e: string, id: number) => unit(id, 'Central office'));
    const getList = vi.fn(async () => ({ list: [], total: 0 }));
    renderEntityForm(
      { schema, uiSchema, formData: { unitId: 1, rights: ['read Unit'] }, readOnly: true },
      { dataProvider: createFakeDataProvider({ getOne, getList }) },
    );
    await waitFor(() =>
      expect(document.querySelector<HTMLInputElement>('[data-field="/unitId"] input')!.value).toBe('Central office'),
    );
    // Read-only, the chosen values are chips named by their texts (none here: the value itself).
    await waitFor(() =>
      expect(document.querySelector('[data-field="/rights"] [data-chosen] [data-value="read Unit"]')!.textContent).toBe(
        'read Unit',
      ),
    );
  });
});

describe('entityChoices widget', () => {
  it("offers the catalogue's values and keeps the chosen ones", async () => {
    const getList = vi.fn(async () => ({
      list: [{ code: 'read Unit' }, { code: 'update Unit' }].map((r, i) => ({
        id: i + 1,
        version: 1,
        status: 'ACTIVE',
        createdAt: '',
        updatedAt: '',
        ...r,
      })),
      total: 2,
    }));
    const onChange = vi.fn();
    const { user } = renderEntityForm(
      { schema, uiSchema, formData: { rights: [] }, onChange },
      { dataProvider: createFakeDataProvider({ getList }) },
    );
    await waitFor(() => expect(getList).toHaveBeenCalledWith('right', expect.objectContaining({ sortBy: ['code'] })));
    const input = document.querySelector<HTMLInputElement>('[data-field="/rights"] input')!;
    await user.type(input, 'upd');
    // A multiselect list: its options are checkboxes.
    await user.click(await dom.findByRole('menuitemcheckbox', { name: 'update Unit' }));
    await waitFor(() =>
      expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ rights: ['update Unit'] })),
    );
    await waitFor(() =>
      expect(document.querySelector('[data-field="/rights"] [data-chosen]')?.textContent).toContain('update Unit'),
    );
  });
});

describe('entityChoices widget with value texts', () => {
  it('names the values by their texts in the list, the chips and the read view, and stores the values', async () => {
    const getList = vi.fn(async () => ({
      list: ['viewer', 'editor'].map((code, i) => ({
        id: i + 1,
        version: 1,
        status: 'ACTIVE',
        createdAt: '',
        updatedAt: '',
        code,
      })),
      total: 2,
    }));
    const onChange = vi.fn();
    const { user } = renderEntityForm(
      {
        schema,
        uiSchema: { rights: { 'ui:widget': 'entityChoices', 'ui:options': { entity: 'right', valueField: '/code' } } },
        formData: { rights: ['viewer'] },
        onChange,
      },
      { dataProvider: createFakeDataProvider({ getList }) },
    );
    await waitFor(() =>
      expect(document.querySelector('[data-field="/rights"] [data-chosen] [data-value="viewer"]')?.textContent).toBe(
        'Viewer of records',
      ),
    );
    const input = document.querySelector<HTMLInputElement>('[data-field="/rights"] input')!;
    await user.type(input, 'Edit');
    await user.click(await dom.findByRole('menuitemcheckbox', { name: 'Editor of records' }));
    await waitFor(() =>
      expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ rights: ['viewer', 'editor'] })),
    );
  });
});
