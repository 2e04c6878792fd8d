/**
 * The parts of generated documents that need no database (src/server/capabilities/documents):
 * the values a template reads (formatted as users read them, nested objects and rows kept as
 * such, staff users by name), the template fill (dotted tags, loops, empty fields, the broken
 * tag named), and the converter's pool, timeout and missing program — with a stand-in `soffice`
 * script, so no LibreOffice is needed here.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { JSONSchema7 } from 'json-schema';
import PizZip from 'pizzip';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDocx } from '../../scripts/build-doc-templates.ts';
import { createPdfConverter, sofficeExists } from '../../src/server/capabilities/documents/convert.ts';
import { checkTemplate, fillTemplate } from '../../src/server/capabilities/documents/fill.ts';
import { commonTags, documentValues, staffIdsOf } from '../../src/server/capabilities/documents/values.ts';
import { ApiError } from '../../src/server/errors.ts';

const schema: JSONSchema7 = {
  type: 'object',
  properties: {
    number: { type: 'string' },
    date: { type: 'string', format: 'date' },
    regionId: { type: 'integer', reference: { list: 'region' } } as JSONSchema7,
    kind: { type: 'string', oneOf: [{ const: 'LETTER', title: 'kind.LETTER' }] },
    refunded: { type: 'boolean' },
    executorId: { type: 'integer', staffUser: true } as JSONSchema7,
    consumer: {
      type: 'object',
      properties: { lastName: { type: 'string' }, bornOn: { type: 'string', format: 'date' } },
    },
    rows: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' }, amount: { type: 'number' } } },
    },
  },
};

const texts: Record<string, string> = { 'kind.LETTER': 'Хат', 'engine.list.yes': 'Ҳа', 'states.NEW': 'Янги' };
const ctx = {
  locale: 'ru' as const,
  translate: (key: string) => texts[key],
  reference: (list: string, id: number) =>
    list === 'region' && id === 1
      ? { nameLt: 'Qoraqalpogʻiston', nameUz: 'Қорақалпоғистон', nameRu: 'Каракалпакстан', nameEn: 'Karakalpakstan' }
      : undefined,
  statesKey: 'states',
  staffNames: new Map([[7, 'Каримов Анвар']]),
};

const record = {
  id: 12,
  status: 'NEW',
  number: 'ХТ-1',
  date: '2026-03-05',
  regionId: 1,
  kind: 'LETTER',
  refunded: true,
  executorId: 7,
  consumer: { lastName: 'Юсупова', bornOn: '1990-01-31' },
  rows: [
    { name: 'Аспирин', amount: 1234567 },
    { name: 'Парацетамол', amount: 5 },
  ],
};

const textOf = (docx: Buffer): string =>
  [
    ...new PizZip(docx)
      .file('word/document.xml')!
      .asText()
      .matchAll(/<w:t[^>]*>([^<]*)<\/w:t>/g),
  ]
    .map((m) => m[1])
    .join('');

describe('the values a template reads', () => {
  it('formats each field as users read it, keeping objects and rows', () => {
    expect(documentValues(schema, record, ctx)).toMatchObject({
      number: 'ХТ-1',
      date: '05.03.2026',
      regionId: 'Каракалпакстан',
      kind: 'Хат',
      refunded: 'Ҳа',
      executorId: 'Каримов Анвар',
      consumer: { lastName: 'Юсупова', bornOn: '31.01.1990' },
      rows: [
        { name: 'Аспирин', amount: '1 234 567' },
        { name: 'Парацетамол', amount: '5' },
      ],
    });
  });

  it('finds the staff users a record names, nested too', () => {
    expect(staffIdsOf(schema, record)).toEqual([7]);
  });

  it('adds the status label, the generation day in Tashkent and the user', () => {
    // 20:00 UTC is already the next day in Tashkent (UTC+5).
    const tags = commonTags(record, ctx, new Date('2026-11-26T20:00:00Z'), 'Каримов Анвар', 'Хат');
    expect(tags).toMatchObject({ id: '12', status: 'Янги', today: '27.11.2026', user: 'Каримов Анвар' });
  });
});

describe('filling a template', () => {
  it('fills dotted tags and repeated rows; an empty field is an empty place', () => {
    const template = buildDocx([
      { label: 'Истеъмолчи', value: '{consumer.lastName}' },
      { text: '{#rows}{name}: {amount}; {/rows}' },
      { label: 'Изоҳ', value: '[{missing}]' },
    ]);
    const text = textOf(fillTemplate(template, documentValues(schema, record, ctx)));
    expect(text).toContain('Истеъмолчи: Юсупова');
    expect(text).toContain('Аспирин: 1 234 567; Парацетамол: 5;');
    expect(text).toContain('Изоҳ: []');
  });

  it('refuses a file that is not a DOCX, and names a broken tag', () => {
    const refused = (content: Buffer) => {
      try {
        checkTemplate(content);
      } catch (error) {
        return error as ApiError;
      }
      throw new Error('accepted');
    };
    expect(refused(Buffer.from('plain text')).key).toBe('docgen.notDocx');
    const unclosed = refused(buildDocx([{ text: 'Рақам {number' }]));
    expect(unclosed).toMatchObject({
      statusCode: 400,
      key: 'docgen.brokenTag',
      params: { tag: 'number', problemKey: 'docgen.tagProblem.unclosed_tag' },
    });
    const loop = refused(buildDocx([{ text: '{#rows}{name}' }]));
    expect(loop.params).toMatchObject({ tag: 'rows', problemKey: 'docgen.tagProblem.unclosed_loop' });
  });
});

describe('the converter', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'docgen-unit-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  /** A stand-in soffice: notes how many run at once, waits, writes a "PDF" named like the input. */
  const fake = (name: string, body: string): string => {
    const file = path.join(dir, name);
    writeFileSync(file, `#!/bin/sh\n${body}\n`);
    chmodSync(file, 0o755);
    return file;
  };
  const counting = fake(
    'soffice-ok',
    `for a; do last="$a"; prev="$p"; p="$a"; done
out=$(dirname "$last")
# The counter is updated under a lock: two unlocked sed -i could both drop one line, and a later run would count too many.
( flock 9; echo x >> ${dir}/running; n=$(wc -l < ${dir}/running); echo $n >> ${dir}/peaks ) 9>${dir}/lock
sleep 0.3
( flock 9; sed -i '$ d' ${dir}/running ) 9>${dir}/lock
printf '%%PDF-1.4 fake' > "$out/document.pdf"`,
  );

  it('runs at most poolSize conversions at once, each slot on its own profile', async () => {
    writeFileSync(path.join(dir, 'running'), '');
    writeFileSync(path.join(dir, 'peaks'), '');
    const converter = createPdfConverter(() => ({ sofficePath: counting, poolSize: 2, timeoutMs: 10_000 }));
    const pdfs = await Promise.all(Array.from({ length: 5 }, () => converter.convert(Buffer.from('docx'))));
    await converter.close();
    expect(pdfs.map((p) => p.subarray(0, 4).toString())).toEqual(Array(5).fill('%PDF'));
    const peaks = (await import('node:fs'))
      .readFileSync(path.join(dir, 'peaks'), 'utf8')
      .trim()
      .split('\n')
      .map(Number);
    expect(peaks).toHaveLength(5);
    expect(Math.max(...peaks)).toBeLessThanOrEqual(2);
  });

  it('answers 503 when the program is missing, 500 when it fails or takes too long', async () => {
    const missing = createPdfConverter(() => ({ sofficePath: path.join(dir, 'none'), poolSize: 1, timeoutMs: 1000 }));
    await expect(missing.convert(Buffer.from('x'))).rejects.toMatchObject({
      statusCode: 503,
      key: 'docgen.noConverter',
    });
    const failing = createPdfConverter(() => ({
      sofficePath: fake('soffice-fail', 'exit 3'),
      poolSize: 1,
      timeoutMs: 5000,
    }));
    await expect(failing.convert(Buffer.from('x'))).rejects.toMatchObject({
      statusCode: 500,
      key: 'docgen.convertFailed',
    });
    const slow = createPdfConverter(() => ({
      sofficePath: fake('soffice-slow', 'sleep 30'),
      poolSize: 1,
      timeoutMs: 200,
    }));
    await expect(slow.convert(Buffer.from('x'))).rejects.toMatchObject({
      statusCode: 500,
      key: 'docgen.convertFailed',
    });
    // The slot is free again after a failure.
    await expect(slow.convert(Buffer.from('x'))).rejects.toMatchObject({ statusCode: 500 });
    expect(sofficeExists('sh')).toBe(true);
    expect(sofficeExists(path.join(dir, 'none'))).toBe(false);
  });
});
