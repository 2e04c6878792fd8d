import type Ajv from 'ajv';
import { _, type KeywordCxt, type KeywordDefinition } from 'ajv';

// The formats live in a module of their own: the browser's form needs them (field-errors.ts)
// but not ajv, which the keywords below import.
import { portalFormats } from './formats.ts';

export { portalFormats, type PortalFormat } from './formats.ts';

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
