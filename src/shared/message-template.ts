/**
 * Message templates kept as records (a manifest's `messageTemplates`, e.g. the SMS templates
 * admins edit): texts with `{{placeholders}}` named after the fields of the entity the message
 * is about — dotted paths of its scalar fields (`number`, `consumer.firstName`) — plus the
 * parameters every transition notice has. One module for the check at save time (server store
 * and `npm run check` of seeded templates), the rendering at transition time and the admin
 * form's hint. Isomorphic: no server or React imports.
 */
import type { JSONSchema7 } from 'json-schema';
import { deref, scalarType } from './field-schema.ts';
import { valueAt } from './pointer.ts';

/** The parameters every transition notice has besides the record's fields (see workflow/notices.ts). */
export const NOTICE_PARAMS = ['id', 'label', 'status', 'event', 'deadline'] as const;

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/**
 * The placeholder names of a text, in order, each once.
 * @example placeholdersOf('Appeal {{number}}: {{ status }}') // ['number', 'status']
 */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

/**
 * The placeholder names a record of this schema offers: the dotted paths of its scalar fields
 * (objects are entered; arrays and files are not, as a text cannot hold them), then the notice
 * parameters.
 * @example placeholderNames({type: 'object', properties: {consumer: {type: 'object', properties: {phone: {type: 'string'}}}}}) // ['consumer.phone', 'id', …]
 */
export function placeholderNames(schema: JSONSchema7): string[] {
  const out: string[] = [];
  const walk = (node: JSONSchema7 | undefined, path: string[]): void => {
    if (!node) return;
    if (node.type === 'object' || node.properties) {
      for (const [name, child] of Object.entries(node.properties ?? {})) walk(deref(schema, child), [...path, name]);
      return;
    }
    const type = scalarType(node);
    const isFile = (node as { file?: unknown }).file !== undefined;
    if (path.length && type && type !== 'array' && type !== 'object' && !isFile) out.push(path.join('.'));
  };
  walk(schema, []);
  return [...new Set([...out, ...NOTICE_PARAMS])];
}

/** The placeholders of `text` that are not among `allowed`. */
export const unknownPlaceholders = (text: string, allowed: ReadonlySet<string>): string[] =>
  placeholdersOf(text).filter((name) => !allowed.has(name));

/**
 * The text with each placeholder replaced: a notice parameter from `params`, else the record's
 * field at the dotted path; a missing value becomes empty text.
 * @example renderTemplate('No. {{number}} is {{status}}', {number: 'A-1'}, {status: 'Finished'}) // 'No. A-1 is Finished'
 */
export function renderTemplate(
  text: string,
  record: Record<string, unknown>,
  params: Readonly<Record<string, unknown>>,
): string {
  return text.replace(PLACEHOLDER, (_all, name: string) => {
    const value = Object.hasOwn(params, name) ? params[name] : valueAt(record, `/${name.split('.').join('/')}`);
    return value === undefined || value === null ? '' : String(value);
  });
}
