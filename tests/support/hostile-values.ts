import RandExp from 'randexp';

/** A JSON Schema as the OpenAPI document holds it (3.1: plain JSON Schema). */
export type DocSchema = {
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  examples?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  items?: DocSchema;
  properties?: Record<string, DocSchema>;
  required?: string[];
  contentMediaType?: string;
};

const DEPTH = 1000;
const nested = (depth: number): unknown => {
  let value: unknown = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
};
const BIG = 'x'.repeat(100_000);
const SQL = ["' OR 1=1--", "'; DROP TABLE x;--"];
const PATHS = ['../../etc/passwd', '%2e%2e%2f'];

/** The first type a schema names other than null. */
export const typeOf = (schema: DocSchema | undefined): string | undefined =>
  Array.isArray(schema?.type) ? schema.type.find((t) => t !== 'null') : schema?.type;

/** A value of another type than the schema's (a string for a number, a number for a string…). */
export function wrongType(schema: DocSchema | undefined): unknown {
  switch (typeOf(schema)) {
    case 'string':
      return 12345;
    case 'integer':
    case 'number':
      return 'abc';
    case 'boolean':
      return 'yes';
    case 'array':
      return { a: 1 };
    case 'object':
      return 'x';
    default:
      return [[]];
  }
}

/**
 * The hostile values of the issue (#14) for one JSON field: NUL, a lone surrogate, 1e20,
 * 2^63, −1, empty, 100 kB, the wrong type, 1,000-deep nesting, SQL and path fragments.
 */
export function hostileJson(schema: DocSchema | undefined): Array<{ label: string; value: unknown }> {
  return [
    { label: 'NUL', value: 'a\u0000b' },
    { label: 'lone surrogate', value: '\ud800' },
    { label: '1e20', value: 1e20 },
    { label: '2^63', value: 2 ** 63 },
    { label: '-1', value: -1 },
    { label: 'empty', value: '' },
    { label: '100 kB', value: BIG },
    { label: 'wrong type', value: wrongType(schema) },
    { label: '1000-deep', value: nested(DEPTH) },
    ...SQL.map((value) => ({ label: 'SQL', value })),
    ...PATHS.map((value) => ({ label: 'path', value })),
  ];
}

/**
 * The same values as text, for a path, a query or a multipart field: `encoded` is what goes
 * into a URL (a lone surrogate has no UTF-8 form, so its CESU bytes are sent), `text` what a
 * multipart field carries. `repeat` sends the parameter twice (an array where one value is due).
 */
export function hostileText(): Array<{ label: string; text: string; encoded: string; repeat?: boolean }> {
  const plain = (label: string, text: string) => ({ label, text, encoded: encodeURIComponent(text) });
  return [
    plain('NUL', 'a\u0000b'),
    { label: 'lone surrogate', text: '\udc00', encoded: '%ED%B0%80' },
    plain('1e20', '1e20'),
    plain('2^63', '9223372036854775808'),
    plain('-1', '-1'),
    plain('empty', ''),
    plain('100 kB', BIG),
    { ...plain('wrong type', 'abc'), repeat: true },
    plain('1000-deep', '['.repeat(DEPTH)),
    ...SQL.map((s) => plain('SQL', s)),
    ...PATHS.map((s) => plain('path', s)),
  ];
}

/** A plausible valid value for a schema, the same every run: its example, const, enum or default, else one made from its type, format and pattern. */
export function validValue(schema: DocSchema | undefined): unknown {
  if (!schema) return 'fuzz';
  if (schema.examples?.length) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  switch (typeOf(schema)) {
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => validValue(schema.items));
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((name) => [name, validValue(schema.properties?.[name])]));
    case 'string': {
      const byFormat: Record<string, string> = {
        date: '2026-01-15',
        'date-time': '2026-01-15T10:00:00.000Z',
        uuid: '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f',
        email: 'fuzz@example.uz',
        uri: 'https://example.uz/',
      };
      if (schema.format && byFormat[schema.format]) return byFormat[schema.format];
      if (schema.pattern) {
        // The same string every run: the first character of every class, the fewest repeats.
        const gen = new RandExp(schema.pattern);
        gen.max = 3;
        gen.randInt = (a: number) => a;
        return gen.gen();
      }
      return 'fuzz'.padEnd(schema.minLength ?? 0, 'z');
    }
    default:
      return 'fuzz';
  }
}
