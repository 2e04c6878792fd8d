/**
 * Uzbek Latin apostrophes (the official orthography): ʻ (U+02BB) in oʻ/gʻ, ʼ (U+02BC) for the
 * tutuq belgisi — the rewrite of `npm run fix:uz-apostrophes`, the finder of uz texts that
 * `npm run check` reads, and the search's folding of apostrophes.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixUzApostrophes, foldApostrophes } from '../../src/shared/uz-apostrophes.ts';
import { uzTexts, wrongUzApostrophes } from '../../scripts/uz-texts.ts';

describe('fixUzApostrophes', () => {
  it('writes ʻ after o and g, whatever apostrophe was typed, in either case', () => {
    expect(fixUzApostrophes("O'zbekiston o`qish g’alaba to‘g‘ri Oʼzbek")).toBe(
      'Oʻzbekiston oʻqish gʻalaba toʻgʻri Oʻzbek',
    );
    expect(fixUzApostrophes("O'ZBEKISTON")).toBe('OʻZBEKISTON');
  });

  it('writes ʼ for the tutuq belgisi between other letters', () => {
    expect(fixUzApostrophes("ma'lumot iste’mol e`lon qat‘iy aʻlo")).toBe('maʼlumot isteʼmol eʼlon qatʼiy aʼlo');
  });

  it('leaves quotes, interpolation, HTML and right texts alone, and is idempotent', () => {
    const text = "<a href='/x'>'Salom'</a> {{name}} $t(key) oʻzbek maʼlumot";
    expect(fixUzApostrophes(text)).toBe(text);
    const once = fixUzApostrophes("o'g'il ta'lim");
    expect(once).toBe('oʻgʻil taʼlim');
    expect(fixUzApostrophes(once)).toBe(once);
  });
});

describe('foldApostrophes (search)', () => {
  it('makes a plain apostrophe and the official letters the same', () => {
    expect(foldApostrophes("o'zbek")).toBe(foldApostrophes('oʻzbek'));
    expect(foldApostrophes('ma’lumot')).toBe(foldApostrophes('maʼlumot'));
  });
});

describe('uz texts of a repository', () => {
  it('finds the uz trees, the Latin names and Uzbek seed values, and names each wrong one by file and pointer', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'uz-'));
    const write = (file: string, value: unknown) => {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), JSON.stringify(value));
    };
    write('src/i18n/locales/uz.json', { a: { b: "O'qish" }, ok: 'Oʻqish' });
    write('src/i18n/locales/en.json', { a: { b: "Don't" } });
    write('schemas/x/i18n.json', { en: { t: "Can't" }, uz: { t: "Ma'lumot" } });
    write('workflows/m.i18n.json', { ru: { t: "д'Артаньян" }, uz: { s: { A: 'Yoʻq' } } });
    write('schemas/_reference/r.json', { items: [{ nameLt: "Farg'ona", nameEn: "Fergana's" }] });
    write('schemas/x/seed.json', { records: [{ title: "Raqobat to'g'risida", nameEn: "o'clock" }] });
    const found = uzTexts(root).map((t) => `${t.file}#${t.pointer}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'src/i18n/locales/uz.json#/a/b',
        'schemas/x/i18n.json#/uz/t',
        'workflows/m.i18n.json#/uz/s/A',
        'schemas/_reference/r.json#/items/0/nameLt',
        'schemas/x/seed.json#/records/0/title',
      ]),
    );
    expect(found.some((f) => f.includes('en.json') || f.endsWith('/en/t') || f.endsWith('nameEn'))).toBe(false);
    expect(wrongUzApostrophes(root).map((t) => `${t.file}#${t.pointer}`)).not.toContain(
      'workflows/m.i18n.json#/uz/s/A',
    );
    expect(wrongUzApostrophes(root)).toHaveLength(4);
  });
});
