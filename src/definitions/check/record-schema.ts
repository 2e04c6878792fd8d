/**
 * `npm run check` rule for record schemas (`schemas/<entity>/schema.json`): valid against the
 * record meta-schema, compiling under a strict ajv with the portal vocabulary (a misspelt
 * keyword fails), every declared property titled with an i18n key, every `reference` naming
 * a list that exists and a sibling parent field, every `required` name a property of its
 * object, every `format` a known one (named at its field). Sets `schema` on the entity for the rules
 * after it. `checkRecordSchema` also serves the forms screens declare (flow steps, actions).
 */
import type { JSONSchema7 } from 'json-schema';
import type { ReferenceList } from '../../generated/meta.ts';
import { META_FOR, escape, type CheckContext, type CheckRule, type Report, type UseKey } from './context.ts';
import { didYouMean, unknownNameMessage } from './suggest.ts';

/** Record schemas: meta-schema, strict compile, titles and reference lists. */
export const recordSchemasRule: CheckRule = {
  name: 'record schemas',
  run(ctx) {
    for (const entry of ctx.entityList) {
      const { schemaFile } = entry;
      if (!schemaFile || !ctx.metaValid(schemaFile, META_FOR.record)) continue;
      const schema = ctx.json<JSONSchema7>(schemaFile);
      checkRecordSchemaFile(ctx, schemaFile, schema);
      entry.schema = schema;
    }
  },
};

/**
 * One record schema valid against its meta-schema: formats, a strict compile with the portal
 * vocabulary, titles, references, required names. Also serves the admin playground.
 */
export function checkRecordSchemaFile(ctx: CheckContext, schemaFile: string, schema: JSONSchema7): void {
  const formats = checkFormats(schemaFile, schema, Object.keys(ctx.strict.formats), ctx.report);
  try {
    ctx.strict.compile(schema);
  } catch (error) {
    // An unknown format is already named at its field, in words; ajv would add "#/…" text.
    if (!formats) ctx.report(schemaFile, '', `does not compile: ${(error as Error).message}`);
  }
  checkRecordSchema(schemaFile, schema, ctx.references, ctx.report, ctx.useKey);
}

/**
 * Reports each `format` the portal's ajv does not know at its own pointer, with the close
 * name and the allowed ones (pointers below `base`); returns how many. (A `format` key that is not a string is a
 * property named "format", not the keyword.)
 * @example checkFormats('schemas/tender/schema.json', schema, Object.keys(ctx.strict.formats), ctx.report)
 */
export function checkFormats(file: string, root: JSONSchema7, known: string[], report: Report, base = ''): number {
  let count = 0;
  const walk = (node: unknown, pointer: string): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${pointer}/${i}`));
    for (const [key, value] of Object.entries(node)) {
      if (key === 'format' && typeof value === 'string' && !known.includes(value)) {
        count++;
        report(file, `${pointer}/format`, unknownNameMessage('format', value, 'a known format', known));
      } else if (!['enum', 'const', 'default', 'examples'].includes(key)) walk(value, `${pointer}/${escape(key)}`);
    }
  };
  walk(root, base);
  return count;
}

/**
 * Titles are i18n keys; every declared property has one; reference lists and parents exist.
 * @example checkRecordSchema('screens/register.json', step.schema, ctx.references, ctx.report, ctx.useKey)
 */
export function checkRecordSchema(
  file: string,
  root: JSONSchema7,
  references: Map<string, ReferenceList>,
  report: Report,
  useKey: UseKey,
): void {
  // `declaring` is false inside if/then/else and combinators: properties there only
  // constrain fields declared elsewhere, so they need no title of their own.
  // `owner`: the object whose fields a non-declaring `required` (in then/else/allOf…) names.
  const walk = (node: unknown, pointer: string, parent?: JSONSchema7, declaring = true, owner?: JSONSchema7): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      node.forEach((n, i) => walk(n, `${pointer}/${i}`, parent, declaring, owner));
      return;
    }
    const schema = node as JSONSchema7 & { reference?: { list: string; parentField?: string } };
    if (Array.isArray(schema.required) && (declaring || owner)) {
      // A required field the object lacks makes every record invalid: nothing could be created.
      const known = [
        ...Object.keys(schema.properties ?? {}),
        ...(declaring ? [] : Object.keys(owner?.properties ?? {})),
      ];
      schema.required.forEach((name, i) => {
        if (!known.includes(name))
          report(
            file,
            `${pointer}/required/${i}`,
            unknownNameMessage('required field', name, 'a property of this object', known),
          );
      });
    }
    if (typeof schema.title === 'string') useKey(file, `${pointer}/title`, schema.title);
    if (schema.reference) {
      if (!references.has(schema.reference.list))
        report(
          file,
          `${pointer}/reference/list`,
          `reference list "${schema.reference.list}" does not exist${didYouMean(schema.reference.list, references.keys())}`,
        );
      const pf = schema.reference.parentField;
      if (pf && !parent?.properties?.[pf])
        report(file, `${pointer}/reference/parentField`, `sibling field "${pf}" does not exist`);
    }
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'properties' || key === 'definitions') {
        for (const [name, child] of Object.entries(value as Record<string, JSONSchema7>)) {
          if (
            declaring &&
            key === 'properties' &&
            typeof child === 'object' &&
            !child.$ref &&
            typeof child.title !== 'string'
          ) {
            report(file, `${pointer}/properties/${escape(name)}`, 'property has no title (an i18n key)');
          }
          walk(child, `${pointer}/${key}/${escape(name)}`, schema, declaring);
        }
      } else if (key === 'items' || key === 'additionalItems') {
        walk(value, `${pointer}/${key}`, schema, declaring);
      } else if (['oneOf', 'anyOf', 'allOf', 'if', 'then', 'else', 'not'].includes(key)) {
        walk(value, `${pointer}/${key}`, schema, false, declaring ? schema : owner);
      }
    }
  };
  walk(root, '');
}
