// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { RJSFSchema } from '@rjsf/utils';
import type { StoredRecord } from '../../../client/data-provider.ts';
import { createFakeDataProvider, fieldElement, renderEntityForm } from '../testing.tsx';

const schema = {
  type: 'object',
  properties: {
    status: {
      title: 'test.field.businessStatus',
      type: 'string',
      oneOf: [
        { const: 'ACTIVE', title: 'test.option.ACTIVE' },
        { const: 'SUSPENDED', title: 'test.option.SUSPENDED' },
      ],
    },
    sex: {
      title: 'test.field.sex',
      type: 'string',
      oneOf: [
        { const: 'MALE', title: 'test.option.MALE' },
        { const: 'FEMALE', title: 'test.option.FEMALE' },
      ],
    },
    measures: {
      title: 'test.field.measuresApplied',
      type: 'array',
      uniqueItems: true,
      items: {
        type: 'string',
        oneOf: [
          { const: 'WARNING', title: 'test.option.WARNING' },
          { const: 'INSTRUCTION', title: 'test.option.INSTRUCTION' },
          { const: 'COURT_CLAIM', title: 'test.option.COURT_CLAIM' },
        ],
      },
      default: [],
    },
    stir: { title: 'test.field.stir', type: 'string', format: 'stir' },
    regionId: { title: 'test.field.regionId', type: 'integer', reference: { list: 'region' } },
    districtId: {
      title: 'test.field.districtId',
      type: 'integer',
      reference: { list: 'district', parentField: 'regionId' },
    },
  },
} as RJSFSchema;
const uiSchema = {
  status: { 'ui:widget': 'select' },
  sex: { 'ui:widget': 'radio', 'ui:options': { inline: true } },
  measures: { 'ui:widget': 'select', 'ui:options': { multiple: true } },
  stir: {
    'ui:widget': 'stir',
    'ui:options': { lookup: 'company', fill: { regionId: 'regionId', districtId: 'districtId' } },
  },
  regionId: { 'ui:widget': 'reference' },
  districtId: { 'ui:widget': 'reference' },
};

const select = (label: RegExp) => screen.getByLabelText(label) as HTMLSelectElement;
const optionTexts = (el: HTMLSelectElement) => [...el.options].map((o) => o.textContent);

describe('select and radio widgets', () => {
  it('lists oneOf options by their translated titles and stores the const', async () => {
    const { user, data } = renderEntityForm({ schema, uiSchema });
    expect(optionTexts(select(/Business status/))).toEqual(['Choose…', 'Active', 'Suspended']);
    expect(select(/Business status/).value).toBe('');
    expect(data()).not.toHaveProperty('status');
    await user.selectOptions(select(/Business status/), 'Suspended');
    expect(data().status).toBe('SUSPENDED');
  });

  it('offers radio buttons in a row', async () => {
    const { user, data } = renderEntityForm({ schema, uiSchema });
    await user.click(screen.getByRole('radio', { name: 'Female' }));
    expect(data().sex).toBe('FEMALE');
  });

  it('chooses several values of a string array', async () => {
    const { user, data, container } = renderEntityForm({ schema, uiSchema });
    await user.click(within(fieldElement(container, '/measures')).getByRole('combobox'));
    // Fluent's multi-select options are menu item checkboxes.
    await user.click(await screen.findByRole('menuitemcheckbox', { name: 'Warning issued' }));
    await user.click(screen.getByRole('menuitemcheckbox', { name: 'Claim filed in court' }));
    expect(data().measures).toEqual(['WARNING', 'COURT_CLAIM']);
  });

  it('shows labels, not controls, when read-only', async () => {
    renderEntityForm({
      schema,
      uiSchema,
      readOnly: true,
      formData: { status: 'ACTIVE', measures: ['WARNING', 'INSTRUCTION'], regionId: 2 },
    });
    expect((screen.getByLabelText(/Business status/) as HTMLInputElement).value).toBe('Active');
    expect((screen.getByLabelText(/Measures/) as HTMLInputElement).value).toBe(
      'Warning issued, Binding instruction issued',
    );
    await waitFor(() => expect((screen.getByLabelText(/^Region/) as HTMLInputElement).value).toBe('Andijan'));
  });
});

describe('reference lists and the region → district cascade', () => {
  it('lists localized reference names and stores the id', async () => {
    const { user, data } = renderEntityForm({ schema, uiSchema });
    await waitFor(() => expect(optionTexts(select(/^Region/))).toEqual(['Choose…', 'Karakalpakstan', 'Andijan']));
    await user.selectOptions(select(/^Region/), 'Andijan');
    expect(data().regionId).toBe(2);
  });

  it('disables the district until a region is chosen, lists only its districts and clears it when the region changes', async () => {
    const dataProvider = createFakeDataProvider();
    const { user, data } = renderEntityForm({ schema, uiSchema }, { dataProvider });
    expect(select(/District/).disabled).toBe(true);
    await waitFor(() => expect(select(/^Region/).options.length).toBe(3));
    await user.selectOptions(select(/^Region/), 'Karakalpakstan');
    await waitFor(() => expect(optionTexts(select(/District/))).toEqual(['Choose…', 'Nukus City', 'Amudaryo']));
    expect(select(/District/).disabled).toBe(false);
    expect(dataProvider.getReference).toHaveBeenCalledWith('district', 1);
    await user.selectOptions(select(/District/), 'Amudaryo');
    expect(data()).toMatchObject({ regionId: 1, districtId: 102 });

    await user.selectOptions(select(/^Region/), 'Andijan');
    await waitFor(() => expect(data().districtId).toBeUndefined());
    await waitFor(() => expect(optionTexts(select(/District/))).toEqual(['Choose…', 'Andijan City', 'Asaka']));
  });

  it('keeps a district that arrives together with its region (a lookup filling both)', async () => {
    const findBy = vi.fn(() =>
      Promise.resolve({ id: 1, stir: '123456789', regionId: 2, districtId: 202 } as unknown as StoredRecord),
    );
    const { user, data } = renderEntityForm(
      { schema, uiSchema, formData: { regionId: 1, districtId: 101 } },
      { dataProvider: createFakeDataProvider({ findBy }) },
    );
    await user.type(screen.getByLabelText(/STIR/), '123456789');
    await waitFor(() => expect(data()).toMatchObject({ regionId: 2, districtId: 202 }));
    await waitFor(() => expect(select(/District/).value).toBe('202'));
    expect(data().districtId).toBe(202);
  });
});
