import { createHash } from 'node:crypto';
import type { DefinitionRegistry, EntityDefinition } from '../../definitions/registry.ts';
import type { Aggregate } from '../../generated/meta.ts';
import { BUSINESS_TIME_ZONE } from '../../shared/time-zone.ts';
import type { Database } from '../db/database.ts';
import type { EntityTable, SqlType } from '../db/entity-table.ts';

/**
 * Incrementally maintained summary tables ("rollups") of the count, sum and average aggregates, so that a
 * dashboard's year over a million records reads a few thousand summary rows instead of
 * scanning the year. One table per aggregate, keyed by the columns its requests can touch:
 * the group fields, the month of the date fields a dashboard passes as its period (and of the
 * date bucket), the fields of the measures' filters, of the dashboard filters passed through
 * and of the region scope; per key, `n` (the number of records) and, per summed field, the sum
 * and the count of its values. Triggers on the entity table keep it in step in the writing
 * transaction (insert, update of a key column, a summed field or the status, delete), on
 * PostgreSQL and PGlite alike. Min and max are not kept: a delete cannot take them back.
 *
 * Months, not days: a day key would make the summary of a million appeals nearly as large as
 * the table (1,095 days × 15 regions × the groups × the statuses). So only periods of whole
 * months (the dashboards' month, quarter, year) use it; a custom range reads the table.
 *
 * The key columns carry the entity table's own column names, and a month is stored as the
 * first instant (timestamptz) or first day (date) of that month in Tashkent, so the WHERE the
 * list-search filters build runs unchanged on the summary table whenever the period's bounds
 * are whole months. A request is answered from the summary only when every column its SQL
 * reads is a key column (no keyword, no other date range, no row limit reading `data`…);
 * otherwise from the entity table. The owner is not a key: it would make the summary as large
 * as the table; an owner-scoped reader falls back to the table (their rows are few).
 */

/** One key column of a summary table. */
interface RollupKey {
  column: string;
  type: SqlType;
  /** Whether the stored value is the month of the base column (a period or bucket field). */
  month: boolean;
}

/** The summary table of one aggregate. */
export interface Rollup {
  entity: string;
  aggregate: string;
  /** The entity table it summarizes. */
  base: string;
  table: string;
  keys: RollupKey[];
  /** Summed fields: the entity table's column, its sum (`s<i>`) and count of values (`c<i>`) here. */
  sums: Array<{ column: string; sum: string; count: string }>;
  /** Date-range grid filter name → whether its column is kept by month (bounds must be whole months). */
  monthFilters: Set<string>;
  /** Idempotent DDL: the table, its unique key, the trigger function and triggers. */
  ddl: string[];
  /** Fills an empty summary table from the entity table (first start, or after a bulk load). */
  fill: string;
}

/** Every summary table, its trigger function and its triggers start with this. */
const ROLLUP_PREFIX = 'rollup_';

const shortHash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 10);

/** The key's value computed from a row alias (`NEW`, `OLD`, or nothing for the table itself). */
function keyValue(key: RollupKey, row: string): string {
  const col = row ? `${row}.${key.column}` : key.column;
  if (!key.month) return col;
  return key.type === 'timestamptz'
    ? `(date_trunc('month', ${col} AT TIME ZONE '${BUSINESS_TIME_ZONE}') AT TIME ZONE '${BUSINESS_TIME_ZONE}')`
    : `date_trunc('month', ${col})::date`;
}

/** Every object of a screen's options holding a panel source (endpoint, period, filters, query). */
function sourcesIn(value: unknown, out: Array<Record<string, unknown>> = []): Array<Record<string, unknown>> {
  if (Array.isArray(value)) for (const v of value) sourcesIn(v, out);
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.endpoint === 'string') out.push(o);
    for (const v of Object.values(o)) sourcesIn(v, out);
  }
  return out;
}

/** The grid filter a query parameter belongs to (`createdDateFrom` → `createdDate`). */
function filterOfParam(def: EntityDefinition, param: string) {
  return (
    def.grid.filters.find((f) => f.name === param) ??
    def.grid.filters.find((f) => f.kind === 'dateRange' && (param === `${f.name}From` || param === `${f.name}To`)) ??
    def.grid.filters.find((f) => f.kind === 'range' && (param === `${f.name}From` || param === `${f.name}To`))
  );
}

/**
 * The summary table of one aggregate, or undefined when it cannot have one: a measure other
 * than count, a group or filter field without a column of its own, or no dashboard period.
 */
export function planRollup(
  def: EntityDefinition,
  table: EntityTable,
  name: string,
  aggregate: Aggregate,
  registry: Pick<DefinitionRegistry, 'screens'>,
): Rollup | undefined {
  // A sum or an average can be added up from parts; a minimum or maximum cannot be taken back on delete.
  // A distinct count cannot be summed from partial counts either.
  if (aggregate.measures.some((m) => m.fn === 'min' || m.fn === 'max' || m.fn === 'countDistinct')) return undefined;
  const endpoint = `/api${def.manifest.base}/aggregate/${name}`;
  const sources = [...registry.screens.values()]
    .filter((s) => s.kind === 'dashboard')
    .flatMap((s) => sourcesIn(s.options))
    .filter((s) => s.endpoint === endpoint);
  const periods = new Set(sources.flatMap((s) => (typeof s.period === 'string' ? [s.period] : [])));
  if (!periods.size && !aggregate.dateBucket) return undefined;
  const exact = new Set<string>();
  const monthly = new Set<string>();
  // The measure filters' keys (list-search parameters), when the manifest declares them. Their
  // values are fixed in the SQL, not checked per request: a date or number range (or a
  // keyword) among them needs the exact values, so such an aggregate keeps to the table.
  const measureParams = aggregate.measures.flatMap((m) =>
    Object.keys((m as { filter?: Record<string, unknown> }).filter ?? {}),
  );
  if (
    measureParams.some(
      (p) =>
        filterOfParam(def, p)?.kind !== 'eq' &&
        filterOfParam(def, p)?.kind !== 'in' &&
        filterOfParam(def, p)?.kind !== 'bool',
    )
  )
    return undefined;
  const params = [
    ...sources.flatMap((s) => [...((s.filters as string[] | undefined) ?? []), ...Object.keys(s.query ?? {})]),
    ...measureParams,
  ];
  for (const param of params) {
    const f = filterOfParam(def, param);
    if (!f?.field) continue;
    if (f.kind === 'keyword' || f.kind === 'range') continue;
    if (f.kind === 'dateRange') monthly.add(f.field);
    else exact.add(f.field);
  }
  for (const period of periods) {
    const f = def.grid.filters.find((g) => g.name === period && g.kind === 'dateRange');
    if (f?.field) monthly.add(f.field);
  }
  for (const p of aggregate.groupBy ?? []) exact.add(p);
  if (aggregate.dateBucket) monthly.add(aggregate.dateBucket.field);
  if (def.manifest.scope?.regionField) exact.add(def.manifest.scope.regionField);
  const keys: RollupKey[] = [];
  if (!exact.size && !monthly.size) return undefined;
  for (const pointer of [...new Set([...exact, ...monthly])].sort()) {
    const col = table.columns.get(pointer);
    if (!col) return undefined;
    // A field both grouped and filtered by period is kept exact (the month would lose the group).
    keys.push({ column: col.column, type: col.type, month: !exact.has(pointer) });
  }
  const monthFilters = new Set(
    def.grid.filters
      .filter(
        (f) =>
          f.kind === 'dateRange' &&
          f.field &&
          keys.some((k) => k.month && k.column === table.columns.get(f.field!)?.column),
      )
      .map((f) => f.name),
  );
  const summed = [...new Set(aggregate.measures.flatMap((m) => (m.field && m.fn !== 'count' ? [m.field] : [])))];
  const sums: Rollup['sums'] = [];
  for (const [i, pointer] of summed.entries()) {
    const col = table.columns.get(pointer);
    if (!col) return undefined;
    sums.push({ column: col.column, sum: `s${i}`, count: `c${i}` });
  }
  const layout = [...keys.map((k) => `${k.column}:${k.type}:${k.month}`), ...sums.map((m) => m.column)].join(',');
  // Named by the layout: a changed aggregate gets a new table (filled at start), the old one is dropped.
  const rollupTable = `${ROLLUP_PREFIX}${table.table.slice(2)}_${shortHash(`${name}|${layout}`)}`;
  const fn = `${rollupTable}_fn`;
  const trigger = rollupTable;
  const cols = keys.map((k) => k.column).join(', ');
  const parts = ['n', ...sums.flatMap((m) => [m.sum, m.count])];
  const upsert = (row: 'NEW' | 'OLD', delta: 1 | -1) =>
    `INSERT INTO ${rollupTable} (${cols}, ${parts.join(', ')}) VALUES (${keys.map((k) => keyValue(k, row)).join(', ')}, ${delta}${sums
      .map((m) => `, ${delta} * coalesce(${row}.${m.column}, 0), ${delta} * (${row}.${m.column} IS NOT NULL)::int`)
      .join('')})
       ON CONFLICT (${cols}) DO UPDATE SET ${parts.map((p) => `${p} = ${rollupTable}.${p} + EXCLUDED.${p}`).join(', ')};`;
  const watched = [...keys.map((k) => k.column), ...sums.map((m) => m.column)];
  const changed = `ROW(${watched.map((c) => `OLD.${c}`).join(', ')}) IS DISTINCT FROM ROW(${watched.map((c) => `NEW.${c}`).join(', ')})`;
  const ddl = [
    `CREATE TABLE IF NOT EXISTS ${rollupTable} (${keys.map((k) => `${k.column} ${k.type}`).join(', ')}, n bigint NOT NULL${sums
      .map((m) => `, ${m.sum} numeric NOT NULL, ${m.count} bigint NOT NULL`)
      .join('')})`,
    `CREATE UNIQUE INDEX IF NOT EXISTS ${rollupTable}_key ON ${rollupTable} (${cols}) NULLS NOT DISTINCT`,
    // An update moves one count from the old key to the new one, in a fixed order so two
    // writers moving counts between the same two keys do not deadlock.
    `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $fn$
     BEGIN
       IF TG_OP = 'INSERT' THEN ${upsert('NEW', 1)}
       ELSIF TG_OP = 'DELETE' THEN ${upsert('OLD', -1)}
       ELSIF ROW(${keys.map((k) => keyValue(k, 'OLD')).join(', ')})::text < ROW(${keys.map((k) => keyValue(k, 'NEW')).join(', ')})::text THEN
         ${upsert('OLD', -1)} ${upsert('NEW', 1)}
       ELSE ${upsert('NEW', 1)} ${upsert('OLD', -1)}
       END IF;
       RETURN NULL;
     END $fn$`,
    `DROP TRIGGER IF EXISTS ${trigger}_iud ON ${table.table}`,
    `DROP TRIGGER IF EXISTS ${trigger}_u ON ${table.table}`,
    `CREATE TRIGGER ${trigger}_iud AFTER INSERT OR DELETE ON ${table.table} FOR EACH ROW EXECUTE FUNCTION ${fn}()`,
    `CREATE TRIGGER ${trigger}_u AFTER UPDATE ON ${table.table} FOR EACH ROW WHEN (${changed}) EXECUTE FUNCTION ${fn}()`,
  ];
  const fill = `INSERT INTO ${rollupTable} (${cols}, ${parts.join(', ')})
    SELECT ${keys.map((k) => keyValue(k, '')).join(', ')}, count(*)${sums.map((m) => `, coalesce(sum(${m.column}), 0), count(${m.column})`).join('')} FROM ${table.table}
     WHERE NOT EXISTS (SELECT 1 FROM ${rollupTable}) GROUP BY ${keys.map((_, i) => i + 1).join(', ')}`;
  return {
    entity: def.id,
    aggregate: name,
    base: table.table,
    table: rollupTable,
    keys,
    sums,
    monthFilters,
    ddl,
    fill,
  };
}

/** The summary tables of every aggregate that can have one, by `entity/aggregate`. */
export function planRollups(registry: DefinitionRegistry, tables: Map<string, EntityTable>): Map<string, Rollup> {
  const out = new Map<string, Rollup>();
  for (const def of registry.entities.values()) {
    const table = tables.get(def.id);
    if (!table) continue;
    for (const [name, aggregate] of Object.entries(def.manifest.aggregates ?? {})) {
      const rollup = planRollup(def, table, name, aggregate, registry);
      if (rollup) out.set(`${def.id}/${name}`, rollup);
    }
  }
  return out;
}

/**
 * Creates the summary tables and triggers, and fills a new (empty) one from its entity
 * table, in one transaction under `lock` (the start-up migrations' advisory lock).
 */
export async function migrateRollups(db: Database, rollups: Map<string, Rollup>, lock: number): Promise<void> {
  const wanted = new Set([...rollups.values()].map((r) => r.table));
  await db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${lock})`);
    // Summaries of aggregates that are gone or changed: their triggers would slow every write.
    const stale = await tx.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE 'rollup\\_%'`,
    );
    for (const { name } of stale.rows) {
      if (wanted.has(name)) continue;
      const triggers = await tx.query<{ trigger: string; base: string }>(
        `SELECT t.tgname AS trigger, c.relname AS base FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
          WHERE NOT t.tgisinternal AND t.tgname IN ($1, $2)`,
        [`${name}_iud`, `${name}_u`],
      );
      for (const t of triggers.rows) await tx.query(`DROP TRIGGER IF EXISTS ${t.trigger} ON ${t.base}`);
      await tx.query(`DROP FUNCTION IF EXISTS ${name}_fn()`);
      await tx.query(`DROP TABLE IF EXISTS ${name}`);
    }
    for (const r of rollups.values()) {
      for (const sql of r.ddl) await tx.query(sql);
      await tx.query(r.fill);
    }
  });
}

/** The words of the entity table's own columns that a summary table may lack. */
const SYSTEM_WORDS = [
  'id',
  'data',
  'status',
  'version',
  'owner',
  'region',
  'keywords',
  'created_at',
  'updated_at',
  'due_at',
  'schema_version',
  'kept_aside',
];

/** Whether `sql` reads a column of `table` that is not a key of the summary. */
function readsOtherColumns(sql: string, table: EntityTable, rollup: Rollup): boolean {
  const keys = new Set(rollup.keys.map((k) => k.column));
  const columns = new Set([...SYSTEM_WORDS, ...[...table.columns.values()].map((c) => c.column)]);
  for (const column of columns) {
    if (keys.has(column)) continue;
    const found = column.startsWith('"')
      ? sql.includes(column)
      : new RegExp(`(?<![\\w."$])${column}(?![\\w"])`).test(sql);
    if (found) return true;
  }
  return false;
}

/**
 * Every `call` in `sql` (with the `FILTER (WHERE …)` that may follow it) replaced by what
 * `make` builds from that filter clause ('' when none).
 */
function rewriteCalls(sql: string, call: string, make: (filter: string) => string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const start = sql.indexOf(call, at);
    if (start < 0) return out + sql.slice(at);
    let end = start + call.length;
    let filter = '';
    const opening = /^\s*FILTER\s*\(/.exec(sql.slice(end));
    if (opening) {
      let depth = 0;
      let i = end + opening[0].length - 1;
      for (; i < sql.length; i++) {
        if (sql[i] === '(') depth++;
        else if (sql[i] === ')' && --depth === 0) break;
      }
      filter = sql.slice(end, i + 1);
      end = i + 1;
    }
    out += `${sql.slice(at, start)}${make(filter)}`;
    at = end;
  }
}

/**
 * The measures of the SELECT list over the summary: a count is the sum of `n` (0 rather than
 * null), a sum the sum of the parts (null where no record had a value, as SQL's sum), an
 * average the parts' sum over their count.
 */
function summaryMeasures(select: string, rollup: Rollup): string {
  let out = rewriteCalls(select, 'count(*)', (f) => `coalesce(sum(n)${f}, 0)`);
  for (const m of rollup.sums) {
    out = rewriteCalls(
      out,
      `sum(${m.column})`,
      (f) => `(CASE WHEN sum(${m.count})${f} > 0 THEN sum(${m.sum})${f} END)`,
    );
    out = rewriteCalls(out, `avg(${m.column})`, (f) => `(sum(${m.sum})${f} / NULLIF(sum(${m.count})${f}, 0))`);
  }
  return out;
}

const isMonthStart = (d: unknown): boolean => typeof d === 'string' && /^\d{4}-\d{2}-01$/.test(d);
const isMonthEnd = (d: unknown): boolean => {
  if (typeof d !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(d)) return false;
  const next = new Date(`${d}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.getUTCDate() === 1;
};

/**
 * The aggregate's SQL (`baseSql`, as aggregateSql built it over the entity table) rewritten to
 * read the summary table, or undefined when the request needs the entity table: a period
 * that is not whole months, a day bucket, or a column the summary does not keep.
 * @example rollupSql(rollup, table, sql, { createdDateFrom: '2025-07-01', createdDateTo: '2025-09-30' }, undefined)
 */
export function rollupSql(
  rollup: Rollup | undefined,
  table: EntityTable,
  baseSql: string,
  query: Record<string, unknown>,
  bucket: string | undefined,
): string | undefined {
  if (!rollup || bucket === 'day') return undefined;
  if (bucket === undefined && /'YYYY-MM-DD'/.test(baseSql)) return undefined;
  for (const name of rollup.monthFilters) {
    const from = query[`${name}From`];
    const to = query[`${name}To`];
    if ((from !== undefined && !isMonthStart(from)) || (to !== undefined && !isMonthEnd(to))) return undefined;
  }
  const from = ` FROM ${rollup.base} `;
  const at = baseSql.indexOf(from);
  if (at < 0) return undefined;
  const select = summaryMeasures(baseSql.slice(0, at), rollup);
  if (readsOtherColumns(select + baseSql.slice(at), table, rollup)) return undefined;
  const rest = baseSql.slice(at + from.length);
  const groupAt = rest.lastIndexOf(' GROUP BY ');
  const tailAt = groupAt >= 0 ? groupAt : rest.lastIndexOf(' LIMIT ');
  const whereText = rest.slice(0, tailAt).trim();
  // Counts that fell to zero stay as rows; they must not show up as groups.
  const where = whereText ? `WHERE n > 0 AND (${whereText.replace(/^WHERE /, '')})` : 'WHERE n > 0';
  return `${select} FROM ${rollup.table} ${where}${rest.slice(tailAt)}`;
}
