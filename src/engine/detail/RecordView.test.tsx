// @vitest-environment happy-dom
/**
 * The record page's read view: labelled sections of description lists in the ui schema's
 * order, values formatted as the list formats them, empty fields left out, no form controls.
 */
import { describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import type { JSONSchema7 } from 'json-schema';
import { createFakeDataProvider, renderWithProviders } from '../form/testing.tsx';
import { fieldTitleKeys, keyFactFields, readSections, staffUserIds } from './read-view.ts';
import { RecordView } from './RecordView.tsx';
import { RecordHeader } from './RecordHeader.tsx';
import { useReadTools } from './ReadValue.tsx';
import { ChangeHistory } from './ChangeHistory.tsx';
import { valueAt } from '../../shared/pointer.ts';

vi.mock('../../definitions/client.ts', () => ({ manifests: new Map() }));

const schema: JSONSchema7 = {
  type: 'object',
  properties: {
    lotNumber: { type: 'string', title: 'test.field.lotNumber' },
    docDate: { type: 'string', format: 'date', title: 'test.field.docDate' },
    hearingAt: { type: 'string', format: 'date-time', title: 'test.field.hearingAt' },
    regionId: { type: 'integer', title: 'test.field.regionId', reference: { list: 'region' } } as JSONSchema7,
    applicantType: {
      type: 'string',
      title: 'test.field.applicantType',
      oneOf: [
        { const: 'INDIVIDUAL', title: 'test.option.INDIVIDUAL' },
        { const: 'LEGAL', title: 'test.option.LEGAL' },
      ],
    },
    refunded: { type: 'boolean', title: 'test.field.refunded' },
    startingPrice: { type: 'number', title: 'test.field.startingPrice' },
    executorId: { type: 'integer', title: 'test.field.executorId', staffUser: true } as JSONSchema7,
    email: { type: 'string', title: 'test.field.email' },
    files: { type: 'array', title: 'test.field.files', items: { type: 'string' }, file: true } as JSONSchema7,
    customer: {
      type: 'object',
      title: 'test.field.customer',
      properties: {
        surname: { type: 'string', title: 'test.field.surname' },
        pnfl: { type: 'string', title: 'test.field.pnfl' },
      },
    },
    buyer: {
      type: 'object',
      title: 'test.field.buyer',
      properties: { customerName: { type: 'string', title: 'test.field.customerName' } },
    },
    participants: {
      type: 'array',
      title: 'test.field.participants',
      items: {
        type: 'object',
        properties: {
          participantName: { type: 'string', title: 'test.field.participantName' },
          sharePercent: { type: 'number', title: 'test.field.sharePercent' },
        },
      },
    },
    phone: { type: 'string', title: 'test.field.phone' },
  },
};
const ui = {
  'ui:order': ['lotNumber', 'customer', '*', 'startingPrice', 'phone'],
  startingPrice: { 'ui:widget': 'money' },
  phone: { 'ui:widget': 'hidden' },
};
const data = {
  lotNumber: 'L-17',
  docDate: '2026-03-05',
  hearingAt: '2026-03-05T20:30:00.000Z',
  regionId: 2,
  applicantType: 'LEGAL',
  refunded: false,
  startingPrice: 1234567.6,
  executorId: 5,
  email: '   ',
  files: ['f-1'],
  customer: { surname: 'Karimova', pnfl: '' },
  buyer: { customerName: '' },
  participants: [
    { participantName: 'Alpha', sharePercent: 60 },
    { participantName: 'Beta', sharePercent: 40 },
  ],
  phone: '+998901234567',
};

function Page({ keyFacts = [] as string[] }) {
  const sections = readSections(schema, ui, []);
  const facts = keyFactFields(schema, ui, keyFacts);
  const fields = [...sections.flatMap((s) => s.fields), ...facts];
  const tools = useReadTools(
    fields,
    staffUserIds(fields, (p) => valueAt(data, p)),
  );
  return (
    <>
      <RecordHeader title="Tender № 7" keyFacts={facts} data={data} tools={tools} actions={null} />
      <RecordView sections={sections} data={data} tools={tools} />
    </>
  );
}

const provider = () =>
  createFakeDataProvider({
    getStaffUsers: vi.fn(async () => [{ id: 5, name: 'Rahimov Aziz', unit: null }]),
    getFileInfo: vi.fn(async () => [{ id: 'f-1', name: 'act.pdf', mime: 'application/pdf', size: 2048, sha256: '' }]),
  });

const text = (pointer: string) =>
  document.querySelector(`[data-region="record-view"] [data-field="${pointer}"] dd`)?.textContent;

describe('the record read view', () => {
  it("makes the plain fields one section in the ui schema's order, then each nested object one under its title", () => {
    const sections = readSections(schema, ui);
    expect(sections.map((s) => [s.pointer, s.titleKeys])).toEqual([
      ['', []],
      ['/customer', ['test.field.customer']],
      ['/buyer', ['test.field.buyer']],
    ]);
    // `*` stands for the fields ui:order leaves out; the hidden widget is not shown at all.
    expect(sections[0]!.fields.map((f) => f.pointer)).toEqual([
      '/lotNumber',
      '/docDate',
      '/hearingAt',
      '/regionId',
      '/applicantType',
      '/refunded',
      '/executorId',
      '/email',
      '/files',
      '/participants',
      '/startingPrice',
    ]);
    expect(sections[0]!.fields.find((f) => f.pointer === '/participants')!.kind).toBe('table');
    expect(fieldTitleKeys(schema, '/customer/surname')).toEqual(['test.field.customer', 'test.field.surname']);
  });

  it('shows values as the list does, hides empty fields and empty sections, and has no form controls', async () => {
    renderWithProviders(<Page />, { dataProvider: provider() });
    await waitFor(() => expect(text('/regionId')).toBe('Andijan'));
    const view = document.querySelector('[data-region="record-view"]')!;
    // No form controls; a PDF file's preview button is an action on the file, not an input.
    expect(view.querySelectorAll('input, select, textarea, button:not([data-action="preview-pdf"])').length).toBe(0);
    expect(view.querySelectorAll('[data-file] [data-action="preview-pdf"]').length).toBe(
      view.querySelectorAll('[data-file][data-kind="pdf"]').length,
    );
    expect(view.textContent).not.toContain('*');
    expect(view.querySelectorAll('dl').length).toBeGreaterThan(0);

    expect(text('/lotNumber')).toBe('L-17');
    expect(text('/docDate')).toBe('05.03.2026');
    // Tashkent time (UTC+5).
    expect(text('/hearingAt')).toBe('06.03.2026 01:30');
    expect(text('/applicantType')).toBe('Legal entity');
    expect(text('/refunded')).toBe('No');
    expect(text('/startingPrice')).toBe('1 234 568');
    await waitFor(() => expect(text('/executorId')).toBe('Rahimov Aziz'));
    await waitFor(() => expect(text('/files')).toContain('act.pdf'));
    const link = view.querySelector<HTMLAnchorElement>('[data-field="/files"] a')!;
    expect(link.getAttribute('href')).toBe('/api/file-entity/get/f-1');

    // The nested object is its own titled section; its empty field is left out.
    const customer = view.querySelector('[data-section="/customer"]')!;
    expect(customer.querySelector('h2')!.textContent).toBe('Applicant details');
    expect(customer.querySelector('dt')!.textContent).toBe('Surname');
    expect(text('/customer/surname')).toBe('Karimova');
    expect(view.querySelector('[data-field="/customer/pnfl"]')).toBeNull();
    // A whitespace-only text and an object whose fields are all empty are nothing to show.
    expect(view.querySelector('[data-field="/email"]')).toBeNull();
    expect(view.querySelector('[data-section="/buyer"]')).toBeNull();
    expect(view.querySelector('[data-field="/phone"]')).toBeNull();

    // A list of objects is a small table with the items' field titles.
    const table = view.querySelector('[data-field="/participants"] table')!;
    expect([...table.querySelectorAll('th')].map((th) => th.textContent)).toEqual(['Participant name', 'Share, %']);
    expect([...table.querySelectorAll('tbody tr')].map((tr) => tr.textContent)).toEqual(['Alpha60', 'Beta40']);
  });

  it('draws a field whose widget reads itself (named chips, a matrix) by that widget, not as raw codes', async () => {
    const schema = {
      type: 'object',
      properties: { roles: { type: 'array', title: 'test.roles', items: { type: 'string' } } },
    } as JSONSchema7;
    const ui = { roles: { 'ui:widget': 'entityChoices', 'ui:options': { entity: 'gadget', valueField: '/name' } } };
    const sections = readSections(schema, ui);
    expect(sections[0]!.fields[0]).toMatchObject({ kind: 'widget', widget: 'entityChoices' });
    function View() {
      const tools = useReadTools(sections[0]!.fields, []);
      return <RecordView sections={sections} data={{ roles: ['lamp', 'desk'] }} tools={tools} />;
    }
    renderWithProviders(<View />, { dataProvider: createFakeDataProvider({}) });
    await waitFor(() => expect(document.querySelectorAll('[data-field="/roles"] [data-value]').length).toBe(2));
    expect(
      document.querySelectorAll('[data-region="record-view"] input:not([readonly]), select, textarea').length,
    ).toBe(0);
  });

  it('shows the key facts the screen declares in the header, a dash for an empty one', async () => {
    renderWithProviders(<Page keyFacts={['/executorId', '/regionId', '/customer/pnfl']} />, {
      dataProvider: provider(),
    });
    const fact = (p: string) => document.querySelector(`[data-region="key-facts"] [data-fact="${p}"]`)!;
    await waitFor(() => expect(fact('/executorId').querySelector('dd')!.textContent).toBe('Rahimov Aziz'));
    expect(fact('/executorId').querySelector('dt')!.textContent).toBe('Executor');
    await waitFor(() => expect(fact('/regionId').querySelector('dd')!.textContent).toBe('Andijan'));
    expect(fact('/customer/pnfl').querySelector('dd')!.textContent).toBe('—');
    expect(document.querySelector('h1')!.textContent).toBe('Tender № 7');
  });

  it('tells the history in words: nested fields as "Section › Field", staff users and references by name, files by count', async () => {
    const getStaffUsers = vi.fn(async () => [
      { id: 5, name: 'Rahimov Aziz', unit: null },
      { id: 6, name: 'Tosheva Malika', unit: null },
    ]);
    const dp = createFakeDataProvider({
      getStaffUsers,
      getAudit: async () => [
        {
          id: 9,
          at: '2026-03-05T06:00:00.000Z',
          actor: '12',
          actorName: 'Yusupova Dilnoza',
          action: 'update',
          changed: ['customer', 'executorId', 'files', 'regionId', 'docDate'],
          diff: [
            { pointer: '/customer/surname', old: 'Karimov', new: 'Karimova' },
            { pointer: '/docDate', new: '2026-03-05' },
            { pointer: '/executorId', old: 5, new: 6 },
            { pointer: '/files', old: ['a'], new: ['a', 'b'] },
            { pointer: '/regionId', old: 1, new: 2 },
          ],
        },
      ],
    });
    renderWithProviders(<ChangeHistory entity="gadget" id={7} schema={schema} />, { dataProvider: dp });
    const change = (p: string) => document.querySelector(`[data-change="${p}"]`)?.textContent;
    await waitFor(() =>
      expect(change('/customer/surname')).toBe(
        'Yusupova Dilnoza changed Applicant details › Surname: Karimov → Karimova',
      ),
    );
    expect(change('/docDate')).toBe('Yusupova Dilnoza changed Document date: — → 05.03.2026');
    await waitFor(() =>
      expect(change('/executorId')).toBe('Yusupova Dilnoza changed Executor: Rahimov Aziz → Tosheva Malika'),
    );
    // The names of every staff user in the history come in one request.
    expect(getStaffUsers).toHaveBeenCalledTimes(1);
    expect(change('/files')).toBe('Yusupova Dilnoza changed Attached files: files: 1 → files: 2');
    await waitFor(() => expect(change('/regionId')).toBe('Yusupova Dilnoza changed Region: Karakalpakstan → Andijan'));
    expect(document.querySelector('[data-region="history"]')!.textContent).not.toContain('12');
  });
});
