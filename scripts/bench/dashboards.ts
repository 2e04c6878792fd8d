/**
 * `npm run bench:dashboards`: every dashboard panel over appeals and compliance cases, timed
 * over HTTP next to the very SQL the server runs for it, on a throwaway PostgreSQL holding
 * BENCH_APPEALS appeals (default 1,000,000) and BENCH_CASES compliance cases (200,000) spread
 * over 15 regions, every type, topic, sales kind and workflow state, and three years. Prints
 * figures; never asserts (the summary tables' behaviour is tests/contract/rollup.test.ts).
 *
 *   npm run bench:dashboards
 *   BENCH_APPEALS=100000 BENCH_CASES=20000 BENCH_RUNS=20 npm run bench:dashboards
 *
 * The panels are read from the screens at run time: every `dashboard` screen's panel whose
 * source is an aggregate or a list-search of appeals or compliance cases, with the period a
 * quarter and a year, for the chair (all regions) and a regional head (their region). While
 * no screen has such a panel, the fixture dashboard of tests/support/rollup-fixture.ts is
 * added to a copy of the definitions (BENCH_FIXTURE=1 adds it anyway).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.ts';
import { createActorLoader } from '../../src/server/auth/actors.ts';
import type { Actor } from '../../src/server/auth/access.ts';
import { aggregateQuery } from '../../src/server/store/aggregate.ts';
import { DEFAULT_COUNT_CAP, listSearchSql, readableListQuery } from '../../src/server/store/list-query.ts';
import { rollupSql } from '../../src/server/store/rollup.ts';
import type { DashboardFilter, DashboardPanel } from '../../src/generated/meta.ts';
import { aggregateOf, effectiveValues, panelCall, periodFilterOf } from '../../src/shared/dashboard-query.ts';
import { startTestCluster } from '../../tests/support/postgres.ts';
import { createDefinitionsFixture } from '../../tests/support/definitions-fixture.ts';
import { addFixtureDashboards } from '../../tests/support/rollup-fixture.ts';
import { createSqlPool } from './api.ts';

const ENTITIES = ['appeal', 'compliance-case'];
const APPEALS = positiveInt(process.env.BENCH_APPEALS, 1_000_000);
const CASES = positiveInt(process.env.BENCH_CASES, 200_000);
const RUNS = positiveInt(process.env.BENCH_RUNS, 50);
/** Runs of the same request over the entity table, beside a summary table's answer. */
const TABLE_RUNS = positiveInt(process.env.BENCH_TABLE_RUNS, 5);
const BATCH = 200_000;
const PASSWORD = 'bench-dashboards-password';
const HEAD_REGION = 7;
/** Whole periods inside the loaded three years (the quarter and the year before today's). */
const PERIODS = { quarter: '2026-Q3', year: '2025' };

function positiveInt(text: string | undefined, fallback: number): number {
  const n = Number(text);
  return text && Number.isInteger(n) && n > 0 ? n : fallback;
}

const secondsSince = (t0: bigint): string => `${(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(1)} s`;
const pct = (sorted: number[], p: number): number =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;
const quote = (s: string): string => `'${s.replace(/'/g, "''")}'`;
const pick = (arr: readonly string[], r: string): string =>
  `(ARRAY[${arr.map(quote).join(', ')}])[1 + floor(${r} * ${arr.length})::int]`;

/** Inserts `rows` records built by `select` (a SELECT of data, status, created_at over `generate_series($1, $2) AS i`). */
async function loadEntity(app: FastifyInstance, client: pg.Client, entity: string, rows: number, select: string) {
  const table = app.tables.get(entity)!;
  const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(
    `SELECT i.indexname, i.indexdef FROM pg_indexes i JOIN pg_class c ON c.relname = i.indexname
       JOIN pg_index x ON x.indexrelid = c.oid
      WHERE i.schemaname = 'public' AND i.tablename = $1 AND NOT x.indisprimary`,
    [table.table],
  );
  for (const ix of indexes) await client.query(`DROP INDEX ${ix.indexname}`);
  const columns = ['data', 'status', 'created_at', 'updated_at', ...table.computed.map((c) => c.column)];
  const values = [
    'g.data',
    'g.status',
    'g.created_at',
    'g.created_at',
    ...table.computed.map((c) => c.expr('g.data', 'g.status')),
  ];
  const sql = `INSERT INTO ${table.table} (${columns.join(', ')}) SELECT ${values.join(', ')} FROM (${select}) g`;
  const t0 = process.hrtime.bigint();
  for (let from = 1; from <= rows; from += BATCH) {
    await client.query(sql, [from, Math.min(rows, from + BATCH - 1)]);
    process.stdout.write(
      `  ${entity}: ${Math.min(rows, from + BATCH - 1).toLocaleString('en-US')} rows after ${secondsSince(t0)}\n`,
    );
  }
  const tl = secondsSince(t0);
  const ti = process.hrtime.bigint();
  for (const ix of indexes) await client.query(ix.indexdef);
  console.log(
    `  ${entity}: ${rows.toLocaleString('en-US')} rows in ${tl}, ${indexes.length} indexes rebuilt in ${secondsSince(ti)}`,
  );
}

/** Loads both entities with the triggers off, then refills the summary tables once and analyzes. */
async function load(app: FastifyInstance, url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`SET maintenance_work_mem = '512MB'`);
    await client.query('SELECT setseed(0.1818)');
    // Bulk load: the per-row summary triggers are off for this session; the summaries are
    // rebuilt from the tables below with the same statement the first start uses.
    await client.query(`SET session_replication_role = replica`);
    const statesOf = (entity: string) => {
      const machine = app.definitions.machines.get(app.definitions.entities.get(entity)!.manifest.workflow!);
      return Object.keys(machine!.states);
    };
    const refCount = async (kind: string) =>
      Number(
        (await client.query<{ n: string }>(`SELECT count(*) AS n FROM ref_item WHERE kind = $1`, [kind])).rows[0]!.n,
      );
    const [types, topics, salesKinds] = [
      await refCount('appeal-type'),
      await refCount('appeal-topic'),
      await refCount('sales-kind'),
    ];
    const districts = `(SELECT id, parent, (row_number() OVER (ORDER BY id) - 1)::int AS rn, count(*) OVER ()::int AS n
                          FROM ref_item WHERE kind = 'district')`;
    await loadEntity(
      app,
      client,
      'appeal',
      APPEALS,
      `SELECT jsonb_build_object(
                'applicantType', CASE WHEN s.r1 < 0.15 THEN 'LEGAL' ELSE 'INDIVIDUAL' END,
                'customer', jsonb_build_object('surname', ${pick(['Karimov', 'Yusupova', 'Aliyev', 'Nazarova'], 's.r2')},
                  'name', ${pick(['Aziz', 'Dilnoza', 'Jasur', 'Madina'], 's.r3')}, 'pnfl', lpad((s.i::bigint * 7919 % 100000000000000)::text, 14, '3')),
                'appealTypeId', 1 + floor(s.r4 * ${types})::int,
                'topicId', 1 + floor(s.r5 * ${topics})::int,
                'salesKindId', 1 + floor(s.r6 * ${salesKinds})::int,
                'regionId', d.parent, 'districtId', d.id,
                'phone', '+99890-' || lpad((s.i % 1000)::text, 3, '0') || '-45-' || lpad((s.i % 100)::text, 2, '0'),
                'shortDescription', ${pick(['Sifatsiz mahsulot', 'Narx belgilanmagan', 'Chek berilmadi', 'Pul qaytarilmadi'], 's.r7')} || ' #' || s.i,
                'content', 'Dokonda sotib olingan mahsulot sifatsiz chiqdi.', 'files', '[]'::jsonb) AS data,
              ${pick(statesOf('appeal'), 's.r8')} AS status,
              now() - s.r9 * interval '3 years' AS created_at
         FROM (SELECT i, random() AS r1, random() AS r2, random() AS r3, random() AS r4, random() AS r5, random() AS r6,
                      random() AS r7, random() AS r8, random() AS r9, floor(random() * (SELECT max(n) FROM ${districts} x))::int AS pick
                 FROM generate_series($1::int, $2::int) AS i) s
         JOIN ${districts} d ON d.rn = s.pick`,
    );
    await loadEntity(
      app,
      client,
      'compliance-case',
      CASES,
      `SELECT jsonb_build_object(
                'caseNumber', 'B-' || s.i || '/' || to_char(s.day, 'YY'), 'caseDate', to_char(s.day, 'YYYY-MM-DD'),
                'regionId', 1 + floor(s.r1 * 15)::int, 'stir', (300000000 + s.i)::text,
                'name', '"Savdo ' || s.i || '" MChJ', 'sector', ${pick(['Chakana savdo', 'Xizmatlar', 'Qurilish'], 's.r2')},
                'chairman', 'A. Qodirov', 'basis', ${pick(['Murojaat', 'Reja', 'Monitoring'], 's.r3')},
                'violatedLaw', 'Iste''molchilar huquqlari to''g''risida', 'finding', 'Narx yorlig''i yo''q',
                'summary', 'Narx yorliqlari talablarini buzish', 'amount', floor(s.r4 * 50000000)::bigint,
                'files', '[]'::jsonb) AS data,
              ${pick(statesOf('compliance-case'), 's.r5')} AS status,
              s.day::timestamp AT TIME ZONE 'Asia/Tashkent' + interval '10 hours' AS created_at
         FROM (SELECT i, random() AS r1, random() AS r2, random() AS r3, random() AS r4, random() AS r5,
                      (current_date - floor(random() * 1095)::int) AS day
                 FROM generate_series($1::int, $2::int) AS i) s`,
    );
    const tr = process.hrtime.bigint();
    for (const r of app.rollups.values()) {
      await client.query(`TRUNCATE ${r.table}`);
      await client.query(r.fill);
    }
    const sizes: string[] = [];
    for (const r of app.rollups.values())
      sizes.push(
        `${r.entity}/${r.aggregate} ${(await client.query(`SELECT count(*) AS n FROM ${r.table}`)).rows[0].n}`,
      );
    console.log(`  summary tables filled in ${secondsSince(tr)} (rows: ${sizes.join(', ') || 'none'})`);
    const tv = process.hrtime.bigint();
    await client.query('VACUUM ANALYZE');
    console.log(`  VACUUM ANALYZE in ${secondsSince(tv)}`);
  } finally {
    await client.end();
  }
}

interface Job {
  screen: string;
  panel: DashboardPanel;
  filters: readonly DashboardFilter[] | undefined;
}

/** The panels of every dashboard screen over the benched entities. */
function panelsOf(app: FastifyInstance): Job[] {
  const bases = new Set(ENTITIES.map((e) => app.definitions.entities.get(e)!.manifest.base));
  const jobs: Job[] = [];
  for (const screen of app.definitions.screens.values()) {
    if (screen.kind !== 'dashboard') continue;
    const options = screen.options as { panels?: DashboardPanel[]; filters?: DashboardFilter[] };
    for (const panel of options.panels ?? []) {
      const aggregate = aggregateOf(panel.source.endpoint);
      const listBase = /^\/api(\/.+)\/list-search$/.exec(panel.source.endpoint)?.[1];
      if ((aggregate && bases.has(aggregate.base)) || (listBase && bases.has(listBase)))
        jobs.push({ screen: screen.id, panel, filters: options.filters });
    }
  }
  return jobs;
}

interface Who {
  name: string;
  token: string;
  actor: Actor;
}

/** The SQL the server runs for one call (summary table or entity table) and its parameters. */
function sqlOf(app: FastifyInstance, call: ReturnType<typeof panelCall>, who: Who) {
  const aggregate = aggregateOf(call.endpoint);
  const base = aggregate?.base ?? /^\/api(\/.+)\/list-search$/.exec(call.endpoint)![1];
  const def = [...app.definitions.entities.values()].find((d) => d.manifest.base === base)!;
  const table = app.tables.get(def.id)!;
  const { bucket, ...query } = call.query;
  if (aggregate) {
    const scoped = app.store.readableWhere(def.id, query, who.actor);
    const { sql, params } = aggregateQuery(def, table, def.manifest.aggregates![aggregate.name]!, scoped, bucket);
    const summary = rollupSql(app.rollups.get(`${def.id}/${aggregate.name}`), table, sql, query, bucket);
    return {
      statements: [summary ?? sql],
      params,
      path: summary ? 'summary' : 'table',
      table: summary ? sql : undefined,
    };
  }
  const q = readableListQuery(def, table, query, (call.body ?? {}) as never, who.actor, []);
  const s = listSearchSql(table, q, DEFAULT_COUNT_CAP);
  return { statements: [s.page, s.count], params: q.params, path: 'list', table: undefined };
}

async function timed(runs: number, fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 3; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    out.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return out.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  console.log(
    `bench:dashboards — ${APPEALS.toLocaleString('en-US')} appeals, ${CASES.toLocaleString('en-US')} compliance cases, ${RUNS} runs per panel, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), load average ${os.loadavg()[0]!.toFixed(1)}`,
  );
  const fixture = createDefinitionsFixture();
  // Throwaway: fsync off speeds the load; the timed reads do not write.
  const cluster = await startTestCluster({ fsync: false });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-dash-'));
  let app: FastifyInstance | undefined;
  let pool: pg.Pool | undefined;
  try {
    // The real dashboards first; the fixture only when none shows these entities (or asked for).
    let probe = await buildApp({ databaseUrl: cluster.url, dataDir, root: fixture.root, adminPassword: PASSWORD });
    const real = panelsOf(probe).length;
    await probe.close();
    if (!real || process.env.BENCH_FIXTURE === '1') addFixtureDashboards(fixture);
    console.log(
      `dashboard panels over appeals/compliance cases in the screens: ${real}${!real || process.env.BENCH_FIXTURE === '1' ? ' (+ the fixture dashboard)' : ''}`,
    );
    app = probe = await buildApp({ databaseUrl: cluster.url, dataDir, root: fixture.root, adminPassword: PASSWORD });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const t0 = process.hrtime.bigint();
    console.log('loading…');
    await load(app, cluster.url);
    console.log(`loaded in ${secondsSince(t0)}`);

    // Sign in as the chair and as a regional head (department head of one region).
    const admin = await signIn(url, 'admin');
    const people: Who[] = [];
    const actors = createActorLoader(app.db, app.definitions, app.tables, app.definitions.access!, app.users);
    for (const [username, role, regionId] of [
      ['bench-chair', 'chair', 15],
      ['bench-head', 'department-head', HEAD_REGION],
    ] as const) {
      const created = await api(url, admin.token, 'POST', '/api/portal-user/create', {
        username,
        firstName: 'Bench',
        lastName: username,
        isOuter: false,
        canLogin: true,
        roles: [role],
        regionId,
      });
      await api(url, admin.token, 'POST', '/api/auth/set-password', { userId: created.id, password: PASSWORD });
      const session = await signIn(url, username);
      people.push({
        name: role === 'chair' ? 'chair' : `head r${regionId}`,
        token: session.token,
        actor: (await actors.actorOf(String(session.id)))!,
      });
    }

    pool = createSqlPool(cluster.url, 2);
    const rows: string[][] = [];
    for (const job of panelsOf(app)) {
      const periodFilter = periodFilterOf(job.filters);
      for (const [unit, text] of Object.entries(PERIODS)) {
        if (!job.panel.source.period && unit === 'year') continue;
        for (const who of people) {
          const values = effectiveValues(job.filters, periodFilter ? { [periodFilter.name]: text } : {});
          const call = panelCall(job.panel.source, job.filters, values);
          const search = new URLSearchParams(call.query).toString();
          const target = `${url}${call.endpoint}${search ? `?${search}` : ''}`;
          const init = {
            method: call.method,
            headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/json' },
            ...(call.body ? { body: JSON.stringify(call.body) } : {}),
          };
          const first = await fetch(target, init);
          if (!first.ok) {
            rows.push([job.screen, job.panel.id, unit, who.name, '-', `HTTP ${first.status}`, '', '', '', '', '', '']);
            continue;
          }
          const body = (await first.json()) as { list?: unknown[] };
          const http = await timed(RUNS, async () => (await fetch(target, init)).arrayBuffer());
          const sql = sqlOf(app, call, who);
          const direct = await timed(RUNS, () => Promise.all(sql.statements.map((s) => pool!.query(s, sql.params))));
          // What the summary saves: the same request over the entity table (fewer runs, it is slow).
          const scan = sql.table ? await timed(TABLE_RUNS, () => pool!.query(sql.table!, sql.params)) : [];
          rows.push([
            job.screen,
            job.panel.id,
            unit,
            who.name,
            sql.path,
            String(body.list?.length ?? '?'),
            pct(http, 50).toFixed(1),
            pct(http, 95).toFixed(1),
            pct(direct, 50).toFixed(1),
            pct(direct, 95).toFixed(1),
            (pct(http, 95) / pct(direct, 95)).toFixed(2),
            scan.length ? pct(scan, 50).toFixed(0) : '',
          ]);
          process.stdout.write('.');
        }
      }
    }
    console.log(
      `\nload average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' / ')} (1 / 5 / 15 min)\n`,
    );
    printTable(
      [
        'screen',
        'panel',
        'period',
        'who',
        'path',
        'rows',
        'HTTP p50',
        'HTTP p95',
        'SQL p50',
        'SQL p95',
        'p95 ratio',
        'table SQL p50',
      ],
      rows,
    );
    console.log(
      `\n(ms; path: summary = the aggregate's summary table, table = the entity table, list = list-search page + count; table SQL p50 = the same request over the entity table, ${TABLE_RUNS} runs)`,
    );
  } finally {
    await pool?.end().catch(() => undefined);
    await app?.close().catch(() => undefined);
    cluster.stop();
    fixture.remove();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function signIn(url: string, username: string): Promise<{ token: string; id: number }> {
  const res = await fetch(`${url}/api/auth-payload`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in of ${username}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { token: string; id: number };
}

async function api(url: string, token: string, method: string, route: string, body: unknown): Promise<{ id: number }> {
  const res = await fetch(`${url}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: number };
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i >= 5 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w, i) => (i >= 5 ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`);
  for (const r of rows) console.log(line(r));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
