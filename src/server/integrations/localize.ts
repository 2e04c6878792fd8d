import type { IntegrationAgencyDefinition } from '../../definitions/registry.ts';
import type { IntegrationMethod } from '../../generated/meta.ts';
import type { Locale } from '../../shared/locales.ts';

/**
 * A method's JSON Schema as a page shows it: each field's `titles` becomes its `title` in the
 * reader's language (the other languages are dropped), the rest stays as written.
 * @example localizeSchema({ type: 'object', properties: { inn: { type: 'string', titles: { en: 'Tax ID', … } } } }, 'en')
 */
export function localizeSchema(node: unknown, locale: Locale): unknown {
  if (Array.isArray(node)) return node.map((n) => localizeSchema(n, locale));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'titles') {
      const title = (v as Partial<Record<Locale, string>>)[locale];
      if (title) out.title = title;
    } else if (k === 'properties' && v && typeof v === 'object')
      out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, localizeSchema(s, locale)]));
    else if (
      k === 'items' ||
      k === 'if' ||
      k === 'then' ||
      k === 'else' ||
      k === 'allOf' ||
      k === 'anyOf' ||
      k === 'oneOf'
    )
      out[k] = localizeSchema(v, locale);
    else out[k] = v;
  }
  return out;
}

/** A method as the agency page receives it. */
export function localizedMethod(method: IntegrationMethod, locale: Locale) {
  return {
    id: method.id,
    title: method.title[locale],
    description: method.description,
    personalData: method.personalData,
    params: localizeSchema(method.params, locale),
    result: {
      view: method.result.view,
      ...(method.result.rows ? { rows: method.result.rows } : {}),
      schema: localizeSchema(method.result.schema, locale),
    },
  };
}

/** An agency's title in the reader's language. */
export const agencyTitle = (def: IntegrationAgencyDefinition, locale: Locale): string => def.agency.title[locale];
