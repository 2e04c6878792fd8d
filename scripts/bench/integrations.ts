/**
 * Integration platform benchmark: the latency of one agency call through the portal
 * (POST /api/integrations/<agency>/<method>: sign-in check, parameter validation, rate limits,
 * breaker, timeout, the upstream request, the audit row in PostgreSQL) next to the same request
 * sent straight to the sandbox upstream. Three paths: a personal-data method (never cached: the
 * full path with a purpose), a cached method answered from the cache, and the upstream alone.
 * The app runs on a throwaway PostgreSQL cluster, the sandbox in the same process (as under
 * INTEGRATIONS=sandbox). Sequential calls, then CONCURRENCY at once. Prints figures; never asserts.
 *
 *   npm run bench:integrations
 *   BENCH_CALLS=2000 BENCH_CONCURRENCY=10 npm run bench:integrations
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.ts';
import { startTestCluster, type TestCluster } from '../../tests/support/postgres.ts';

const CALLS = positiveInt(process.env.BENCH_CALLS, 500);
const CONCURRENCY = positiveInt(process.env.BENCH_CONCURRENCY, 10);
const PASSWORD = 'bench-admin-password';

function positiveInt(text: string | undefined, fallback: number): number {
  const n = Number(text);
  return text && Number.isInteger(n) && n > 0 ? n : fallback;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** Runs `call` CALLS times with `parallel` in flight; the latencies in ms, sorted. */
async function measure(call: () => Promise<Response>, parallel: number): Promise<number[]> {
  const times: number[] = [];
  let left = CALLS;
  const worker = async () => {
    while (left-- > 0) {
      const started = performance.now();
      const res = await call();
      await res.arrayBuffer();
      if (!res.ok && res.status !== 404) throw new Error(`bench call answered ${res.status}`);
      times.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return times.sort((a, b) => a - b);
}

const line = (name: string, t: number[]) =>
  `${name.padEnd(44)} p50 ${percentile(t, 50).toFixed(2).padStart(7)} ms   p95 ${percentile(t, 95).toFixed(2).padStart(7)} ms   p99 ${percentile(t, 99).toFixed(2).padStart(7)} ms`;

async function main(): Promise<void> {
  let cluster: TestCluster | undefined;
  let app: FastifyInstance | undefined;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-integrations-'));
  try {
    cluster = await startTestCluster();
    app = await buildApp({ databaseUrl: cluster.url, dataDir, adminPassword: PASSWORD, integrationSandbox: true });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const sandbox = app.integrationSandbox!;
    const { token } = (await (
      await fetch(`${base}/api/auth-payload`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: PASSWORD }),
      })
    ).json()) as { token: string };

    const methods = [...app.definitions.integrations].flatMap(([agency, def]) =>
      [...def.methods.values()].map((method) => ({ agency, method, cases: def.fixtures.get(method.id)!.cases })),
    );
    const personal = methods.find((m) => m.method.personalData && !m.method.cache) ?? methods[0]!;
    const cached = methods.find((m) => m.method.cache && !m.method.personalData) ?? methods[0]!;
    // The bench is one user calling thousands of times a minute: lift the per-user and per-method
    // limits of the two methods in this process's definitions (the rate limiter has its own tests).
    for (const m of [personal, cached]) {
      m.method.perUserPerMinute = 1e9;
      m.method.perMinute = undefined;
      app.definitions.integrations.get(m.agency)!.agency.perMinute = undefined;
    }
    const through = (m: typeof personal) => () =>
      fetch(`${base}/api/integrations/${m.agency}/${m.method.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          params: m.cases[0]!.params,
          ...(m.method.personalData ? { purpose: 'Benchmark of the integration platform' } : {}),
        }),
      });
    const direct = (m: typeof personal) => () => {
      const { request } = m.method;
      const url = new URL(`${sandbox.url}/${m.agency}/${request.path}`);
      const inQuery = (request.in ?? (request.method === 'GET' ? 'query' : 'body')) === 'query';
      if (inQuery) for (const [k, v] of Object.entries(m.cases[0]!.params)) url.searchParams.set(k, String(v));
      return fetch(url, {
        method: request.method,
        headers: { accept: 'application/json', ...(inQuery ? {} : { 'content-type': 'application/json' }) },
        ...(inQuery ? {} : { body: JSON.stringify(m.cases[0]!.params) }),
      });
    };
    console.log(
      `bench:integrations — ${CALLS} calls per row, PostgreSQL on 127.0.0.1:${cluster.port}, sandbox upstream in-process`,
    );
    console.log(
      `  uncached (personal data): ${personal.agency}/${personal.method.id}; cached: ${cached.agency}/${cached.method.id}`,
    );
    // Warm-up: JIT, the pool, the validators.
    await measure(through(personal), 2);
    await measure(direct(personal), 2);
    for (const parallel of [1, CONCURRENCY]) {
      console.log(`\n${parallel === 1 ? 'one at a time' : `${parallel} at once`}:`);
      const up = await measure(direct(personal), parallel);
      const full = await measure(through(personal), parallel);
      const hit = await measure(through(cached), parallel);
      console.log(line('upstream alone (sandbox, straight)', up));
      console.log(line('through the platform, personal (audited)', full));
      console.log(line('through the platform, from the cache', hit));
      console.log(
        `${'platform overhead at p95'.padEnd(44)} ${(percentile(full, 95) - percentile(up, 95)).toFixed(2)} ms (×${(percentile(full, 95) / percentile(up, 95)).toFixed(2)})`,
      );
    }
  } finally {
    await app?.close();
    cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
