/**
 * API benchmark: list-search and get of the appeal entity over HTTP (autocannon) against a
 * throwaway PostgreSQL cluster holding BENCH_ROWS appeals, next to the same SQL timed
 * directly through `pg`. Prints figures; never asserts.
 *
 *   npm run bench:api
 *   BENCH_ROWS=20000 BENCH_SECONDS=3 BENCH_CONNECTIONS=10 npm run bench:api
 *
 * The load generator (autocannon) runs in a child process (this same file, forked with
 * CHILD_FLAG) so that it does not share the server's event loop: on a small machine a
 * client in the same thread would inflate the API latencies it measures.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-ignore -- autocannon ships no type declarations (the local interface below describes what is used).
import autocannonModule from 'autocannon';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.ts';
import { tableName } from '../../src/server/db/entity-table.ts';
import {
  buildListQuery,
  DEFAULT_COUNT_CAP,
  listSearchSql,
  type SearchPayload,
} from '../../src/server/store/list-query.ts';
import { RECORD_COLUMNS } from '../../src/server/store/record-row.ts';
import { systemActor } from '../../src/server/auth/access.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { startTestCluster, type TestCluster } from '../../tests/support/postgres.ts';

// ---------------------------------------------------------------------------------------
// Settings

const ENTITY = 'appeal';
const CHILD_FLAG = '--bench-autocannon-child';
const ROWS = positiveInt(process.env.BENCH_ROWS, 1_000_000);
const SECONDS = positiveInt(process.env.BENCH_SECONDS, 10);
const CONNECTIONS = positiveInt(process.env.BENCH_CONNECTIONS, 10);
const WARMUP_SECONDS = Math.min(2, SECONDS);
const BATCH = 100_000;
/** The app's pg pool size (createDatabase's default; buildApp has no option for it). */
const APP_POOL_SIZE = 10;
const REGIONS = 14;
const STATUSES = ['CREATED', 'RECEIVED', 'SEEN', 'BEING_SEEN', 'REVIEW_FINISHED'] as const;
const PAYLOAD: SearchPayload = { page: 0, itemsPerPage: 20, sortBy: ['createdAt'], sortDesc: [true] };
const BENCH_ADMIN_PASSWORD = 'bench-admin-password';
/** How far list-search counts (the app's LIST_COUNT_CAP), the same on both sides. */
const COUNT_CAP = positiveInt(process.env.LIST_COUNT_CAP, DEFAULT_COUNT_CAP);
const TARGETS = { 'list-search': { p95: 20 }, get: { p95: 5 }, ratio: 1.5 } as const;

function positiveInt(text: string | undefined, fallback: number): number {
  const n = Number(text);
  return text && Number.isInteger(n) && n > 0 ? n : fallback;
}

const randInt = (min: number, max: number): number => min + Math.floor(Math.random() * (max - min + 1));
const randStatus = (): string => STATUSES[randInt(0, STATUSES.length - 1)]!;

// ---------------------------------------------------------------------------------------
// Statistics

interface Stats {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Completed operations per second. */
  rate: number;
}

/** Nearest-rank percentiles of latencies in milliseconds. */
function summarize(latencies: number[], seconds: number): Stats {
  const sorted = Float64Array.from(latencies).sort();
  const at = (p: number): number =>
    sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;
  return {
    count: sorted.length,
    p50: at(50),
    p95: at(95),
    p99: at(99),
    max: sorted.length ? sorted[sorted.length - 1]! : NaN,
    rate: sorted.length / seconds,
  };
}

/** CPU use over an interval: the whole machine (cores busy) and this process (cores). */
function cpuMeter(): () => { seconds: number; machineCores: number; selfCores: number } {
  const machine = (): number =>
    os.cpus().reduce((sum, c) => sum + c.times.user + c.times.nice + c.times.sys + c.times.irq, 0);
  const t0 = process.hrtime.bigint();
  const self0 = process.cpuUsage();
  const busy0 = machine();
  return () => {
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const self = process.cpuUsage(self0);
    return {
      seconds,
      machineCores: (machine() - busy0) / 1000 / seconds,
      selfCores: (self.user + self.system) / 1e6 / seconds,
    };
  };
}

const ms = (n: number): string => (Number.isFinite(n) ? n.toFixed(2) : '-');
const perSec = (n: number): string => (Number.isFinite(n) ? n.toFixed(0) : '-');
const secondsSince = (t0: bigint): string => `${(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(1)} s`;

// ---------------------------------------------------------------------------------------
// The autocannon child process

type Scenario = 'list-search' | 'get';

interface ChildRequest {
  url: string;
  /** Bearer token of the signed-in admin: the API serves appeals only to those who may read them. */
  token: string;
  scenario: Scenario;
  rows: number;
  connections: number;
  duration: number;
}

interface ChildResult {
  stats: Stats;
  non2xx: number;
  errors: number;
  timeouts: number;
  sent: number;
  statusCodes: Record<string, number>;
  autocannonP50: number;
  autocannonP99: number;
  autocannonReqPerSec: number;
  /** CPU seconds (user + system) the load generator used during the run. */
  cpuSeconds: number;
}

interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest;
}

interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  latency: { p50: number; p99: number };
  requests: { average: number; sent: number };
  statusCodeStats: Record<string, { count: number }>;
}

interface AutocannonInstance extends PromiseLike<AutocannonResult> {
  on(
    event: 'response',
    listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void,
  ): void;
  stop(): void;
}

const autocannon = autocannonModule as unknown as (options: {
  url: string;
  connections: number;
  duration: number;
  requests: AutocannonRequest[];
}) => AutocannonInstance;

function requestsFor(scenario: Scenario, rows: number): AutocannonRequest[] {
  if (scenario === 'list-search') {
    return [
      {
        method: 'POST',
        path: '/api/appeal/list-search',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(PAYLOAD),
        setupRequest: (request) => ({
          ...request,
          path: `/api/appeal/list-search?regionId=${randInt(1, REGIONS)}&statusId=${randStatus()}`,
        }),
      },
    ];
  }
  return [
    {
      method: 'GET',
      path: '/api/appeal/get/1',
      setupRequest: (request) => ({ ...request, path: `/api/appeal/get/${randInt(1, rows)}` }),
    },
  ];
}

async function runAutocannon(job: ChildRequest): Promise<ChildResult> {
  const latencies: number[] = [];
  const cpu0 = process.cpuUsage();
  const instance = autocannon({
    url: job.url,
    connections: job.connections,
    duration: job.duration,
    requests: requestsFor(job.scenario, job.rows).map((r) => ({
      ...r,
      headers: { ...r.headers, authorization: `Bearer ${job.token}` },
    })),
  });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
  });
  const result = await instance;
  const cpu = process.cpuUsage(cpu0);
  return {
    stats: summarize(latencies, result.duration),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    sent: result.requests.sent,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, Number(s.count)])),
    autocannonP50: result.latency.p50,
    autocannonP99: result.latency.p99,
    autocannonReqPerSec: result.requests.average,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
}

function childMain(): void {
  // The parent cleans up on Ctrl-C; the child only has to go away.
  process.on('SIGINT', () => process.exit(130));
  process.on('message', (job: ChildRequest) => {
    runAutocannon(job).then(
      (result) => process.send!({ ok: true, result }),
      (error: unknown) => process.send!({ ok: false, error: String((error as Error)?.stack ?? error) }),
    );
  });
}

let child: ChildProcess | undefined;

/** Runs one autocannon job in the (lazily forked) child process. */
export function viaChild(job: ChildRequest): Promise<ChildResult> {
  // fork() reuses process.execArgv, i.e. tsx's loader, so the child runs this TypeScript file.
  child ??= fork(fileURLToPath(import.meta.url), [CHILD_FLAG], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const proc = child;
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`autocannon child exited (${code})`));
    proc.once('exit', onExit);
    proc.once('message', (message: { ok: boolean; result?: ChildResult; error?: string }) => {
      proc.off('exit', onExit);
      if (message.ok) resolve(message.result!);
      else reject(new Error(message.error));
    });
    proc.send(job);
  });
}

// ---------------------------------------------------------------------------------------
// Loading

interface Loaded {
  seconds: number;
  tableBytes: number;
  indexBytes: number;
}

/**
 * Loads `rows` valid appeals with INSERT … SELECT … FROM generate_series in batches. The
 * derived columns (f_…, keywords, region) are computed in the INSERT with the very
 * expressions the store uses (DerivedColumn.expr, keywordExpr, regionExpr), so no
 * UPDATE/backfill pass is needed. Secondary indexes are dropped for the load and then
 * recreated from their own definitions (pg_indexes), which is much faster than
 * maintaining ~18 indexes (one of them a trigram GIN) row by row.
 */
export async function load(app: FastifyInstance, url: string, rows: number): Promise<Loaded> {
  const table = app.tables.get(ENTITY)!;
  if (table.table !== tableName(ENTITY)) throw new Error(`unexpected table ${table.table}`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const t0 = process.hrtime.bigint();
  try {
    const existing = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table.table}`);
    if (Number(existing.rows[0]!.n) !== 0) throw new Error(`${table.table} is not empty`);
    await client.query(`SET maintenance_work_mem = '1GB'`);
    await client.query('SELECT setseed(0.4242)');

    const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(
      `SELECT i.indexname, i.indexdef FROM pg_indexes i
        JOIN pg_class c ON c.relname = i.indexname
        JOIN pg_index x ON x.indexrelid = c.oid
       WHERE i.schemaname = 'public' AND i.tablename = $1 AND NOT x.indisprimary
       ORDER BY i.indexname`,
      [table.table],
    );
    for (const ix of indexes) await client.query(`DROP INDEX ${ix.indexname}`);

    // The very columns and expressions the store computes on every write.
    const columns = ['data', 'status', 'created_at', 'updated_at', ...table.computed.map((c) => c.column)];
    const values = [
      'g.data',
      'g.status',
      'g.created_at',
      'g.updated_at',
      ...table.computed.map((c) => c.expr('g.data', 'g.status')),
    ];
    const pick = (arr: readonly string[], r: string): string =>
      `(ARRAY[${arr.map((s) => `'${s.replace(/'/g, "''")}'`).join(', ')}])[1 + floor(${r} * ${arr.length})::int]`;
    const digits = (n: number, r: string): string => `lpad(floor(${r} * 1e${n})::bigint::text, ${n}, '0')`;
    const surnames = [
      'Karimov',
      'Rahimova',
      'Toshmatov',
      'Yusupova',
      'Aliyev',
      'Nazarova',
      'Ergashev',
      'Saidova',
      'Xolmatov',
      'Qodirova',
      'Ismoilov',
      'Mirzayeva',
    ];
    const names = [
      'Aziz',
      'Dilnoza',
      'Jasur',
      'Madina',
      'Otabek',
      'Nilufar',
      'Sardor',
      'Gulnora',
      'Bekzod',
      'Zarina',
      'Rustam',
      'Shahnoza',
    ];
    const middles = ['Akmalovich', 'Bahodirovna', 'Ravshanovich', 'Anvarovna', 'Sobirovich', 'Ilhomovna'];
    const subjects = [
      'Sifatsiz mahsulot sotildi',
      'Narx belgilanmagan',
      'Chek berilmadi',
      'Kafolat bajarilmadi',
      "Muddati o'tgan mahsulot",
      "Xizmat ko'rsatilmadi",
      'Pul qaytarilmadi',
      "Tarozi noto'g'ri",
    ];
    const sentences = [
      'Dokonda sotib olingan mahsulot sifatsiz chiqdi va sotuvchi uni almashtirishdan bosh tortdi.',
      'Kassada chek berilmadi, narxlar peshtaxtada korsatilmagan edi.',
      'Internet dokonda buyurtma qilingan tovar belgilangan muddatda yetkazib berilmadi.',
      'Kafolat muddati ichida buzilgan texnika bepul tuzatilmadi.',
      'Mahsulotning yaroqlilik muddati otgan bolib, qadoqda sana ozgartirilgan.',
      'Xizmat uchun oldindan tolangan pul qaytarilmadi.',
      'Iltimos, ushbu holatni organib, tegishli choralar korishingizni soraymiz.',
    ];
    // One row per i: every random draw is a column of `s`, so each is drawn exactly once.
    const insertSql = `
      WITH d AS (
        SELECT id, parent, (row_number() OVER (ORDER BY id) - 1)::int AS rn, count(*) OVER ()::int AS n
          FROM ref_item WHERE kind = 'district' AND parent BETWEEN 1 AND ${REGIONS}
      )
      INSERT INTO ${table.table} (${columns.join(', ')})
      SELECT ${values.join(',\n             ')}
        FROM (
          SELECT jsonb_strip_nulls(jsonb_build_object(
                   'applicantType', CASE WHEN s.legal THEN 'LEGAL' ELSE 'INDIVIDUAL' END,
                   'customer', jsonb_build_object(
                     'surname', ${pick(surnames, 's.r1')},
                     'name', ${pick(names, 's.r2')},
                     'middle_name', CASE WHEN s.r3 < 0.8 THEN ${pick(middles, 's.r3 / 0.8')} END,
                     'sex', CASE WHEN s.r2 < 0.5 THEN 'MALE' ELSE 'FEMALE' END,
                     'pnfl', (3 + floor(s.r4 * 4)::int)::text || ${digits(13, 's.r5')}),
                   'stir', CASE WHEN s.legal THEN (2 + floor(s.r6 * 6)::int)::text || ${digits(8, 's.r7')} END,
                   'organizationName', CASE WHEN s.legal THEN '"' || ${pick(names, 's.r6')} || ' Savdo" MChJ ' || s.i END,
                   'appealTypeId', CASE WHEN s.r8 < 0.8 THEN 1 ELSE 2 END,
                   'topicId', CASE WHEN s.r9 < 0.85 THEN 1 + floor(s.r9 / 0.85 * 5)::int END,
                   'salesKindId', CASE WHEN s.r10 < 0.6 THEN 1 + floor(s.r10 / 0.6 * 2)::int END,
                   'regionId', d.parent,
                   'districtId', d.id,
                   'street', 'Mustaqillik ko''chasi, ' || (1 + floor(s.r11 * 200)::int) || '-uy',
                   'postIndex', '1' || ${digits(5, 's.r12')},
                   'phone', '+99890-' || ${digits(3, 's.r13')} || '-' || ${digits(2, 's.r14')} || '-' || ${digits(2, 's.r15')},
                   'email', CASE WHEN s.r16 < 0.4 THEN 'user' || s.i || '@mail.uz' END,
                   'shortDescription', ${pick(subjects, 's.r17')} || ' #' || s.i,
                   'content', ${pick(sentences, 's.r18')} || ' ' || ${pick(sentences, 's.r19')} || ' ' || ${pick(sentences, 's.r20')},
                   'files', '[]'::jsonb
                 )) AS data,
                 ${pick(STATUSES, 's.r21')} AS status,
                 s.created_at,
                 least(now(), s.created_at + s.r22 * interval '30 days') AS updated_at
            FROM (
              SELECT i, random() < 0.15 AS legal,
                     random() AS r1, random() AS r2, random() AS r3, random() AS r4, random() AS r5, random() AS r6,
                     random() AS r7, random() AS r8, random() AS r9, random() AS r10, random() AS r11, random() AS r12,
                     random() AS r13, random() AS r14, random() AS r15, random() AS r16, random() AS r17, random() AS r18,
                     random() AS r19, random() AS r20, random() AS r21, random() AS r22,
                     now() - random() * interval '3 years' AS created_at,
                     floor(random() * (SELECT max(n) FROM d))::int AS pick
                FROM generate_series($1::int, $2::int) AS i
            ) s
            JOIN d ON d.rn = s.pick
           ORDER BY s.i
        ) g`;
    for (let from = 1; from <= rows; from += BATCH) {
      const to = Math.min(rows, from + BATCH - 1);
      const tb = process.hrtime.bigint();
      await client.query(insertSql, [from, to]);
      console.log(
        `  inserted ${to.toLocaleString('en-US')} / ${rows.toLocaleString('en-US')} rows (batch ${secondsSince(tb)})`,
      );
    }
    const ti = process.hrtime.bigint();
    for (const ix of indexes) await client.query(ix.indexdef);
    console.log(`  recreated ${indexes.length} secondary indexes in ${secondsSince(ti)}`);
    const tv = process.hrtime.bigint();
    await client.query(`VACUUM ANALYZE ${table.table}`);
    console.log(`  VACUUM ANALYZE in ${secondsSince(tv)}`);
    const size = await client.query<{ t: string; i: string }>(
      `SELECT pg_table_size($1) AS t, pg_indexes_size($1) AS i`,
      [table.table],
    );
    return {
      seconds: Number(process.hrtime.bigint() - t0) / 1e9,
      tableBytes: Number(size.rows[0]!.t),
      indexBytes: Number(size.rows[0]!.i),
    };
  } finally {
    await client.end();
  }
}

/**
 * Sanity of the loaded data on a random sample (printed, not asserted): the data passes the
 * entity's JSON schema, the district belongs to the region, and the derived columns equal
 * what the store's expressions compute from `data`.
 */
async function checkSample(app: FastifyInstance, pool: pg.Pool, rows: number): Promise<void> {
  const table = app.tables.get(ENTITY)!;
  const def = app.definitions.entities.get(ENTITY)!;
  const validate = createServerAjv().compile(def.schema);
  const ids = Array.from({ length: Math.min(2000, rows) }, () => randInt(1, rows));
  const sample = await pool.query<{ id: number; data: Record<string, unknown> }>(
    `SELECT id, data FROM ${table.table} WHERE id = ANY($1::bigint[])`,
    [ids],
  );
  const invalid = sample.rows.filter((r) => !validate(r.data));
  const stored = table.computed.map((c) => c.column);
  const computed = table.computed.map((c) => c.expr('data'));
  const mismatch = await pool.query<{ n: number }>(
    `SELECT count(*) AS n FROM ${table.table} WHERE id = ANY($1::bigint[]) AND ROW(${stored.join(', ')}) IS DISTINCT FROM ROW(${computed.join(', ')})`,
    [ids],
  );
  const orphans = await pool.query<{ n: number }>(
    `SELECT count(*) AS n FROM ${table.table} e WHERE e.id = ANY($1::bigint[]) AND NOT EXISTS (
       SELECT 1 FROM ref_item r WHERE r.kind = 'district' AND r.id = (e.data->>'districtId')::int AND r.parent = (e.data->>'regionId')::int)`,
    [ids],
  );
  const spread = await pool.query<{ regions: number; statuses: number; oldest: string; newest: string }>(
    `SELECT count(DISTINCT region) AS regions, count(DISTINCT status) AS statuses,
            to_char(min(created_at), 'YYYY-MM-DD') AS oldest, to_char(max(created_at), 'YYYY-MM-DD') AS newest
       FROM ${table.table} WHERE id = ANY($1::bigint[])`,
    [ids],
  );
  const s = spread.rows[0]!;
  console.log(
    `  sample of ${sample.rows.length} rows: schema-invalid ${invalid.length}, district outside region ${orphans.rows[0]!.n}, derived columns differing from the store's expressions ${mismatch.rows[0]!.n}`,
  );
  console.log(`  sample spread: ${s.regions} regions, ${s.statuses} statuses, created ${s.oldest} … ${s.newest}`);
  if (invalid[0]) console.log(`  first invalid row ${invalid[0].id}: ${JSON.stringify(validate.errors)}`);
}

// ---------------------------------------------------------------------------------------
// SQL through pg

interface SqlStatements {
  page: string;
  count: string;
  get: string;
  /** Parameters of one list-search, in buildListQuery's order. */
  listParams(regionId: number, statusId: string): unknown[];
}

export function sqlStatements(app: FastifyInstance): SqlStatements {
  const def = app.definitions.entities.get(ENTITY)!;
  const table = app.tables.get(ENTITY)!;
  // The HTTP layer coerces the query string with the filter schema: regionId → integer.
  const q = buildListQuery(def, table, { regionId: 1, statusId: 'SEEN' }, PAYLOAD);
  return {
    ...listSearchSql(table, q, COUNT_CAP),
    get: `SELECT ${RECORD_COLUMNS} FROM ${table.table} WHERE id = $1`,
    listParams: (regionId, statusId) => buildListQuery(def, table, { regionId, statusId }, PAYLOAD).params,
  };
}

/** Calls the store once per operation with app.db.query wrapped, to see the SQL it issues. */
async function storeStatements(app: FastifyInstance): Promise<string[]> {
  const seen: string[] = [];
  const db = app.db as { query: typeof app.db.query };
  const original = db.query;
  db.query = ((sql: string, params?: unknown[]) => {
    seen.push(sql);
    return original(sql, params);
  }) as typeof db.query;
  try {
    await app.store.listSearch(ENTITY, { regionId: 1, statusId: 'SEEN' }, PAYLOAD, systemActor());
    await app.store.get(ENTITY, 1, systemActor());
  } finally {
    db.query = original;
  }
  return seen;
}

/** `workers` loops running `op` for `seconds`; per-operation latency with hrtime. */
export async function runSql(
  workers: number,
  seconds: number,
  op: () => Promise<unknown>,
): Promise<{ stats: Stats; errors: number }> {
  const latencies: number[] = [];
  let errors = 0;
  const t0 = process.hrtime.bigint();
  const end = t0 + BigInt(seconds) * 1_000_000_000n;
  const worker = async (): Promise<void> => {
    while (process.hrtime.bigint() < end) {
      const start = process.hrtime.bigint();
      try {
        await op();
        latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
      } catch {
        errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  return { stats: summarize(latencies, Number(process.hrtime.bigint() - t0) / 1e9), errors };
}

/** A pool configured like the app's (same type parsers), sized like the HTTP side. */
export function createSqlPool(url: string, max: number): pg.Pool {
  const INT8 = 20;
  const NUMERIC = 1700;
  const DATE = 1082;
  const types = {
    getTypeParser: (oid: number, format?: string) => {
      if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
      if (oid === DATE) return (v: string) => v;
      return pg.types.getTypeParser(oid, format as 'text');
    },
  };
  const pool = new pg.Pool({ connectionString: url, max, types: types as never });
  pool.on('error', () => undefined);
  return pool;
}

// ---------------------------------------------------------------------------------------
// Main

interface Row {
  scenario: Scenario;
  api: ChildResult;
  sql: { stats: Stats; errors: number };
}

function printScenario(name: string, api: ChildResult): void {
  const s = api.stats;
  console.log(
    `  API ${name}: p50 ${ms(s.p50)} ms  p95 ${ms(s.p95)} ms  p99 ${ms(s.p99)} ms  max ${ms(s.max)} ms  ${perSec(s.rate)} req/s`,
  );
  console.log(
    `      responses ${s.count}, non-2xx ${api.non2xx}, errors ${api.errors}, timeouts ${api.timeouts}, status codes ${JSON.stringify(api.statusCodes)}`,
  );
  console.log(
    `      (autocannon's own histogram: p50 ${api.autocannonP50} ms, p99 ${api.autocannonP99} ms, ${perSec(api.autocannonReqPerSec)} req/s)`,
  );
}

function printSql(name: string, sql: { stats: Stats; errors: number }): void {
  const s = sql.stats;
  console.log(
    `  SQL ${name}: p50 ${ms(s.p50)} ms  p95 ${ms(s.p95)} ms  p99 ${ms(s.p99)} ms  max ${ms(s.max)} ms  ${perSec(s.rate)} ops/s  (ops ${s.count}, errors ${sql.errors})`,
  );
}

function printTable(rows: Row[]): void {
  const header = [
    'scenario',
    'API p50',
    'API p95',
    'API p99',
    'API req/s',
    'SQL p50',
    'SQL p95',
    'SQL p99',
    'SQL ops/s',
    'p95 API/SQL',
    'tput SQL/API',
    'target p95',
    'p95 ok',
    'ratios ok',
  ];
  const body = rows.map(({ scenario, api, sql }) => {
    const p95Ratio = api.stats.p95 / sql.stats.p95;
    const tputRatio = sql.stats.rate / api.stats.rate;
    const target = TARGETS[scenario].p95;
    return [
      scenario,
      ms(api.stats.p50),
      ms(api.stats.p95),
      ms(api.stats.p99),
      perSec(api.stats.rate),
      ms(sql.stats.p50),
      ms(sql.stats.p95),
      ms(sql.stats.p99),
      perSec(sql.stats.rate),
      p95Ratio.toFixed(2),
      tputRatio.toFixed(2),
      `<= ${target} ms`,
      api.stats.p95 <= target ? 'yes' : 'NO',
      p95Ratio <= TARGETS.ratio && tputRatio <= TARGETS.ratio ? 'yes' : 'NO',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of body) console.log(line(r));
  console.log(
    `latencies in ms; targets: list-search p95 <= ${TARGETS['list-search'].p95} ms, get p95 <= ${TARGETS.get.p95} ms, API/SQL <= ${TARGETS.ratio}`,
  );
  console.log(
    '(p95 API/SQL = API p95 / SQL p95; tput SQL/API = SQL ops/s / API req/s, i.e. how much throughput the HTTP layer costs)',
  );
}

async function main(): Promise<void> {
  console.log(
    `bench:api — ${ROWS.toLocaleString('en-US')} rows, ${SECONDS} s per scenario (after ${WARMUP_SECONDS} s warm-up), ${CONNECTIONS} connections`,
  );
  console.log(
    `machine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, node ${process.version}, load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  if (CONNECTIONS !== APP_POOL_SIZE)
    console.log(
      `note: the app's pg pool has ${APP_POOL_SIZE} connections whatever BENCH_CONNECTIONS is; the SQL side uses ${CONNECTIONS}`,
    );

  let cluster: TestCluster | undefined;
  let app: FastifyInstance | undefined;
  let pool: pg.Pool | undefined;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-api-'));
  let cleaned = false;
  const cleanup = (): void => {
    if (cleaned) return;
    cleaned = true;
    child?.kill('SIGKILL');
    try {
      cluster?.stop();
    } catch (error) {
      console.error('stopping PostgreSQL failed:', error);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const onSigint = (): void => {
    console.error('\ninterrupted: stopping PostgreSQL');
    cleanup();
    process.exit(130);
  };
  process.on('SIGINT', onSigint);

  try {
    const tc = process.hrtime.bigint();
    cluster = await startTestCluster();
    const clusterUrl = cluster.url;
    const version = await (async () => {
      const c = new pg.Client({ connectionString: clusterUrl });
      await c.connect();
      try {
        return (await c.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]!.v;
      } finally {
        await c.end();
      }
    })();
    console.log(
      `PostgreSQL ${version} started on 127.0.0.1:${cluster.port} in ${secondsSince(tc)} (default settings: fsync on, shared_buffers 256MB)`,
    );

    app = await buildApp({
      databaseUrl: cluster.url,
      dataDir,
      listCountCap: COUNT_CAP,
      adminPassword: BENCH_ADMIN_PASSWORD,
    });
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    console.log(
      `app listening on ${address}; list-search counts up to ${COUNT_CAP.toLocaleString('en-US')} rows (LIST_COUNT_CAP)`,
    );

    console.log(`\nloading ${ROWS.toLocaleString('en-US')} appeals into ${tableName(ENTITY)}…`);
    const loaded = await load(app, cluster.url, ROWS);
    console.log(
      `loaded in ${loaded.seconds.toFixed(1)} s (table ${(loaded.tableBytes / 2 ** 20).toFixed(0)} MiB, indexes ${(loaded.indexBytes / 2 ** 20).toFixed(0)} MiB)`,
    );

    pool = createSqlPool(cluster.url, CONNECTIONS);
    await checkSample(app, pool, ROWS);

    const sql = sqlStatements(app);
    const issued = await storeStatements(app);
    const same = issued.length === 3 && issued[0] === sql.page && issued[1] === sql.count && issued[2] === sql.get;
    console.log(`  SQL built here is identical to what the store issues: ${same ? 'yes' : 'NO'}`);
    if (!same) console.log(issued.join('\n---\n'));

    const url = address;
    const sqlPool = pool;
    const signIn = await fetch(`${url}/api/auth-payload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: BENCH_ADMIN_PASSWORD }),
    });
    const token = ((await signIn.json()) as { token: string }).token;
    const ops: Record<Scenario, () => Promise<unknown>> = {
      'list-search': () => {
        const params = sql.listParams(randInt(1, REGIONS), randStatus());
        return Promise.all([sqlPool.query(sql.page, params), sqlPool.query(sql.count, params)]);
      },
      get: () => sqlPool.query(sql.get, [randInt(1, ROWS)]),
    };

    const results: Row[] = [];
    for (const scenario of ['list-search', 'get'] as const) {
      console.log(`\n${scenario}`);
      const job = { url, token, scenario, rows: ROWS, connections: CONNECTIONS };
      await viaChild({ ...job, duration: WARMUP_SECONDS });
      const apiCpu = cpuMeter();
      const api = await viaChild({ ...job, duration: SECONDS });
      const ac = apiCpu();
      printScenario(scenario, api);
      const loadGen = api.cpuSeconds / ac.seconds;
      console.log(
        `      CPU (cores busy of ${os.cpus().length}): machine ${ac.machineCores.toFixed(2)} = app ${ac.selfCores.toFixed(2)} + autocannon ${loadGen.toFixed(2)} + PostgreSQL/other ${(ac.machineCores - ac.selfCores - loadGen).toFixed(2)}`,
      );
      await runSql(CONNECTIONS, WARMUP_SECONDS, ops[scenario]);
      const sqlCpu = cpuMeter();
      const direct = await runSql(CONNECTIONS, SECONDS, ops[scenario]);
      const sc = sqlCpu();
      printSql(scenario, direct);
      console.log(
        `      CPU (cores busy of ${os.cpus().length}): machine ${sc.machineCores.toFixed(2)} = pg client ${sc.selfCores.toFixed(2)} + PostgreSQL/other ${(sc.machineCores - sc.selfCores).toFixed(2)}`,
      );
      results.push({ scenario, api, sql: direct });
    }

    const explainParams = sql.listParams(7, 'SEEN');
    console.log(`\nEXPLAIN (ANALYZE, BUFFERS) of one list-search (statusId=SEEN, regionId=7), page query:`);
    const explain = async (statement: string) => {
      const { rows } = await sqlPool.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS) ${statement}`,
        explainParams,
      );
      for (const r of rows) console.log(`  ${r['QUERY PLAN']}`);
    };
    await explain(sql.page);
    console.log('count query:');
    await explain(sql.count);

    console.log('\nsummary');
    printTable(results);
  } finally {
    await pool?.end().catch(() => undefined);
    await app?.close().catch(() => undefined);
    cleanup();
    process.off('SIGINT', onSigint);
  }
}

const isEntry = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (process.argv.includes(CHILD_FLAG)) {
  childMain();
} else if (isEntry) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
