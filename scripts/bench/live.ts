/**
 * Live socket benchmark: CLIENTS real @stomp/stompjs clients connected over loopback to the
 * portal (STOMP 1.2 at /gs-guide-websocket, embedded broker, PostgreSQL), then
 *   1. direct messages, paced: p50/p99 from SEND to the recipient's MESSAGE;
 *   2. a GROUP-member group chat, paced: p50/p99 to every other member;
 *   3. direct messages as fast as the clients can send: delivered messages per second.
 * A warm-up (BENCH_WARMUP messages, default 200, with group messages among them) goes first and
 * is not counted: the figures are those of a server that has run for a while.
 * Every message is stored in PostgreSQL before it is delivered, as in production.
 * Prints figures; never asserts.
 *
 *   npm run bench:live
 *   BENCH_CLIENTS=1000 BENCH_DIRECT=1000 BENCH_RATE=100 BENCH_GROUP=50 BENCH_WARMUP=200 npm run bench:live
 *
 * The clients run in a child process (this file forked with CHILD_FLAG) so that they do
 * not share the server's event loop. Both processes read one clock (performance.timeOrigin
 * + performance.now()), so SEND-to-MESSAGE times are comparable across them.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, type IMessage } from '@stomp/stompjs';
import WebSocket from 'ws';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.ts';
import { createTokenService } from '../../src/server/auth/tokens.ts';
import { systemActor } from '../../src/server/auth/access.ts';
import { postgresUnavailableReason, startTestCluster, type TestCluster } from '../../tests/support/postgres.ts';

const CHILD_FLAG = '--bench-live-clients';
const positiveInt = (text: string | undefined, fallback: number): number => {
  const n = Number(text);
  return text && Number.isInteger(n) && n > 0 ? n : fallback;
};
const CLIENTS = positiveInt(process.env.BENCH_CLIENTS, 1000);
const DIRECT = positiveInt(process.env.BENCH_DIRECT, 1000);
const RATE = positiveInt(process.env.BENCH_RATE, 100);
const GROUP = Math.min(positiveInt(process.env.BENCH_GROUP, 50), CLIENTS);
const GROUP_MESSAGES = positiveInt(process.env.BENCH_GROUP_MESSAGES, 100);
const GROUP_RATE = positiveInt(process.env.BENCH_GROUP_RATE, 10);
const BURST = positiveInt(process.env.BENCH_BURST, 2000);
const WARMUP = process.env.BENCH_WARMUP === '0' ? 0 : positiveInt(process.env.BENCH_WARMUP, 200);
const TARGET_P99_MS = 50;

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (values: number[], p: number) => {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const ms = (n: number) => `${n.toFixed(1)} ms`;
const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

interface Setup {
  url: string;
  users: Array<{ id: string; token: string }>;
  groupChatId: number;
  groupMembers: number;
}
type Report = { phase: string; latencies: number[]; delivered: number; expected: number; seconds: number };

// ---------------------------------------------------------------------------------------
// The clients (child process)

async function runClients(setup: Setup): Promise<void> {
  const { url, users } = setup;
  const waiting = new Map<string, { sentAt: number; left: number; latencies: number[]; done: () => void }>();
  const onMessage = (message: IMessage) => {
    const body = JSON.parse(message.body) as { action?: string; message?: string; ownerId?: number };
    if (body.action !== 'NEW' || !body.message) return;
    const w = waiting.get(body.message);
    if (!w) return;
    const to = message.headers.destination!.split('/')[2];
    if (String(body.ownerId) === to) return; // the sender's own copy
    w.latencies.push(now() - w.sentAt);
    if (--w.left === 0) {
      waiting.delete(body.message);
      w.done();
    }
  };
  const t0 = now();
  const clients: Client[] = [];
  for (let i = 0; i < users.length; i += 50) {
    await Promise.all(
      users.slice(i, i + 50).map(
        (u) =>
          new Promise<void>((resolve, reject) => {
            const client = new Client({
              connectHeaders: { Authorization: `Bearer ${u.token}` },
              reconnectDelay: 0,
              heartbeatIncoming: 10_000,
              heartbeatOutgoing: 10_000,
              webSocketFactory: () => new WebSocket(url, ['v12.stomp']),
            });
            client.onConnect = () => {
              client.subscribe(`/user/${u.id}/msg`, onMessage);
              client.subscribe(`/user/${u.id}/groupMsg`, onMessage);
              resolve();
            };
            client.onStompError = (f) => reject(new Error(f.headers.message));
            client.activate();
            clients.push(client);
          }),
      ),
    );
  }
  process.send!({ connected: clients.length, seconds: (now() - t0) / 1000 });
  await sleep(500);

  const send = (
    from: number,
    destination: string,
    body: Record<string, unknown>,
    recipients: number,
    latencies: number[],
  ) =>
    new Promise<void>((resolve) => {
      const tag = `m-${from}-${Math.random().toString(36).slice(2)}`;
      waiting.set(tag, { sentAt: now(), left: recipients, latencies, done: resolve });
      clients[from]!.publish({ destination, body: JSON.stringify({ ...body, message: tag }) });
    });
  const settle = async (pending: Array<Promise<void>>, expected: number, latencies: number[]) => {
    await Promise.race([Promise.all(pending), sleep(30_000)]);
    return latencies.length === expected;
  };

  // 0. warm-up, not counted: a server that has just started compiles its hot paths (JIT, the
  // first statements of each kind) on its first messages; the figures below are of a warm one.
  {
    const pending: Array<Promise<void>> = [];
    for (let k = 0; k < WARMUP; k++) {
      const from = k % clients.length;
      pending.push(
        send(from, '/app/sendMessage', { receiverId: Number(users[(from + 7) % clients.length]!.id) }, 1, []),
      );
      if (k % 10 === 0)
        pending.push(
          send(
            k % setup.groupMembers,
            '/app/sendGroupMessage',
            { groupChatId: setup.groupChatId },
            setup.groupMembers - 1,
            [],
          ),
        );
      await sleep(1000 / RATE);
    }
    await settle(pending, 0, []);
    process.send!({ warmedUp: WARMUP });
  }
  // 1. direct, paced
  {
    const latencies: number[] = [];
    const pending: Array<Promise<void>> = [];
    const start = now();
    for (let k = 0; k < DIRECT; k++) {
      const from = k % clients.length;
      const to = (from + 1 + Math.floor(Math.random() * (clients.length - 1))) % clients.length;
      pending.push(send(from, '/app/sendMessage', { receiverId: Number(users[to]!.id) }, 1, latencies));
      const due = start + ((k + 1) * 1000) / RATE;
      if (due > now()) await sleep(due - now());
    }
    await settle(pending, DIRECT, latencies);
    process.send!({
      phase: `direct, ${RATE}/s paced`,
      latencies,
      delivered: latencies.length,
      expected: DIRECT,
      seconds: (now() - start) / 1000,
    } satisfies Report);
  }
  // 2. group, paced
  {
    const latencies: number[] = [];
    const pending: Array<Promise<void>> = [];
    const start = now();
    for (let k = 0; k < GROUP_MESSAGES; k++) {
      pending.push(
        send(
          k % setup.groupMembers,
          '/app/sendGroupMessage',
          { groupChatId: setup.groupChatId },
          setup.groupMembers - 1,
          latencies,
        ),
      );
      const due = start + ((k + 1) * 1000) / GROUP_RATE;
      if (due > now()) await sleep(due - now());
    }
    const expected = GROUP_MESSAGES * (setup.groupMembers - 1);
    await settle(pending, expected, latencies);
    process.send!({
      phase: `group of ${setup.groupMembers}, ${GROUP_RATE} messages/s paced`,
      latencies,
      delivered: latencies.length,
      expected,
      seconds: (now() - start) / 1000,
    } satisfies Report);
  }
  // 3. direct, unpaced
  {
    const latencies: number[] = [];
    const start = now();
    const pending = Array.from({ length: BURST }, (_, k) => {
      const from = k % clients.length;
      return send(
        from,
        '/app/sendMessage',
        { receiverId: Number(users[(from + 1) % clients.length]!.id) },
        1,
        latencies,
      );
    });
    await settle(pending, BURST, latencies);
    process.send!({
      phase: `direct, ${BURST} at once`,
      latencies,
      delivered: latencies.length,
      expected: BURST,
      seconds: (now() - start) / 1000,
    } satisfies Report);
  }
  await Promise.all(clients.map((c) => c.deactivate()));
  process.send!({ finished: true }, () => process.exit(0));
}

// ---------------------------------------------------------------------------------------
// The server (parent process)

async function main(): Promise<void> {
  let cluster: TestCluster | undefined;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-live-'));
  let app: FastifyInstance | undefined;
  try {
    const reason = postgresUnavailableReason();
    if (reason) console.log(`PostgreSQL unavailable (${reason}): running on PGlite in memory`);
    else cluster = await startTestCluster();
    app = await buildApp({
      dataDir,
      inMemory: !cluster,
      databaseUrl: cluster?.url,
      adminPassword: 'bench-admin-password',
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/gs-guide-websocket`;
    console.log(
      `portal on ${cluster ? `PostgreSQL (127.0.0.1:${cluster.port}, fsync on)` : 'PGlite'}, broker: ${app.messenger.broker.kind}; ${os.cpus().length} cores, load average ${loadAverage()}`,
    );

    const t0 = now();
    const access = app.definitions.access!;
    const tokens = await createTokenService(app.db, process.env.AUTH_SECRET || undefined);
    const users: Setup['users'] = [];
    for (let i = 0; i < CLIENTS; i += 20) {
      users.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(20, CLIENTS - i) }, async (_, j) => {
            const user = await app!.store.create(
              access.userEntity,
              {
                username: `bench-${i + j}`,
                firstName: `Bench${i + j}`,
                lastName: 'Staff',
                isOuter: false,
                canLogin: true,
                roles: ['employee'],
              },
              systemActor(),
            );
            return {
              id: String(user.id),
              token: await tokens.sign({ sub: String(user.id), username: `bench-${i + j}` }),
            };
          }),
        )),
      );
    }
    const group = await app.inject({
      method: 'POST',
      url: '/api/groupChat/create',
      headers: { authorization: `Bearer ${users[0]!.token}` },
      payload: { name: 'bench', memberIds: users.slice(1, GROUP).map((u) => Number(u.id)) },
    });
    if (group.statusCode !== 200) throw new Error(`group: ${group.body}`);
    console.log(`${CLIENTS} staff users and a group of ${GROUP} made in ${((now() - t0) / 1000).toFixed(1)} s`);

    const child = fork(fileURLToPath(import.meta.url), [CHILD_FLAG], { execArgv: process.execArgv, stdio: 'inherit' });
    const reports: Report[] = [];
    await new Promise<void>((resolve, reject) => {
      child.on('message', (m: Record<string, unknown>) => {
        if (m.ready) child.send({ url, users, groupChatId: group.json().id, groupMembers: GROUP } satisfies Setup);
        else if (m.connected)
          console.log(
            `${m.connected} clients connected (CONNECT + 2 SUBSCRIBE each) in ${(m.seconds as number).toFixed(1)} s; server sessions: ${app!.stompSessions.size}`,
          );
        else if (m.warmedUp !== undefined)
          console.log(
            `warm-up: ${m.warmedUp as number} direct and ${Math.ceil((m.warmedUp as number) / 10)} group messages sent first, not counted (BENCH_WARMUP=0 to measure a cold server)`,
          );
        else if (m.finished) resolve();
        else {
          const r = m as unknown as Report;
          reports.push(r);
          const rate = r.delivered / r.seconds;
          console.log(
            `${r.phase.padEnd(34)} delivered ${r.delivered}/${r.expected}  p50 ${ms(percentile(r.latencies, 50))}  p99 ${ms(percentile(r.latencies, 99))}  max ${ms(Math.max(...r.latencies))}  ${rate.toFixed(0)} deliveries/s`,
          );
        }
      });
      child.on('exit', (code) => (code ? reject(new Error(`clients exited with ${code}`)) : resolve()));
    });
    if (child.exitCode === null) child.kill();
    const paced = reports.filter((r) => r.phase.includes('paced'));
    const worst = Math.max(...paced.map((r) => percentile(r.latencies, 99)));
    // Server, clients and PostgreSQL share the machine's cores: the tail follows whatever else runs.
    console.log(
      `load average at the end ${loadAverage()} (tail latency rises with it: measure on an otherwise idle machine)`,
    );
    console.log(
      `target: p99 ≤ ${TARGET_P99_MS} ms for paced delivery — ${worst <= TARGET_P99_MS ? 'met' : 'NOT met'} (worst p99 ${ms(worst)})`,
    );
  } finally {
    await app?.close();
    cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv.includes(CHILD_FLAG)) {
  process.on(
    'message',
    (setup: Setup) =>
      void runClients(setup).catch((error) => {
        console.error(error);
        process.exit(1);
      }),
  );
  process.send!({ ready: true });
} else {
  await main();
}
