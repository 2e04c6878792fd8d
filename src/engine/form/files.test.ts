import { describe, expect, it } from 'vitest';
import { fileIconKind, formatFileSize, isAccepted } from './files.ts';

describe('formatFileSize', () => {
  it('uses Bytes, KB, MB and GB in binary steps with at most two decimals', () => {
    expect(formatFileSize(0)).toBe('0 Bytes');
    expect(formatFileSize(1023)).toBe('1023 Bytes');
    expect(formatFileSize(1024)).toBe('1 KB');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(10 * 1024 * 1024)).toBe('10 MB');
    expect(formatFileSize(11_534_336)).toBe('11 MB');
    expect(formatFileSize(1_234_567)).toBe('1.18 MB');
    expect(formatFileSize(3 * 1024 ** 3)).toBe('3 GB');
    expect(formatFileSize(5 * 1024 ** 4)).toBe('5120 GB');
  });

  it('takes translated unit names and refuses nonsense', () => {
    expect(formatFileSize(2048, ['Байт', 'КБ', 'МБ', 'ГБ'])).toBe('2 КБ');
    expect(formatFileSize(-1)).toBe('');
    expect(formatFileSize(Number.NaN)).toBe('');
  });
});

describe('fileIconKind', () => {
  it('knows the spec kinds by extension, case-insensitively', () => {
    expect(['a.png', 'b.JPG', 'c.jpeg', 'd.gif', 'e.webp'].map((n) => fileIconKind(n))).toEqual([
      'image',
      'image',
      'image',
      'image',
      'image',
    ]);
    expect(fileIconKind('notes.txt')).toBe('txt');
    expect(fileIconKind('act.pdf')).toBe('pdf');
    expect(fileIconKind('slides.pptx')).toBe('pptx');
    expect(fileIconKind('old.ppt')).toBe('pptx');
    expect(fileIconKind('bundle.zip')).toBe('zip');
    expect(fileIconKind('table.xlsx')).toBe('xlsx');
    expect(fileIconKind('letter.doc')).toBe('doc');
    expect(fileIconKind('letter.docx')).toBe('docx');
  });

  it('falls back to the mime type and to "other"', () => {
    expect(fileIconKind('scan', 'image/png')).toBe('image');
    expect(fileIconKind('act', 'application/pdf')).toBe('pdf');
    expect(fileIconKind('notes', 'text/plain')).toBe('txt');
    expect(fileIconKind('letter', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toBe(
      'docx',
    );
    // The extension wins: a .doc is an OLE2 container like .xls and .ppt.
    expect(fileIconKind('old.xls', 'application/x-cfb')).toBe('xlsx');
    expect(fileIconKind('old', 'application/x-cfb')).toBe('other');
    expect(fileIconKind('archive.tar.gz')).toBe('other');
    expect(fileIconKind('README')).toBe('other');
  });
});

describe('isAccepted', () => {
  it('matches wildcards, exact types and extensions; an empty list accepts all', () => {
    const png = { name: 'p.png', type: 'image/png' };
    const pdf = { name: 'a.PDF', type: 'application/pdf' };
    expect(isAccepted(png, ['image/*'])).toBe(true);
    expect(isAccepted(pdf, ['image/*'])).toBe(false);
    expect(isAccepted(pdf, ['application/pdf'])).toBe(true);
    expect(isAccepted(pdf, ['.pdf'])).toBe(true);
    expect(isAccepted(pdf, [])).toBe(true);
  });
});
