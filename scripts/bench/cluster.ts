/**
 * `npm run bench:cluster`: the scale-out story, measured. Starts a throwaway PostgreSQL
 * cluster, RabbitMQ (the messenger's STOMP relay), the S3 emulator (s3rver), portal processes
 * as `npm start` runs them (src/server/main.ts with DATABASE_URL, FILES_S3_*, STOMP_RELAY_URL,
 * TRUST_PROXY) and HAProxy in front (round robin, health-checked on /api/health).
 *
 *   1. one instance behind the balancer: the public-appeal load (bench:appeals' visitors) plus
 *      staff list-search / get traffic, for BENCH_SECONDS;
 *   2. three instances, the same load;
 *   3. three instances again; a third of the way in one instance is killed with SIGKILL and
 *      started again. A visitor whose request failed sends it again with the same
 *      Idempotency-Key, as the public form does;
 *   4. verification: every acknowledged appeal is stored once, every attachment is readable
 *      (same SHA-256) through every instance; live messages sent by users on one instance reach
 *      users connected (STOMP over WebSocket, @stomp/stompjs) to each other instance.
 *
 * Prints throughput with 1 and 3 instances (and with the kill), latency p50/p99, the errors around the kill and
 * what was lost or duplicated. Never asserts; exits non-zero only when something crashes.
 *
 *   npm run bench:cluster
 *   BENCH_CLIENTS=30 BENCH_STAFF=4 BENCH_SECONDS=60 npm run bench:cluster
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { userRecord } from '../../tests/support/app.ts';
import { errorsOf, percentile, sendAppeal, type AppealOutcome } from '../../tests/support/appeal-load.ts';
import { freePort } from '../../tests/support/browser.ts';
import { startHaproxy } from '../../tests/support/haproxy.ts';
import { startObjectStore } from '../../tests/support/object-store.ts';
import { startTestCluster } from '../../tests/support/postgres.ts';
import { startPortalProcess, type PortalProcess } from '../../tests/support/portal-process.ts';
import { startRabbitmq } from '../../tests/support/rabbitmq.ts';
import { connectLive, type LiveClient } from '../../tests/support/stomp.ts';

const CLIENTS = positiveInt(process.env.BENCH_CLIENTS, 20);
const STAFF = positiveInt(process.env.BENCH_STAFF, 4);
const SECONDS = positiveInt(process.env.BENCH_SECONDS, 30);
const RETRY_DELAY_MS = 250;
const ADMIN_PASSWORD = 'Cluster-bench-Adm1n-pass';

function positiveInt(text: string | undefined, fallback: number): number {
  const n = Number(text);
  return text && Number.isInteger(n) && n > 0 ? n : fallback;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Attempt extends AppealOutcome {
  /** When the attempt started (ms since the epoch). */
  at: number;
}

/** One phase's figures: every attempt, the acknowledged appeal per index, the staff latencies. */
interface PhaseResult {
  seconds: number;
  attempts: Attempt[];
  acknowledged: Map<number, AppealOutcome>;
  staff: { ms: number[]; errors: number };
}

/** Calls the API as a signed-in user and answers status, body and time. */
async function call(
  base: string,
  method: string,
  url: string,
  token: string | undefined,
  body?: unknown,
): Promise<{ status: number; body: any; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'accept-language': 'en',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).catch(() => undefined);
  const text = res ? await res.text().catch(() => '') : '';
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res?.status ?? 0, body: parsed, ms: performance.now() - t0 };
}

async function signInAdmin(base: string): Promise<string> {
  const res = await call(base, 'POST', '/api/auth-payload', undefined, {
    username: 'admin',
    password: ADMIN_PASSWORD,
  });
  if (res.status !== 200) throw new Error(`admin sign-in failed: ${res.status}`);
  return (res.body as { token: string }).token;
}

/**
 * Visitors send appeals (each retried with its key until acknowledged) and staff read the list
 * and single appeals, all through the balancer, for `seconds`; `during` runs alongside.
 */
async function runPhase(
  port: number,
  token: string,
  runId: string,
  firstIndex: number,
  seconds: number,
  during: () => Promise<void> = async () => undefined,
): Promise<PhaseResult> {
  const base = `http://127.0.0.1:${port}`;
  const attempts: Attempt[] = [];
  const acknowledged = new Map<number, AppealOutcome>();
  const staff = { ms: [] as number[], errors: 0 };
  let next = firstIndex;
  const started = Date.now();
  const stopAt = started + seconds * 1000;
  const visitor = async () => {
    while (Date.now() < stopAt) {
      const i = next++;
      // Once started, an appeal is sent until acknowledged: a visitor does not walk away.
      for (let attempt = 0; attempt < 100 && !acknowledged.has(i); attempt++) {
        const at = Date.now();
        const outcome = await sendAppeal(port, i, `cluster-${runId}-${i}`);
        attempts.push({ ...outcome, at });
        if (outcome.status === 200) acknowledged.set(i, outcome);
        else await sleep(RETRY_DELAY_MS);
      }
    }
  };
  const reader = async () => {
    while (Date.now() < stopAt) {
      const list = await call(base, 'POST', '/api/appeal/list-search', token, {
        page: 0,
        itemsPerPage: 20,
        sortBy: ['createdAt'],
        sortDesc: [true],
      });
      if (list.status !== 200) staff.errors++;
      else staff.ms.push(list.ms);
      const first = (list.body as { list?: Array<{ id: number }> })?.list?.[0];
      if (first) {
        const one = await call(base, 'GET', `/api/appeal/get/${first.id}`, token);
        if (one.status !== 200) staff.errors++;
        else staff.ms.push(one.ms);
      }
    }
  };
  // The phase's time is the load's, not that of `during` (a restart may outlast it).
  const load = Promise.all([...Array.from({ length: CLIENTS }, visitor), ...Array.from({ length: STAFF }, reader)]);
  const [loadEnded] = await Promise.all([load.then(() => Date.now()), during()]);
  return { seconds: (loadEnded - started) / 1000, attempts, acknowledged, staff };
}

function report(name: string, phase: PhaseResult): void {
  const acked = [...phase.acknowledged.values()];
  const latencies = phase.attempts
    .filter((a) => a.status === 200)
    .map((a) => a.ms)
    .sort((a, b) => a - b);
  const staff = [...phase.staff.ms].sort((a, b) => a - b);
  const failed = phase.attempts.filter((a) => a.status !== 200);
  console.log(`\n${name}: ${phase.seconds.toFixed(1)} s`);
  console.log(
    `  appeals acknowledged/s ${(acked.length / phase.seconds).toFixed(1)}   (${acked.length} appeals, ${acked.reduce((n, o) => n + o.files, 0)} attachments)`,
  );
  console.log(
    `  appeal latency         p50 ${percentile(latencies, 50).toFixed(1)} ms   p99 ${percentile(latencies, 99).toFixed(1)} ms`,
  );
  console.log(
    `  staff list/get         ${(staff.length / phase.seconds).toFixed(1)} req/s   p50 ${percentile(staff, 50).toFixed(1)} ms   p99 ${percentile(staff, 99).toFixed(1)} ms   errors ${phase.staff.errors}`,
  );
  console.log(
    `  failed attempts        ${failed.length}${errorsOf(failed)
      .map(([what, n]) => `\n    ${n} × ${what}`)
      .join('')}`,
  );
}

/** Creates a staff user through the API and signs them in. */
async function staffUser(base: string, adminToken: string, username: string): Promise<{ id: string; token: string }> {
  const created = await call(base, 'POST', '/api/portal-user/create', adminToken, {
    ...userRecord(username, ['employee'], { regionId: 1 }),
  });
  if (created.status !== 200) throw new Error(`user ${username}: ${created.status} ${JSON.stringify(created.body)}`);
  const id = String((created.body as { id: number }).id);
  const password = 'Cluster-bench-passw0rd';
  await call(base, 'POST', '/api/auth/set-password', adminToken, { userId: Number(id), password });
  const session = await call(base, 'POST', '/api/auth-payload', undefined, { username, password });
  if (session.status !== 200) throw new Error(`sign-in of ${username}: ${session.status}`);
  return { id, token: (session.body as { token: string }).token };
}

async function main(): Promise<void> {
  console.log(
    `bench:cluster — ${CLIENTS} visitors + ${STAFF} staff readers, ${SECONDS} s per phase, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(2)}`,
  );
  const cleanup: Array<() => Promise<void> | void> = [];
  try {
    const cluster = await startTestCluster();
    cleanup.push(() => cluster.stop());
    const rabbit = await startRabbitmq();
    cleanup.push(() => rabbit.stop());
    const objectStore = await startObjectStore();
    cleanup.push(() => objectStore.stop());
    const ports = [await freePort(), await freePort(), await freePort()];
    const instances: Array<PortalProcess | undefined> = [];
    cleanup.push(() => Promise.all(instances.map((i) => i?.stop())).then(() => undefined));
    const dirs = ports.map(() => mkdtempSync(path.join(os.tmpdir(), 'portal-bench-cluster-')));
    cleanup.push(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
    const start = (n: number) =>
      startPortalProcess(
        ports[n]!,
        {
          DATABASE_URL: cluster.url,
          DATA_DIR: dirs[n]!,
          ADMIN_PASSWORD,
          STOMP_RELAY_URL: rabbit.url,
          TRUST_PROXY: '127.0.0.1',
          ...objectStore.env,
        },
        { timeoutMs: 600_000 },
      );
    const runId = Date.now().toString(36);

    // 1. One instance.
    instances[0] = await start(0);
    let balancer = await startHaproxy(await freePort(), [ports[0]!]);
    // Stops whichever balancer runs when something fails.
    cleanup.push(() => balancer.stop());
    const token = await signInAdmin(`http://127.0.0.1:${balancer.port}`);
    const single = await runPhase(balancer.port, token, runId, 0, SECONDS);
    report('1 instance', single);
    await balancer.stop();

    // 2. Three instances.
    instances[1] = await start(1);
    instances[2] = await start(2);
    balancer = await startHaproxy(await freePort(), ports);
    const three = await runPhase(balancer.port, token, runId, 1_000_000, SECONDS);
    report('3 instances', three);

    // 3. Three instances, one killed a third of the way in and started again.
    const victim = 1;
    let killedAt = 0;
    let backAt = 0;
    const phaseStarted = Date.now();
    const kill = await runPhase(balancer.port, token, runId, 2_000_000, SECONDS, async () => {
      await sleep((SECONDS * 1000) / 3);
      killedAt = Date.now();
      await instances[victim]!.stop('SIGKILL');
      instances[victim] = await start(victim);
      backAt = Date.now();
    });
    report('3 instances, one SIGKILLed and restarted', kill);
    const aroundKill = kill.attempts.filter((a) => a.at >= killedAt - 1000 && a.at <= backAt);
    const killedAfter = (killedAt - phaseStarted) / 1000;
    console.log(
      `  the kill: instance ${victim + 1} SIGKILLed ${killedAfter.toFixed(1)} s in, healthy again after ${((backAt - killedAt) / 1000).toFixed(1)} s; ${aroundKill.filter((a) => a.status !== 200).length} failed of ${aroundKill.length} attempts from 1 s before the kill until it was back (each retried with its Idempotency-Key)`,
    );
    console.log(
      `\nthroughput: 1 instance ${(single.acknowledged.size / single.seconds).toFixed(1)} appeals/s → 3 instances ${(three.acknowledged.size / three.seconds).toFixed(1)} appeals/s → with the kill ${(kill.acknowledged.size / kill.seconds).toFixed(1)} appeals/s; load average ${os.loadavg()[0]!.toFixed(2)}`,
    );

    // 4. Verification.
    const acknowledged = [single, three, kill].flatMap((phase) => [...phase.acknowledged.values()]);
    const ids = acknowledged.map((o) => o.id!);
    const db = new pg.Client({ connectionString: cluster.url });
    await db.connect();
    cleanup.push(() => db.end());
    const stored = (await db.query<{ id: string }>('SELECT id FROM e_appeal')).rows.map((r) => Number(r.id));
    const storedSet = new Set(stored);
    const lost = ids.filter((id) => !storedSet.has(id));
    const ackedSet = new Set(ids);
    const unacknowledged = stored.filter((id) => !ackedSet.has(id));
    const sameIdTwice = ids.length - ackedSet.size;
    const files = (
      await db.query<{ id: string; sha256: string }>(
        `SELECT id, sha256 FROM file_entity WHERE kind = 'appeal' AND record_id = ANY($1::bigint[])`,
        [ids],
      )
    ).rows;
    const ackedFiles = acknowledged.reduce((n, o) => n + o.files, 0);
    let missingFromBucket = 0;
    for (let i = 0; i < files.length; i += 20)
      missingFromBucket += (await Promise.all(files.slice(i, i + 20).map((f) => objectStore.has(f.id)))).filter(
        (found) => !found,
      ).length;
    let unreadable = 0;
    for (const port of ports) {
      const base = `http://127.0.0.1:${port}`;
      const admin = await signInAdmin(base);
      for (let i = 0; i < files.length; i += 20) {
        const results = await Promise.all(
          files.slice(i, i + 20).map(async (f) => {
            const res = await fetch(`${base}/api/file-entity/get/${f.id}`, {
              headers: { authorization: `Bearer ${admin}` },
            }).catch(() => undefined);
            if (res?.status !== 200) return false;
            return (
              createHash('sha256')
                .update(Buffer.from(await res.arrayBuffer()))
                .digest('hex') === f.sha256
            );
          }),
        );
        unreadable += results.filter((ok) => !ok).length;
      }
    }
    console.log(
      `\nverification: ${ids.length} appeals acknowledged, ${stored.length} stored; lost ${lost.length}, stored without acknowledgement ${unacknowledged.length}, one id acknowledged for two appeals ${sameIdTwice}`,
    );
    console.log(
      `  attachments: ${ackedFiles} acknowledged, ${files.length} stored, ${missingFromBucket} missing from the bucket, ${unreadable} of ${files.length * ports.length} downloads through the ${ports.length} instances failed or differed`,
    );

    // Live messages between users on different instances (through RabbitMQ).
    const base = `http://127.0.0.1:${balancer.port}`;
    const users = await Promise.all(ports.map((_, n) => staffUser(base, token, `cluster-${runId}-${n}`)));
    const sockets: LiveClient[] = await Promise.all(
      users.map((u, n) => connectLive(`ws://127.0.0.1:${ports[n]}/gs-guide-websocket`, u.token, u.id)),
    );
    cleanup.push(() => Promise.all(sockets.map((s) => s.close())).then(() => undefined));
    for (const s of sockets) await s.subscribe('msg');
    let delivered = 0;
    let expected = 0;
    const delays: number[] = [];
    for (const [from, sender] of sockets.entries()) {
      for (const [to, receiver] of sockets.entries()) {
        if (from === to) continue;
        expected++;
        const text = `from ${from + 1} to ${to + 1} ${runId}`;
        const t0 = performance.now();
        await sender.send('/app/sendMessage', { receiverId: Number(users[to]!.id), message: text });
        const got = await receiver.next('msg', (m) => m.message === text, 10_000).catch(() => undefined);
        if (got) {
          delivered++;
          delays.push(performance.now() - t0);
        }
      }
    }
    delays.sort((a, b) => a - b);
    console.log(
      `  live messages: ${delivered} of ${expected} delivered between users on different instances (p50 ${percentile(delays, 50).toFixed(1)} ms, max ${(delays.at(-1) ?? NaN).toFixed(1)} ms)`,
    );
  } finally {
    for (const step of cleanup.reverse()) await Promise.resolve(step()).catch(() => undefined);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
