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
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort } from '../../tests/support/browser.ts';
import { PDF, PNG } from '../../tests/support/multipart.ts';
import { startTestCluster } from '../../tests/support/postgres.ts';
import { appealInput, submission } from '../../tests/support/public-samples.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLIENTS = positiveInt(process.env.BENCH_CLIENTS, 20);
const SECONDS = positiveInt(process.env.BENCH_SECONDS, 20);
const WARMUP_SECONDS = 2;
const SEND = '/api/outer-cabinet/send-appeal';

function positiveInt(text: string | undefined, fallback: number): number {
  const n = Number(text);
  return text && Number.isInteger(n) && n > 0 ? n : fallback;
}

/** A distinct loopback address for the i-th request (never .0 or .255 in the last octets). */
const addressOf = (i: number): string =>
  `127.${16 + Math.floor(i / (254 * 254))}.${(Math.floor(i / 254) % 254) + 1}.${(i % 254) + 1}`;

interface Outcome {
  status: number;
  ms: number;
  id?: number;
  files: number;
  error?: string;
}

/** One visitor's submission: a fresh connection from its own address. */
function sendAppeal(port: number, i: number, runId: string): Promise<Outcome> {
  const files =
    i % 2 === 0
      ? [{ name: `receipt-${i}.png`, type: 'image/png', content: PNG }]
      : [
          { name: `receipt-${i}.png`, type: 'image/png', content: PNG },
          { name: `contract-${i}.pdf`, type: 'application/pdf', content: PDF },
        ];
  const body = submission(
    appealInput(i, {
      customer: { surname: 'Karimov', name: 'Jasur', pnfl: `3120589${String(i).padStart(7, '0').slice(-7)}` },
    }),
    files,
  );
  const t0 = process.hrtime.bigint();
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: SEND,
        method: 'POST',
        localAddress: addressOf(i),
        agent: false,
        headers: {
          ...body.headers,
          'content-length': String(body.payload.length),
          'idempotency-key': `bench-${runId}-${i}`,
          'accept-language': 'en',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const ms = Number(process.hrtime.bigint() - t0) / 1e6;
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode === 200)
            resolve({ status: 200, ms, id: (JSON.parse(text) as { id: number }).id, files: files.length });
          else resolve({ status: res.statusCode ?? 0, ms, files: 0, error: text.slice(0, 200) });
        });
      },
    );
    req.on('error', (e) =>
      resolve({ status: 0, ms: Number(process.hrtime.bigint() - t0) / 1e6, files: 0, error: e.message }),
    );
    req.end(body.payload);
  });
}

async function startServer(port: number, databaseUrl: string, dataDir: string): Promise<ChildProcess> {
  const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/server/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      FILES_DIR: path.join(dataDir, 'files'),
      LOG_LEVEL: 'warn',
      SEED_SAMPLES: '0',
      WORKFLOW_SWEEP_INTERVAL_MS: '0',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode})`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return server;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  server.kill('SIGTERM');
  throw new Error('the server did not answer /api/health within 180 s');
}

const pct = (sorted: number[], p: number): number =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;

async function main(): Promise<void> {
  console.log(
    `bench:appeals — ${CLIENTS} concurrent visitors, ${SECONDS} s (after ${WARMUP_SECONDS} s warm-up), ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(2)}`,
  );
  const cluster = await startTestCluster();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-appeals-'));
  let server: ChildProcess | undefined;
  const db = new pg.Client({ connectionString: cluster.url });
  try {
    const port = await freePort();
    server = await startServer(port, cluster.url, dataDir);
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
        const outcome = await sendAppeal(port, next++, runId);
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
    const errors = new Map<string, number>();
    for (const o of measured.filter((x) => x.status !== 200))
      errors.set(
        `${o.status} ${o.error ?? ''}`.slice(0, 120),
        (errors.get(`${o.status} ${o.error ?? ''}`.slice(0, 120)) ?? 0) + 1,
      );
    console.log(
      `\nmeasured ${seconds.toFixed(1)} s: ${measured.length} requests, ${ok.length} appeals accepted (${ok.reduce((a, o) => a + o.files, 0)} attachments)`,
    );
    console.log(`  appeals accepted/s   ${(ok.length / seconds).toFixed(1)}`);
    console.log(
      `  latency              p50 ${pct(latencies, 50).toFixed(1)} ms   p99 ${pct(latencies, 99).toFixed(1)} ms   max ${(latencies.at(-1) ?? NaN).toFixed(1)} ms`,
    );
    console.log(
      `  errors               ${measured.length - ok.length}${[...errors].map(([what, n]) => `\n    ${n} × ${what}`).join('')}`,
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
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server!.once('exit', r));
    }
    cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
