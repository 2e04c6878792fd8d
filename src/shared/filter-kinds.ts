/**
 * The registry of grid filter kinds (`schemas/_meta/grid.schema.json` → `filters[].kind`): what
 * each kind means on the wire, shared by the server and the browser. One entry per kind owns
 * the query-string names a filter of that kind occupies, the JSON Schema of those parameters,
 * how their raw values parse into one typed value, and the facts `npm run check` and the
 * table's indexes need. The SQL of a kind lives in `src/server/store/filter-sql.ts`, its
 * control in `src/engine/list/filter-controls.tsx`; both are keyed by the same names and
 * typed so that a kind missing on either side is a compile error.
 *
 * React-free and server-free: it imports types only.
 */
import type { JSONSchema7 } from 'json-schema';
import type { GridDefinition } from '../generated/meta.ts';

/** One filter of a grid (`grid.json` → `filters[]`). */
export type GridFilter = GridDefinition['filters'][number];

/** The name of a filter kind, from the grid meta-schema's enum. */
export type FilterKind = GridFilter['kind'];

/** A date range's day bounds (`YYYY-MM-DD`); a missing bound leaves that side open. */
export interface DateBounds {
  from?: string;
  to?: string;
}

/** A number range's bounds as the query gave them (already typed by the query schema). */
export interface NumberBounds {
  from?: unknown;
  to?: unknown;
}

/**
 * The typed value of each kind once its query parameters are parsed. A kind added to the
 * meta-schema must be added here too: {@link FILTER_KINDS} is typed by both key sets.
 */
export interface FilterValues {
  /** Lower-cased, trimmed search text. */
  keyword: string;
  /** The value as the query schema typed it (string, number or boolean). */
  eq: unknown;
  /** The items of a comma-separated list, trimmed. */
  in: string[];
  dateRange: DateBounds;
  range: NumberBounds;
  /** `true`/`false` as the query schema typed it. */
  bool: unknown;
  /** Given (`<name>=true`): only the signed-in user's records. */
  currentUser: true;
  /** Given (`true`): only the rows whose field holds the viewer's own unit. */
  myUnit: true;
  /** Given (`<name>=true`): only the records whose field has no value. */
  empty: true;
}

/** Raw query values by parameter name (what list-search's query string holds). */
export type RawFilterValues = Readonly<Record<string, unknown>>;

/** What one filter kind is, apart from its SQL and its control. */
export interface FilterKindDescriptor<V> {
  /**
   * The query-string names a filter called `name` occupies.
   * @example FILTER_KINDS.range.params('price') // ['priceFrom', 'priceTo']
   */
  params(name: string): string[];
  /**
   * JSON Schema of each of those parameters. `scalar` is the schema of the filtered field's
   * scalar value (a bounded string when the kind has no field or the field is not scalar).
   */
  querySchema(name: string, scalar: JSONSchema7): Record<string, JSONSchema7>;
  /**
   * The filter's value from the raw query values, or `undefined` when the filter is not
   * given (then it adds no condition).
   */
  parse(raw: RawFilterValues, name: string): V | undefined;
  /** Record types its field must have (`npm run check`); absent: any scalar. */
  fieldTypes?: readonly string[];
  /** Searches the manifest's keyword fields instead of a field of its own. */
  keywordSearch?: boolean;
  /** Compares for equality: its column leads an index with the default sort (a filtered first page is a range scan). */
  equality?: boolean;
  /** Its field may be an array (of user ids) and is read from `data`, without a typed column of its own. */
  arrayField?: boolean;
}

/** A string parameter's bound when it has no better schema. */
const TEXT: JSONSchema7 = { type: 'string', maxLength: 200 };

const one = (name: string): string[] => [name];
const given = (value: unknown): boolean => value !== undefined && value !== '';
/** eq and bool: the one parameter as typed, when given. */
const parseScalar = (raw: RawFilterValues, name: string): unknown => (given(raw[name]) ? raw[name] : undefined);

/**
 * Every filter kind, one entry each.
 * @example FILTER_KINDS.dateRange.params('created') // ['created', 'createdFrom', 'createdTo']
 */
export const FILTER_KINDS: { readonly [K in FilterKind]: FilterKindDescriptor<FilterValues[K]> } = {
  keyword: {
    params: one,
    querySchema: (name) => ({ [name]: TEXT }),
    parse(raw, name) {
      const value = raw[name];
      const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
      return text || undefined;
    },
    keywordSearch: true,
  },
  eq: {
    params: one,
    querySchema: (name, scalar) => ({ [name]: scalar }),
    parse: parseScalar,
    equality: true,
  },
  in: {
    params: one,
    querySchema: (name) => ({ [name]: { type: 'string', maxLength: 2000, pattern: '^[^,]+(,[^,]+)*$' } }),
    parse(raw, name) {
      const value = raw[name];
      return typeof value === 'string' && value ? value.split(',').map((v) => v.trim()) : undefined;
    },
    equality: true,
  },
  dateRange: {
    // `<name>` alone is one day: both bounds.
    params: (name) => [name, `${name}From`, `${name}To`],
    querySchema: (name) =>
      Object.fromEntries(['', 'From', 'To'].map((suffix) => [`${name}${suffix}`, { type: 'string', format: 'date' }])),
    parse(raw, name) {
      const from = (raw[`${name}From`] ?? raw[name]) as string | undefined;
      const to = (raw[`${name}To`] ?? raw[name]) as string | undefined;
      return from || to ? { ...(from ? { from } : {}), ...(to ? { to } : {}) } : undefined;
    },
    fieldTypes: ['string'],
  },
  range: {
    params: (name) => [`${name}From`, `${name}To`],
    querySchema: (name) => Object.fromEntries(['From', 'To'].map((suffix) => [`${name}${suffix}`, { type: 'number' }])),
    parse(raw, name) {
      const from = raw[`${name}From`];
      const to = raw[`${name}To`];
      return from !== undefined || to !== undefined
        ? { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) }
        : undefined;
    },
    fieldTypes: ['number', 'integer'],
  },
  bool: {
    params: one,
    querySchema: (name, scalar) => ({ [name]: scalar }),
    parse: parseScalar,
    fieldTypes: ['boolean'],
    equality: true,
  },
  currentUser: {
    params: one,
    querySchema: (name) => ({ [name]: { type: 'boolean' } }),
    parse: (raw, name) => (raw[name] === true || raw[name] === 'true' ? true : undefined),
    fieldTypes: ['integer', 'string', 'array'],
    arrayField: true,
  },
  // The viewer's own unit (their staff card's department, access.json unitPermissions): a box
  // of "what reached my department" whose value the server knows and the query never carries.
  myUnit: {
    params: one,
    querySchema: (name) => ({ [name]: { type: 'boolean' } }),
    parse: (raw, name) => (raw[name] === true || raw[name] === 'true' ? true : undefined),
    fieldTypes: ['integer'],
  },
  empty: {
    params: one,
    querySchema: (name) => ({ [name]: { type: 'boolean' } }),
    parse: (raw, name) => (raw[name] === true || raw[name] === 'true' ? true : undefined),
  },
};

/** The kind names, in the meta-schema's order. */
export const FILTER_KIND_NAMES = Object.keys(FILTER_KINDS) as FilterKind[];

/**
 * The query names one filter occupies ({@link FilterKindDescriptor.params}); none for a kind
 * that does not exist (a grid `npm run check` reports), so the rules reading other definitions
 * through it (dashboards, measure filters) report their own problems rather than crash.
 */
export const filterParamNames = (filter: Pick<GridFilter, 'name' | 'kind'>): string[] =>
  Object.hasOwn(FILTER_KINDS, filter.kind) ? FILTER_KINDS[filter.kind].params(filter.name) : [];
