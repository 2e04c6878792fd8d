import { createHash } from 'node:crypto';
import type { JSONSchema7 } from 'json-schema';
import type { EntityDefinition } from '../../definitions/registry.ts';
import type { MachineDefinition } from '../../generated/meta.ts';
import { BUSINESS_UTC_OFFSET_MINUTES } from '../../shared/time-zone.ts';
import { isSystemPointer, resolveFieldSchema, scalarType } from '../../shared/field-schema.ts';
import { pointerSegments, sqlText } from '../../shared/pointer.ts';
import { FILTER_KINDS } from '../../shared/filter-kinds.ts';

export type SqlType = 'text' | 'bigint' | 'numeric' | 'boolean' | 'date' | 'timestamptz';

/** A typed column derived from a record field, kept in step with `data` on every write. */
export interface DerivedColumn {
  pointer: string;
  /** Quoted SQL identifier. */
  column: string;
  type: SqlType;
  /** SQL expression computing the column from a jsonb expression (`data` or `$1::jsonb`). */
  expr(source: string): string;
}

/** How one entity is stored: its table, derived columns, indexes and DDL. */
export interface EntityTable {
  entity: string;
  table: string;
  /** Derived and system columns by record pointer (`/status`, `/createdAt`, `/regionId`…). */
  columns: Map<string, DerivedColumn>;
  /**
   * SQL computing the lower-cased keyword text, or undefined when the entity has none. With
   * `fields`, the text of those keyword fields only (for a reader who may not see the others).
   */
  keywordExpr: ((source: string, fields?: readonly string[]) => string) | undefined;
  /** SQL computing the region column, or undefined. */
  regionExpr: ((source: string) => string) | undefined;
  /** Idempotent DDL statements (table, columns, indexes). */
  ddl: string[];
  /** Unique indexes (from the manifest's `unique`) by index name → the field they guard. */
  uniqueIndexes: Map<string, string>;
  /**
   * Every column the server computes from `data` on each write (derived, keywords, region,
   * due_at); `status` is the SQL of the record's status at that write (default: the column).
   */
  computed: Array<{ column: string; expr(source: string, status?: string): string }>;
  /** Whether the table has the `due_at` column (its machine keeps deadlines). */
  hasDueAt: boolean;
  /** Hash of the DDL, recorded in _ddl_log. */
  hash: string;
}

const SYSTEM_COLUMNS: Record<string, { column: string; type: SqlType }> = {
  '/id': { column: 'id', type: 'bigint' },
  '/version': { column: 'version', type: 'bigint' },
  '/status': { column: 'status', type: 'text' },
  '/owner': { column: 'owner', type: 'text' },
  '/createdAt': { column: 'created_at', type: 'timestamptz' },
  '/updatedAt': { column: 'updated_at', type: 'timestamptz' },
};

const snake = (s: string): string => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/** `e_` + the entity id in snake case: `price-report` → `e_price_report`. */
export const tableName = (entity: string): string => `e_${entity.replace(/-/g, '_')}`;

function sqlTypeOf(schema: JSONSchema7): SqlType {
  const type = scalarType(schema);
  if (type === 'integer') return 'bigint';
  if (type === 'number') return 'numeric';
  if (type === 'boolean') return 'boolean';
  if (schema.format === 'date') return 'date';
  if (schema.format === 'date-time') return 'timestamptz';
  return 'text';
}

function derivedColumn(pointer: string, type: SqlType): DerivedColumn {
  const column = `"f_${pointerSegments(pointer).map(snake).join('__')}"`;
  return {
    pointer,
    column,
    type,
    expr: (source) => (type === 'text' ? sqlText(pointer, source) : `NULLIF(${sqlText(pointer, source)}, '')::${type}`),
  };
}

const shortHash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 10);

/**
 * Derives the table of an entity from its definition: a typed column for every field the
 * grid sorts or filters on, a region column from the manifest's scope, a keyword column
 * from its keyword fields, and the indexes list-search needs.
 */
/**
 * The `due_at` column's SQL: the deadline field of the state the record is in (see the
 * machine's `deadline`), as a timestamp; NULL in states without a deadline. A date is due at
 * the end of that day in Tashkent (23:59:59.999 local, 18:59:59.999 UTC; see
 * src/shared/business-day.ts), a date-time at that instant. The sweep moves records whose
 * due moment is before now.
 */
/** SQL of the last moment (23:59:59.999) of a date's day in Tashkent, as a timestamptz. */
const endOfDaySql = (date: string): string =>
  `((${date} + 1)::timestamp - interval '${BUSINESS_UTC_OFFSET_MINUTES} minutes' - interval '1 millisecond') AT TIME ZONE 'UTC'`;

function dueAtExpr(
  def: EntityDefinition,
  machine: MachineDefinition | undefined,
): ((source: string, status?: string) => string) | undefined {
  const deadlines = Object.entries(machine?.states ?? {}).flatMap(([state, s]) => {
    const schema = s.deadline ? resolveFieldSchema(def.schema, s.deadline.field) : undefined;
    return s.deadline && schema ? [{ state, pointer: s.deadline.field, dateOnly: schema.format === 'date' }] : [];
  });
  if (!deadlines.length) return undefined;
  const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
  return (source, status = 'status') =>
    `CASE ${status}::text ${deadlines
      .map(
        (d) =>
          `WHEN ${quote(d.state)} THEN ${d.dateOnly ? `${endOfDaySql(`NULLIF(${sqlText(d.pointer, source)}, '')::date`)}` : `NULLIF(${sqlText(d.pointer, source)}, '')::timestamptz`}`,
      )
      .join(' ')} END`;
}

export function createEntityTable(def: EntityDefinition, machine?: MachineDefinition): EntityTable {
  const table = tableName(def.id);
  const columns = new Map<string, DerivedColumn>();
  for (const [pointer, sys] of Object.entries(SYSTEM_COLUMNS)) {
    columns.set(pointer, { pointer, column: sys.column, type: sys.type, expr: () => sys.column });
  }
  const wanted = new Set<string>([
    ...def.grid.columns.filter((c) => c.sortable).map((c) => c.field),
    ...def.grid.defaultSort.map((s) => s.field),
    // A filter read from `data` itself (an array of user ids) has no typed column.
    ...def.grid.filters.flatMap((f) => (f.field && !FILTER_KINDS[f.kind]?.arrayField ? [f.field] : [])),
  ]);
  // What aggregates group, bucket and measure by gets a typed column too: read without
  // parsing `data` on every row, and keyable by the summary tables (store/rollup.ts).
  for (const a of Object.values(def.manifest.aggregates ?? {})) {
    for (const p of a.groupBy ?? []) wanted.add(p);
    if (a.dateBucket) wanted.add(a.dateBucket.field);
    for (const m of a.measures) if (m.field) wanted.add(m.field);
  }
  const regionField = def.manifest.scope?.regionField;
  if (regionField) wanted.add(regionField);
  for (const pointer of def.manifest.unique ?? []) wanted.add(pointer);
  // Fields public lookups search by get a column and an index (a lookup is an equality or range scan).
  const lookupFields = (def.manifest.publicLookups ?? []).flatMap((l) =>
    l.by.flatMap((b) => (b.field ? [b.field] : [])),
  );
  for (const pointer of lookupFields) wanted.add(pointer);
  for (const l of def.manifest.publicLookups ?? []) {
    if (l.sort) wanted.add(l.sort.field);
    for (const st of l.stats ?? []) if (st.field) wanted.add(st.field);
  }
  for (const pointer of [...wanted].sort()) {
    if (isSystemPointer(pointer)) continue;
    const schema = resolveFieldSchema(def.schema, pointer);
    if (schema) columns.set(pointer, derivedColumn(pointer, sqlTypeOf(schema)));
  }
  const keywordFields = def.manifest.keywordFields ?? [];
  const keywordExpr = keywordFields.length
    ? (source: string, fields: readonly string[] = keywordFields) =>
        fields.length ? `lower(concat_ws(' ', ${fields.map((p) => sqlText(p, source)).join(', ')}))` : `''`
    : undefined;
  const regionExpr = regionField
    ? (source: string) => `NULLIF(${sqlText(regionField, source)}, '')::bigint`
    : undefined;
  // The scope's region field is the `region` column itself: one column, one index, for both
  // the region filter and (later) regional scoping.
  if (regionField && regionExpr)
    columns.set(regionField, { pointer: regionField, column: 'region', type: 'bigint', expr: regionExpr });

  const derived = [...columns.values()].filter((c) => c.column.startsWith('"f_'));
  const ddl: string[] = [
    `CREATE TABLE IF NOT EXISTS ${table} (
      id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
      data jsonb NOT NULL,
      status text NOT NULL,
      version bigint NOT NULL DEFAULT 1,
      owner text,
      region bigint,
      keywords text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    ...derived.map((c) => `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${c.column} ${c.type}`),
    // The schema version the data was written at, and the stored fields the schema no longer
    // knows, kept aside rather than dropped (src/server/evolution/).
    `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS schema_version integer NOT NULL DEFAULT 1`,
    `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS kept_aside jsonb NOT NULL DEFAULT '{}'`,
  ];
  // Deadlines are data: the sweep finds due records with one index range scan.
  const dueAt = dueAtExpr(def, machine);
  if (dueAt) {
    ddl.push(`ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS due_at timestamptz`);
    ddl.push(`CREATE INDEX IF NOT EXISTS ix_${table}_due ON ${table} (due_at, id) WHERE due_at IS NOT NULL`);
  }

  // Index column lists; an index whose columns are a prefix of another's is left out.
  const wantedIndexes: string[][] = [];
  const sort = def.grid.defaultSort[0]!;
  const sortColumn = columns.get(sort.field);
  const sortKey = sortColumn
    ? [`${sortColumn.column}${sort.desc ? ' DESC' : ''}`, `id${sort.desc ? ' DESC' : ''}`]
    : [];
  wantedIndexes.push(sortKey.length ? sortKey : ['id']);
  for (const c of def.grid.columns) {
    const col = c.sortable ? columns.get(c.field) : undefined;
    if (col && col.column !== 'id') wantedIndexes.push([col.column]);
  }
  const eqColumns: string[] = [];
  for (const f of def.grid.filters) {
    const col = f.field ? columns.get(f.field) : undefined;
    if (!col) continue;
    // Equality filters are combined with the default sort so a filtered first page is an index range scan.
    if (FILTER_KINDS[f.kind].equality) {
      wantedIndexes.push([col.column, ...sortKey]);
      eqColumns.push(col.column);
    } else wantedIndexes.push([col.column]);
  }
  // A regional queue is listed by region and status together: one index serves its first
  // page (a range scan in sort order) and its total (an index-only scan).
  if (eqColumns.includes('region') && eqColumns.includes('status'))
    wantedIndexes.push(['region', 'status', ...sortKey]);
  if (def.manifest.scope?.owner) wantedIndexes.push(['owner', ...sortKey]);
  for (const pointer of lookupFields) {
    const col = columns.get(pointer);
    if (col) wantedIndexes.push([col.column]);
  }
  const bare = (cols: string[]) => cols.map((c) => c.replace(/ DESC$/, ''));
  const isPrefix = (a: string[], b: string[]) => a.length < b.length && bare(a).every((c, i) => bare(b)[i] === c);
  const keys = [...new Map(wantedIndexes.map((cols) => [cols.join(','), cols])).values()];
  for (const cols of keys) {
    if (cols.join(',') === 'id' || keys.some((other) => isPrefix(cols, other))) continue;
    ddl.push(`CREATE INDEX IF NOT EXISTS ix_${table}_${shortHash(cols.join(','))} ON ${table} (${cols.join(', ')})`);
  }
  const uniqueIndexes = new Map<string, string>();
  for (const pointer of def.manifest.unique ?? []) {
    const col = columns.get(pointer);
    if (!col) continue;
    const name = `ux_${table}_${shortHash(col.column)}`;
    uniqueIndexes.set(name, pointer);
    ddl.push(`CREATE UNIQUE INDEX IF NOT EXISTS ${name} ON ${table} (${col.column})`);
  }
  const uniqueDdl = [...new Set(ddl)];
  const computed: EntityTable['computed'] = [
    ...derived.map((c) => ({ column: c.column, expr: c.expr })),
    { column: 'keywords', expr: (source: string) => (keywordExpr ? keywordExpr(source) : 'NULL') },
    { column: 'region', expr: (source: string) => (regionExpr ? regionExpr(source) : 'NULL') },
    ...(dueAt ? [{ column: 'due_at', expr: dueAt }] : []),
  ];
  return {
    entity: def.id,
    table,
    columns,
    keywordExpr,
    regionExpr,
    computed,
    ddl: uniqueDdl,
    uniqueIndexes,
    hasDueAt: dueAt !== undefined,
    hash: shortHash(uniqueDdl.join(';\n') + '\n' + computed.map((c) => `${c.column}=${c.expr('data')}`).join(',')),
  };
}

/** DDL for the keyword trigram index (only when pg_trgm is available). */
export const keywordIndexDdl = (t: EntityTable): string =>
  `CREATE INDEX IF NOT EXISTS ix_${t.table}_kw ON ${t.table} USING gin (keywords gin_trgm_ops)`;
