/**
 * What in a stored record does not fit its entity's schema, in the words a person reads: the
 * field's pointer, its label and the problem, in the caller's language. The data-health list
 * and the status events (`GET {base}/events/{id}`) both say it this way.
 */
import type { ValidateFunction } from 'ajv';
import type { DefinitionRegistry } from '../../definitions/registry.ts';
import { resolveFieldSchema } from '../../shared/field-schema.ts';
import type { Locale } from '../../shared/locales.ts';
import { toFieldProblems, type FieldProblem } from '../../shared/validation/field-errors.ts';
import type { Translator } from '../i18n.ts';
import { createServerAjv } from '../validation.ts';

/** One problem of a stored field, told. */
export interface StoredFieldProblem {
  pointer: string;
  /** The field's label (its title) in the caller's language; the pointer when it has none. */
  label: string;
  message: string;
}

/** The judge of stored records, per entity. */
export interface RecordProblems {
  /** The schema problems of a record's data (empty when it fits). */
  of(entity: string, data: Record<string, unknown>): FieldProblem[];
  /** Problems told in a language: pointer, label, message. */
  tell(entity: string, problems: readonly FieldProblem[], locale: Locale): StoredFieldProblem[];
  /** The label of a field of an entity in a language (the pointer when it has no title). */
  label(entity: string, pointer: string, locale: Locale): string;
}

/**
 * Compiles each entity's schema once, on first use.
 * @example createRecordProblems(app.definitions, app.translator).of('contractor', data)
 */
export function createRecordProblems(registry: DefinitionRegistry, translator: Translator): RecordProblems {
  const ajv = createServerAjv();
  const validators = new Map<string, ValidateFunction>();
  const label = (entity: string, pointer: string, locale: Locale): string => {
    const schema = registry.entities.get(entity)?.schema;
    const title = schema ? resolveFieldSchema(schema, pointer)?.title : undefined;
    return title ? translator.t(locale, title) : pointer;
  };
  return {
    of(entity, data) {
      const def = registry.entities.get(entity);
      if (!def) return [];
      let validate = validators.get(entity);
      if (!validate) validators.set(entity, (validate = ajv.compile(def.schema)));
      return validate(data) ? [] : toFieldProblems(validate.errors);
    },
    tell: (entity, problems, locale) =>
      problems.map((p) => ({
        pointer: p.pointer,
        label: label(entity, p.pointer, locale),
        message: translator.t(locale, p.key, p.params),
      })),
    label,
  };
}
