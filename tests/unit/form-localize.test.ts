import { describe, expect, it } from 'vitest';
import type { RJSFSchema } from '@rjsf/utils';
import { createServerAjv } from '../../src/server/validation.ts';
import { toFieldProblems } from '../../src/shared/validation/field-errors.ts';
import { localizeErrors, propertyToPointer, toErrorSchema } from '../../src/engine/form/localize.ts';
import {
  decodeMessage,
  encodeMessage,
  translateMessage,
  translateTitle,
  type Translator,
} from '../../src/engine/form/messages.ts';
import { pathToPointer, pointerToPath } from '../../src/engine/form/pointer.ts';
import { getAtPointer } from '../../src/shared/pointer.ts';
import { portalValidator } from '../../src/engine/form/validator.ts';

// Shaped like a real record schema: nested required fields, portal formats, limits, a reference,
// a file list and an if/then that makes two fields required for legal persons.
const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  additionalProperties: false,
  required: ['applicantType', 'regionId', 'shortDescription', 'phone', 'customer'],
  properties: {
    applicantType: {
      type: 'string',
      oneOf: [
        { const: 'INDIVIDUAL', title: 'test.option.INDIVIDUAL' },
        { const: 'LEGAL', title: 'test.option.LEGAL' },
      ],
    },
    stir: { type: 'string', format: 'stir', maxLength: 9 },
    organizationName: { type: 'string', maxLength: 255 },
    regionId: { type: 'integer', reference: { list: 'region' } },
    shortDescription: { type: 'string', minLength: 1, maxLength: 500 },
    content: { type: 'string', maxLength: 10000 },
    phone: { type: 'string', format: 'phoneNumber', maxLength: 20 },
    email: { type: 'string', format: 'email', maxLength: 254 },
    postIndex: { type: 'string', format: 'postIndex', maxLength: 6 },
    amount: { type: 'number', positive: true },
    customer: {
      type: 'object',
      additionalProperties: false,
      required: ['surname', 'name', 'pnfl'],
      properties: {
        surname: { type: 'string', minLength: 1 },
        name: { type: 'string', minLength: 1 },
        pnfl: { type: 'string', format: 'pinfl' },
      },
    },
    files: { type: 'array', items: { type: 'string', format: 'uuid' }, maxItems: 5, uniqueItems: true, file: true },
  },
  if: { properties: { applicantType: { const: 'LEGAL' } }, required: ['applicantType'] },
  then: { required: ['stir', 'organizationName'] },
} as RJSFSchema;

/** What the client shows: one {pointer, key, params} per field. */
function clientProblems(data: unknown) {
  const { errors } = portalValidator.validateFormData(data, schema, undefined, localizeErrors);
  return errors.map((e) => ({ pointer: propertyToPointer(e.property), ...decodeMessage(e.message ?? '') }));
}

/** What the server answers in a 400. */
function serverProblems(data: unknown) {
  const validate = createServerAjv().compile(schema);
  validate(data);
  return toFieldProblems(validate.errors).map(({ pointer, key, params }) => ({ pointer, key, params }));
}

const byPointer = <T extends { pointer: string }>(list: T[]) =>
  [...list].sort((a, b) => a.pointer.localeCompare(b.pointer));

describe('client validation says what the server says', () => {
  it('gives the same field problems for an invalid record', () => {
    const data = {
      applicantType: 'LEGAL',
      regionId: 1,
      shortDescription: '',
      amount: -5,
      content: 'x'.repeat(10001),
      phone: '+998 90 123',
      email: 'no-at-sign',
      postIndex: '12',
      customer: { surname: 'K', pnfl: '123' },
      files: [],
    };
    const client = byPointer(clientProblems(data));
    expect(client).toEqual(byPointer(serverProblems(data)));
    expect(client.map((p) => p.key)).toEqual(
      expect.arrayContaining([
        'validation.required',
        'validation.phoneNumber',
        'validation.email',
        'validation.pinfl',
        'validation.postIndex',
        'validation.maxLength',
        'validation.minLength',
        'validation.positive',
      ]),
    );
    // The conditional LEGAL → stir, organizationName is checked on the client too.
    expect(client.filter((p) => p.pointer === '/stir' || p.pointer === '/organizationName').map((p) => p.key)).toEqual([
      'validation.required',
      'validation.required',
    ]);
  });

  it('accepts what the server accepts', () => {
    const data = {
      applicantType: 'INDIVIDUAL',
      regionId: 1,
      shortDescription: 'Price tag missing',
      content: 'The shop has no price tags.',
      phone: '+99890-123-45-67',
      customer: { surname: 'Karimov', name: 'Anvar', pnfl: '12345678901234' },
      files: [],
    };
    expect(clientProblems(data)).toEqual([]);
    expect(serverProblems(data)).toEqual([]);
  });
});

describe('server field errors and messages', () => {
  it('builds rjsf extraErrors from {pointer: message}', () => {
    expect(
      toErrorSchema({ '/customer/pnfl': 'taken', '/participants/0/name': 'required', '': 'whole record' }),
    ).toEqual({
      __errors: ['whole record'],
      customer: { pnfl: { __errors: ['taken'] } },
      participants: { 0: { name: { __errors: ['required'] } } },
    });
  });

  const i18n: Translator = {
    exists: (k) => ['validation.minLength', 'test.x.title'].includes(k),
    t: (k, o) => (k === 'validation.minLength' ? `at least ${String(o?.limit)}` : `T(${k})`),
  };

  it('translates encoded keys with their params and leaves server text alone', () => {
    expect(translateMessage(i18n, encodeMessage('validation.minLength', { limit: 3 }))).toBe('at least 3');
    expect(translateMessage(i18n, 'This personal ID is already registered')).toBe(
      'This personal ID is already registered',
    );
  });

  it('translates titles, numbering list items', () => {
    expect(translateTitle(i18n, 'test.x.title')).toBe('T(test.x.title)');
    expect(translateTitle(i18n, 'test.x.title-3')).toBe('T(test.x.title) 3');
    expect(translateTitle(i18n, 'lat')).toBe('lat');
  });

  it('maps field paths to JSON pointers and back', () => {
    expect(pathToPointer(['participants', 0, 'name'])).toBe('/participants/0/name');
    expect(pointerToPath('/participants/0/name')).toEqual(['participants', 0, 'name']);
    expect(getAtPointer({ a: [{ b: 1 }] }, '/a/0/b')).toBe(1);
    expect(propertyToPointer('.customer.pnfl')).toBe('/customer/pnfl');
    expect(propertyToPointer('applicantType')).toBe('/applicantType');
  });
});
