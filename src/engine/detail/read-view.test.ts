/**
 * What the record page reads from a uiSchema (read-view.ts): a form-hidden field stays off the
 * page unless `ui:options.onRecord`; `ui:options.format` picks a list format (a year without
 * grouping); an array of `entityRef` ids reads as links to those records.
 */
import { describe, expect, it } from 'vitest';
import type { JSONSchema7 } from 'json-schema';
import { readSections } from './read-view.ts';

const schema = {
  type: 'object',
  properties: {
    year: { type: 'integer', title: 'y' },
    count: { type: 'integer', title: 'c' },
    secret: { type: 'string' },
    reason: { type: 'string' },
    sources: { type: 'array', items: { type: 'integer', entityRef: { entity: 'report' } } },
  },
} as JSONSchema7;

describe('readSections', () => {
  const fields = readSections(schema, {
    year: { 'ui:options': { format: 'year' } },
    secret: { 'ui:widget': 'hidden' },
    reason: { 'ui:widget': 'hidden', 'ui:options': { onRecord: true } },
    sources: { 'ui:widget': 'hidden', 'ui:options': { onRecord: true } },
  })[0]!.fields;
  const byPointer = new Map(fields.map((f) => [f.pointer, f]));

  it('leaves a form-hidden field off the page unless it says onRecord', () => {
    expect([...byPointer.keys()]).toEqual(['/year', '/count', '/reason', '/sources']);
  });

  it('shows a value in the format its ui:options name, else as the list derives it', () => {
    expect(byPointer.get('/year')!.format).toEqual({ kind: 'year' });
    expect(byPointer.get('/count')!.format).toEqual({ kind: 'number' });
  });

  it('reads an array of record ids as links to those records', () => {
    expect(byPointer.get('/sources')).toMatchObject({ kind: 'entityRef', entity: 'report' });
  });
});
