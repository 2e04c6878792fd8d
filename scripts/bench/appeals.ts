/**
 * `npm run bench:appeals`: public appeals accepted per second, with attachments, on
 * PostgreSQL. A throwaway cluster (tests/support/postgres.ts) and the server as `npm start`
 * runs it (a child process: src/server/main.ts with DATABASE_URL, files on local disk);
 * BENCH_CLIENTS concurrent visitors POST /api/outer-cabinet/send-appeal as multipart (the
 * appeal as JSON plus one or two attachments — a real PNG and a PDF — and a unique
 * Idempotency-Key) for BENCH_SECONDS. Prints appeals accepted per second, latency p50/p99/max
 * and errors, then checks in the database that exactly the acknowledged appeals (and their
 * attachments) are stored. Prints only; exits non-zero only when something crashes.
 *
 *   npm run bench:appeals
 *   BENCH_CLIENTS=50 BENCH_SECONDS=30 npm run bench:appeals
 *
 * Every request comes from its own loopback address (127.16.0.0/12 — Linux routes all of
 * 127/8 to `lo`), as real visitors do: the submission limit per address and minute (the
 * manifest's publicSubmit.perMinute) stays on and is not what is measured.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  errorsOf,
  percentile as pct,
  sendAppeal,
  type AppealOutcome as Outcome,
} from '../../tests/support/appeal-load.ts';
import { freePort } from '../../tests/support/browser.ts';
import { startTestCluster } from '../../tests/support/postgres.ts';
import { startPortalProcess, type PortalProcess } from '../../tests/support/portal-process.ts';

const CLIENTS = positiveInt(process.env.BENCH_CLIENTS, 20);
const SECONDS = positiveInt(process.env.BENCH_SECONDS, 20);
const WARMUP_SECONDS = 2;

function positiveInt(text: string | undefined, fallback: number): number {
  const n = Number(text);
  return text && Number.isInteger(n) && n > 0 ? n : fallback;
}

async function main(): Promise<void> {
  console.log(
    `bench:appeals — ${CLIENTS} concurrent visitors, ${SECONDS} s (after ${WARMUP_SECONDS} s warm-up), ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(2)}`,
  );
  const cluster = await startTestCluster();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-appeals-'));
  let server: PortalProcess | undefined;
  const db = new pg.Client({ connectionString: cluster.url });
  try {
    const port = await freePort();
    server = await startPortalProcess(port, {
      DATABASE_URL: cluster.url,
      DATA_DIR: dataDir,
      FILES_DIR: path.join(dataDir, 'files'),
    });
    await db.connect();
    const count = async (sql: string, params: unknown[] = []) =>
      Number((await db.query<{ n: string }>(sql, params)).rows[0]!.n);
    const appealsBefore = await count('SELECT count(*) AS n FROM e_appeal');
    const filesBefore = await count(
      `SELECT count(*) AS n FROM file_entity WHERE kind = 'appeal' AND record_id IS NOT NULL`,
    );

    const runId = Date.now().toString(36);
    let next = 0;
    const all: Outcome[] = [];
    const measured: Outcome[] = [];
    const start = Date.now();
    const measureFrom = start + WARMUP_SECONDS * 1000;
    const stopAt = measureFrom + SECONDS * 1000;
    let measureStart = 0;
    let measureEnd = 0;
    const client = async () => {
      while (Date.now() < stopAt) {
        const began = Date.now();
        const i = next++;
        const outcome = await sendAppeal(port, i, `bench-${runId}-${i}`);
        all.push(outcome);
        if (began >= measureFrom) {
          measureStart ||= began;
          measured.push(outcome);
          measureEnd = Date.now();
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));

    const ok = measured.filter((o) => o.status === 200);
    const latencies = ok.map((o) => o.ms).sort((a, b) => a - b);
    const seconds = (measureEnd - measureStart) / 1000;
    const errors = errorsOf(measured);
    console.log(
      `\nmeasured ${seconds.toFixed(1)} s: ${measured.length} requests, ${ok.length} appeals accepted (${ok.reduce((a, o) => a + o.files, 0)} attachments)`,
    );
    console.log(`  appeals accepted/s   ${(ok.length / seconds).toFixed(1)}`);
    console.log(
      `  latency              p50 ${pct(latencies, 50).toFixed(1)} ms   p99 ${pct(latencies, 99).toFixed(1)} ms   max ${(latencies.at(-1) ?? NaN).toFixed(1)} ms`,
    );
    console.log(
      `  errors               ${measured.length - ok.length}${errors.map(([what, n]) => `\n    ${n} × ${what}`).join('')}`,
    );

    // Every acknowledged appeal is stored, with its attachments, and nothing else was.
    const acked = all.filter((o) => o.status === 200);
    const ackedIds = acked.map((o) => o.id!);
    const stored = (await count('SELECT count(*) AS n FROM e_appeal')) - appealsBefore;
    const storedAcked = await count('SELECT count(*) AS n FROM e_appeal WHERE id = ANY($1::bigint[])', [ackedIds]);
    const storedFiles =
      (await count(`SELECT count(*) AS n FROM file_entity WHERE kind = 'appeal' AND record_id IS NOT NULL`)) -
      filesBefore;
    const ackedFiles = acked.reduce((a, o) => a + o.files, 0);
    const same = stored === acked.length && storedAcked === acked.length && storedFiles === ackedFiles;
    console.log(
      `\nverification (warm-up included): acknowledged ${acked.length} appeals / ${ackedFiles} attachments; stored ${stored} appeals (${storedAcked} of the acknowledged ids) / ${storedFiles} attachments — ${same ? 'equal' : 'MISMATCH'}`,
    );
  } finally {
    await db.end().catch(() => undefined);
    await server?.stop();
    cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
