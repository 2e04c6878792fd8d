import type Ajv from 'ajv';
import { _, type KeywordCxt, type KeywordDefinition } from 'ajv';

/**
 * The portal's own string formats, shared by the server (request validation) and the
 * client (rjsf's validator-ajv8 via `customizeValidator({ customFormats })`).
 * Every pattern is anchored: the legacy portal's phone rule was not, and accepted
 * anything that merely started like a phone number.
 */
export const portalFormats = {
  /** `+99890-123-45-67`: optional plus, 8/9 prefix digits, operator code, dashed number. */
  phoneNumber: /^[+]?[8-9]{1,3}[0-9]{2}-[0-9]{3}-[0-9]{2}-[0-9]{2}$/,
  /** Either a phone number in the form above or an e-mail address. */
  phoneOrEmail: /^(?:[+]?[8-9]{1,3}[0-9]{2}-[0-9]{3}-[0-9]{2}-[0-9]{2}|[^\s@]+@[^\s@]+\.[^\s@]{2,})$/,
  /** Tax identification number (STIR / INN): 9 digits. */
  stir: /^[0-9]{9}$/,
  /** Personal identification number (PINFL / JSHSHIR): 14 digits. */
  pinfl: /^[0-9]{14}$/,
  /** National product classifier code (MXIK / IKPU): 17 digits. */
  mxik: /^[0-9]{17}$/,
  /** A case number: letters and digits in groups joined by "-" or "/" (e.g. 14-05/123); public case tracking refuses one without them. */
  caseNumber: /^[^\s/-]+(?:[-/][^\s/-]+)+$/,
  /** A cadastre number of real estate: a two-digit region then four to seven groups of digits joined by ":" (10:07:01:02:03:0045). */
  cadastre: /^[0-9]{2}(?::[0-9]{1,4}){4,7}$/,
  /** Customs tariff code (TN VED / HS): 10 digits. */
  tnved: /^[0-9]{10}$/,
  /** Post index: 6 digits. */
  postIndex: /^[0-9]{6}$/,
  /** A whole number typed as text. */
  integer: /^-?[0-9]+$/,
  /** A decimal number typed as text (dot or comma). */
  double: /^-?[0-9]+(?:[.,][0-9]+)?$/,
} as const satisfies Record<string, RegExp>;

export type PortalFormat = keyof typeof portalFormats;

/**
 * The portal's own keywords. `positive` (≥ 0) and `positiveNotZero` (> 0) validate numbers;
 * `reference` (a reference-list kind, checked against the database by the store) and
 * `file` (the value holds uploaded file ids) are annotations ajv must accept, and so is
 * `entityRef: {entity}` (the value is the id of a record of that entity; the server's store
 * checks that it exists, the form offers a search by keyword), `staffUser: true` (the value
 * is a staff user's id: the server checks it, the form offers the staff picker) and
 * `valueLabels` (the key prefix of the texts that name the values).
 */
export const portalKeywords: KeywordDefinition[] = [
  // Defined by the code they compile to (not by a function ajv calls): the form validators
  // generated at build time (scripts/form-validators.ts) inline it, and a function could not
  // be. The errors are the same as a function keyword's (`must pass "positive" keyword validation`).
  {
    keyword: 'positive',
    type: 'number',
    schemaType: 'boolean',
    code: (cxt: KeywordCxt) => cxt.fail(_`${cxt.schema} && !(${cxt.data} >= 0)`),
  },
  {
    keyword: 'positiveNotZero',
    type: 'number',
    schemaType: 'boolean',
    code: (cxt: KeywordCxt) => cxt.fail(_`${cxt.schema} && !(${cxt.data} > 0)`),
  },
  {
    keyword: 'reference',
    schemaType: 'object',
    metaSchema: {
      type: 'object',
      required: ['list'],
      additionalProperties: false,
      properties: {
        list: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' },
        parentField: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
      },
    },
  },
  { keyword: 'file', schemaType: 'boolean' },
  // An integration method's field names in four languages (schemas/_integrations): the
  // server turns them into `title` in the reader's language before the page sees the schema.
  { keyword: 'titles', schemaType: 'object' },
  // The texts naming the field's values in each language: `<valueLabels>.<value>` (a role's
  // code → its name); pages show the text where there is one, else the value.
  { keyword: 'valueLabels', schemaType: 'string' },
  // The value is the user id of a staff member who may sign in; the server checks it against
  // the staff directory (access.json), the form offers the staff picker, pages show the name.
  { keyword: 'staffUser', schemaType: 'boolean' },
  {
    keyword: 'entityRef',
    schemaType: 'object',
    metaSchema: {
      type: 'object',
      required: ['entity'],
      additionalProperties: false,
      properties: { entity: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' } },
    },
  },
];

/**
 * Adds the portal's formats and keywords to an Ajv instance (which should already have
 * ajv-formats applied).
 * @example addPortalVocabulary(addFormats(new Ajv({ allErrors: true })))
 */
export function addPortalVocabulary<T extends Ajv>(ajv: T): T {
  for (const [name, pattern] of Object.entries(portalFormats)) ajv.addFormat(name, pattern);
  for (const keyword of portalKeywords) ajv.addKeyword(keyword);
  return ajv;
}
