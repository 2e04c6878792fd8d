// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { RJSFSchema } from '@rjsf/utils';
import { createFakeDataProvider, fieldElement, renderEntityForm } from '../testing.tsx';

const schema = {
  type: 'object',
  properties: {
    files: {
      title: 'test.field.files',
      type: 'array',
      items: { type: 'string', maxLength: 36 },
      maxItems: 5,
      uniqueItems: true,
      file: true,
      default: [],
    },
  },
} as RJSFSchema;
const uiSchema = { files: { 'ui:widget': 'file' } };

/** A file of the given size without allocating it. */
function fileOf(name: string, size: number, type = 'application/octet-stream'): File {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

const fileInput = (container: HTMLElement) =>
  fieldElement(container, '/files').querySelector<HTMLInputElement>('input[type=file]')!;
const info = (id: string, name: string, size: number) => ({ id, name, size, mime: '', sha256: '' });

describe('file widget', () => {
  it('uploads chosen files and lists them with an icon by extension and their size', async () => {
    const dataProvider = createFakeDataProvider();
    const { user, data, container } = renderEntityForm({ schema, uiSchema }, { dataProvider });
    await user.upload(fileInput(container), [
      fileOf('notes.txt', 1536, 'text/plain'),
      fileOf('Report.PDF', 10 * 1024 * 1024, 'application/pdf'),
    ]);
    await waitFor(() => expect(data().files).toEqual(['id-notes.txt-0', 'id-Report.PDF-1']));
    expect(dataProvider.upload).toHaveBeenCalledWith('sample', expect.any(Array), undefined);
    const items = [...fieldElement(container, '/files').querySelectorAll<HTMLElement>('[data-file]')];
    expect(items.map((i) => i.dataset.kind)).toEqual(['txt', 'pdf']);
    expect(items[0]!.textContent).toContain('notes.txt');
    expect(items[0]!.textContent).toContain('1.5 KB');
    expect(items[1]!.textContent).toContain('10 MB');
  });

  it('refuses a sixth file with a message', async () => {
    const ids = ['a', 'b', 'c', 'd', 'e'];
    const dataProvider = createFakeDataProvider({
      getFileInfo: vi.fn(() => Promise.resolve(ids.map((id) => info(id, `${id}.docx`, 100)))),
    });
    const { user, data, container } = renderEntityForm(
      { schema, uiSchema, formData: { files: ids } },
      { dataProvider },
    );
    await user.upload(fileInput(container), fileOf('sixth.png', 100, 'image/png'));
    expect(await within(fieldElement(container, '/files')).findByText('Too many files (at most 5)')).toBeTruthy();
    expect(dataProvider.upload).not.toHaveBeenCalled();
    expect(data().files).toEqual(ids);
  });

  it('refuses an 11 MB file with a message and uploads the others', async () => {
    const dataProvider = createFakeDataProvider();
    const { user, data, container } = renderEntityForm({ schema, uiSchema }, { dataProvider });
    await user.upload(fileInput(container), [
      fileOf('scan.zip', 11 * 1024 * 1024),
      fileOf('photo.jpg', 2000, 'image/jpeg'),
    ]);
    expect(
      await within(fieldElement(container, '/files')).findByText('scan.zip: The file is too large (at most 10 MB)'),
    ).toBeTruthy();
    await waitFor(() => expect(data().files).toEqual(['id-photo.jpg-0']));
    expect((dataProvider.upload as ReturnType<typeof vi.fn>).mock.calls[0]![1]).toHaveLength(1);
  });

  it('keeps to ui:options.accept and ui:options.maxBytes', async () => {
    const dataProvider = createFakeDataProvider();
    const { user, container } = renderEntityForm(
      { schema, uiSchema: { files: { 'ui:widget': 'file', 'ui:options': { accept: 'image/*', maxBytes: 1024 } } } },
      { dataProvider },
    );
    expect(fileInput(container).accept).toBe('image/*');
    await user.upload(fileInput(container), fileOf('big.png', 2048, 'image/png'));
    expect(
      await within(fieldElement(container, '/files')).findByText('big.png: The file is too large (at most 1 KB)'),
    ).toBeTruthy();
    expect(dataProvider.upload).not.toHaveBeenCalled();
  });

  it('names stored files through getFileInfo, shows the id when that fails, and removes a file', async () => {
    const dataProvider = createFakeDataProvider({
      getFileInfo: vi.fn(() => Promise.resolve([info('f1', 'contract.xlsx', 5000)])),
    });
    const { user, data, container } = renderEntityForm(
      { schema, uiSchema, formData: { files: ['f1', 'f2'] } },
      { dataProvider },
    );
    expect(await screen.findByText('contract.xlsx')).toBeTruthy();
    expect(fieldElement(container, '/files').querySelector('[data-file="f1"]')!.getAttribute('data-kind')).toBe('xlsx');
    expect(screen.getByText('f2')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Remove contract.xlsx' }));
    expect(data().files).toEqual(['f2']);

    const failing = createFakeDataProvider({ getFileInfo: vi.fn(() => Promise.reject(new Error('404'))) });
    renderEntityForm({ schema, uiSchema, formData: { files: ['lost-id'] } }, { dataProvider: failing });
    await waitFor(() => expect(failing.getFileInfo).toHaveBeenCalled());
    expect(screen.getByText('lost-id')).toBeTruthy();
  });

  it('binds uploads to the record being edited, and offers no removal of a file someone else attached', async () => {
    const dataProvider = createFakeDataProvider({
      getFileInfo: vi.fn(() =>
        Promise.resolve([
          { ...info('theirs', 'evidence.pdf', 900), removable: false },
          { ...info('mine', 'answer.pdf', 800), removable: true },
        ]),
      ),
    });
    const { user, data, container } = renderEntityForm(
      { schema, uiSchema, recordId: 42, formData: { files: ['theirs', 'mine'] } },
      { dataProvider },
    );
    expect(await screen.findByText('evidence.pdf')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Remove evidence.pdf' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Remove answer.pdf' }));
    expect(data().files).toEqual(['theirs']);
    await user.upload(fileInput(container), fileOf('more.png', 100, 'image/png'));
    await waitFor(() => expect(data().files).toEqual(['theirs', 'id-more.png-0']));
    expect(dataProvider.upload).toHaveBeenCalledWith('sample', expect.any(Array), 42);
    // One's own new upload may be taken out again.
    await user.click(screen.getByRole('button', { name: 'Remove more.png' }));
    expect(data().files).toEqual(['theirs']);
  });

  it('offers download links and no buttons when read-only', async () => {
    const dataProvider = createFakeDataProvider({
      getFileInfo: vi.fn(() => Promise.resolve([info('f1', 'act.doc', 5000)])),
    });
    const { container } = renderEntityForm(
      { schema, uiSchema, readOnly: true, formData: { files: ['f1'] } },
      { dataProvider },
    );
    const link = await screen.findByRole('link', { name: 'act.doc' });
    expect(link.getAttribute('href')).toBe('/api/file-entity/get/f1');
    expect(within(fieldElement(container, '/files')).queryByRole('button')).toBeNull();
  });
});
