import type { JSONSchema7, JSONSchema7Definition } from 'json-schema';

/**
 * The schema a draft is checked with: the record schema without `required` and without
 * conditional requirements, so half-filled input is accepted, while every value that *is*
 * there must still have the right type and format and unknown fields are still refused.
 */
export function toDraftSchema(schema: JSONSchema7): JSONSchema7 {
  const strip = (node: JSONSchema7Definition): JSONSchema7Definition => {
    if (typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === 'required' || k === 'if' || k === 'then' || k === 'else' || k === 'minItems') continue;
      if (k === 'properties' || k === 'definitions')
        out[k] = Object.fromEntries(
          Object.entries(v as object).map(([p, c]) => [p, strip(c as JSONSchema7Definition)]),
        );
      else if (k === 'items' && !Array.isArray(v)) out[k] = strip(v as JSONSchema7Definition);
      else if (k === 'allOf' || k === 'anyOf' || k === 'oneOf') out[k] = (v as JSONSchema7Definition[]).map(strip);
      else out[k] = v;
    }
    return out as JSONSchema7;
  };
  return strip(schema) as JSONSchema7;
}
