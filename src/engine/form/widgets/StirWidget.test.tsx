// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { RJSFSchema } from '@rjsf/utils';
import type { StoredRecord } from '../../../client/data-provider.ts';
import { createFakeDataProvider, fieldElement, renderEntityForm } from '../testing.tsx';

// The screens of the test entity `gadget` (its record page is /gadgets/:id), for the duplicate's link.
vi.mock('../../../definitions/client.ts', async () => (await import('../../test-entity.ts')).definitionsClientMock);

const found = {
  id: 7,
  version: 1,
  status: 'ACTIVE',
  createdAt: '',
  updatedAt: '',
  stir: '123456789',
  name: 'Olmaliq MMC',
  director: 'A. Karimov',
  address: 'Tashkent',
} as StoredRecord;

const schema: RJSFSchema = {
  type: 'object',
  properties: {
    customer: {
      title: 'test.field.buyer',
      type: 'object',
      properties: {
        stir: { title: 'test.field.customerStir', type: 'string', format: 'stir' },
        name: { title: 'test.field.customerName', type: 'string' },
        director: { title: 'test.field.director', type: 'string' },
      },
    },
    participants: {
      title: 'test.field.participants',
      type: 'array',
      items: {
        type: 'object',
        properties: {
          stir: { title: 'test.field.participantStir', type: 'string', format: 'stir' },
          name: { title: 'test.field.participantName', type: 'string' },
        },
      },
    },
  },
};
const uiSchema = {
  customer: {
    stir: { 'ui:widget': 'stir', 'ui:options': { lookup: 'company', fill: { name: 'name', director: 'director' } } },
  },
  participants: {
    items: { stir: { 'ui:widget': 'stir', 'ui:options': { lookup: 'company', fill: { name: 'name' } } } },
  },
};

describe('STIR widget', () => {
  it('on the ninth digit looks the record up and fills the sibling fields', async () => {
    const findBy = vi.fn(() => Promise.resolve(found));
    const { user, data, container } = renderEntityForm(
      { schema, uiSchema },
      { dataProvider: createFakeDataProvider({ findBy }) },
    );
    const stir = within(fieldElement(container, '/customer/stir')).getByRole('textbox');
    await user.type(stir, '12345678');
    expect(findBy).not.toHaveBeenCalled();
    await user.type(stir, '9x');
    expect((stir as HTMLInputElement).value).toBe('123456789');
    expect(findBy).toHaveBeenCalledWith('company', '/stir', '123456789');
    await waitFor(() =>
      expect(data().customer).toEqual({ stir: '123456789', name: 'Olmaliq MMC', director: 'A. Karimov' }),
    );
    expect(within(fieldElement(container, '/customer/name')).getByRole('textbox')).toHaveProperty(
      'value',
      'Olmaliq MMC',
    );
    expect(screen.getByRole('status').textContent).toContain('Found');
  });

  it('fills the fields of its own row in a list', async () => {
    const findBy = vi.fn(() => Promise.resolve(found));
    const { user, data, container } = renderEntityForm(
      { schema, uiSchema, formData: { participants: [{ name: 'first' }, {}] } },
      { dataProvider: createFakeDataProvider({ findBy }) },
    );
    await user.type(within(fieldElement(container, '/participants/1/stir')).getByRole('textbox'), '123456789');
    await waitFor(() =>
      expect(data().participants).toEqual([{ name: 'first' }, { stir: '123456789', name: 'Olmaliq MMC' }]),
    );
  });

  it('says so when nothing is found and leaves the siblings alone', async () => {
    const { user, data, container } = renderEntityForm({
      schema,
      uiSchema,
      formData: { customer: { name: 'typed by hand' } },
    });
    await user.type(within(fieldElement(container, '/customer/stir')).getByRole('textbox'), '987654321');
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Not found'));
    expect(data().customer).toEqual({ stir: '987654321', name: 'typed by hand' });
  });

  it('asks the public lookup when the record may not be read (a visitor) and fills from its first row', async () => {
    const lookup = vi.fn(() => Promise.resolve({ list: [{ name: 'Olmaliq MMC' }] }));
    const publicUi = {
      customer: {
        stir: {
          'ui:widget': 'stir',
          'ui:options': {
            lookup: 'company',
            publicLookup: '/api/public-lookup/company/by-stir',
            fill: { name: 'name' },
          },
        },
      },
    };
    const { user, data, container } = renderEntityForm(
      { schema, uiSchema: publicUi },
      { dataProvider: createFakeDataProvider({ lookup }) },
    );
    await user.type(within(fieldElement(container, '/customer/stir')).getByRole('textbox'), '123456789');
    await waitFor(() => expect(data().customer).toEqual({ stir: '123456789', name: 'Olmaliq MMC' }));
    expect(lookup).toHaveBeenCalledWith({ endpoint: '/api/public-lookup/company/by-stir' }, { stir: '123456789' });
    expect(screen.getByRole('status').textContent).toContain('Found');
  });

  it('on a new record of its own entity, a found STIR is a duplicate: no "found", nothing filled, a link to the record', async () => {
    const findBy = vi.fn(() => Promise.resolve(found));
    const own = { stir: { 'ui:widget': 'stir', 'ui:options': { lookup: 'gadget', fill: { name: 'name' } } } };
    const ownSchema: RJSFSchema = {
      type: 'object',
      properties: { stir: { type: 'string', title: 'test.field.customerStir' }, name: { type: 'string' } },
    };
    const { user, data, container } = renderEntityForm(
      { entity: 'gadget', schema: ownSchema, uiSchema: own, formData: { name: 'typed by hand' } },
      { dataProvider: createFakeDataProvider({ findBy }) },
    );
    await user.type(within(fieldElement(container, '/stir')).getByRole('textbox'), '123456789');
    await waitFor(() => expect(container.querySelector('[data-lookup="duplicate"]')).toBeTruthy());
    expect(container.textContent).not.toContain('Found');
    expect(data()).toEqual({ stir: '123456789', name: 'typed by hand' });
    const link = container.querySelector<HTMLAnchorElement>('[data-lookup="duplicate"] a')!;
    expect(link.getAttribute('href')).toBe('/gadgets/7');
    expect(link.textContent).toBe('Open the registered record');
  });

  it('editing the record itself, its own STIR is no duplicate', async () => {
    const findBy = vi.fn(() => Promise.resolve(found));
    const own = { stir: { 'ui:widget': 'stir', 'ui:options': { lookup: 'gadget' } } };
    const ownSchema: RJSFSchema = { type: 'object', properties: { stir: { type: 'string' } } };
    const { user, container } = renderEntityForm(
      { entity: 'gadget', recordId: 7, schema: ownSchema, uiSchema: own },
      { dataProvider: createFakeDataProvider({ findBy }) },
    );
    await user.type(within(fieldElement(container, '/stir')).getByRole('textbox'), '123456789');
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Found'));
    expect(container.querySelector('[data-lookup="duplicate"]')).toBeNull();
  });
});
