/**
 * HAProxy (Debian's `haproxy`) in front of several portal instances, for the cluster benchmark
 * and the kill test: round robin, health-checked on /api/health, configured in a temporary
 * directory and run in the foreground as a child of this process.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The haproxy binary on this machine, or undefined. */
export function haproxyBinary(): string | undefined {
  const which = spawnSync('sh', ['-c', 'command -v haproxy || ls /usr/sbin/haproxy'], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim().split('\n')[0] : undefined;
}

/** Why HAProxy cannot run here, or undefined when it can (CI installs Debian's haproxy). */
export function haproxyMissing(binary: string | undefined = haproxyBinary()): string | undefined {
  return binary ? undefined : 'HAProxy is not installed (apt-get install haproxy)';
}

/**
 * Whether tests that need HAProxy can run: `reason` (HAProxy's, or another need of the test's)
 * makes them skip with a message on a laptop, and fail under REQUIRE_HAPROXY=1 (set by .ci/run,
 * which installs haproxy), as REQUIRE_RABBITMQ does.
 */
export function haproxyTestsEnabled(
  reason: string | undefined = haproxyMissing(),
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (reason && env.REQUIRE_HAPROXY === '1') throw new Error(`REQUIRE_HAPROXY=1 but ${reason}`);
  if (reason) console.warn(`[tests] HAProxy tests are SKIPPED: ${reason}. REQUIRE_HAPROXY=1 makes this a failure.`);
  return !reason;
}

/**
 * The balancer's configuration: HTTP mode, round robin over `servers`, each checked on
 * /api/health every 500 ms (two failures take it out, two successes bring it back); a request
 * that cannot connect to one server is sent to another (`redispatch`). `X-Forwarded-For`
 * carries the visitor's address (the app's TRUST_PROXY believes it). WebSockets pass through.
 */
export function haproxyConfig(port: number, servers: number[]): string {
  return `global
  maxconn 4096

defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout tunnel 1h
  retries 3
  option redispatch

frontend portal
  bind 127.0.0.1:${port}
  option forwardfor
  default_backend apps

backend apps
  balance roundrobin
  option httpchk
  http-check send meth GET uri /api/health
  http-check expect status 200
  default-server inter 500ms fall 2 rise 2
${servers.map((p, i) => `  server app${i + 1} 127.0.0.1:${p} check`).join('\n')}
`;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

/**
 * Starts HAProxy on 127.0.0.1:`port` in front of the instances on `servers`; resolves once it
 * accepts connections. `stop()` ends exactly the process it started.
 * @example const lb = await startHaproxy(8080, [8081, 8082, 8083]); … await lb.stop();
 */
export async function startHaproxy(port: number, servers: number[]): Promise<{ port: number; stop(): Promise<void> }> {
  const binary = haproxyBinary();
  if (!binary) throw new Error(haproxyMissing());
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portal-haproxy-'));
  const config = path.join(dir, 'haproxy.cfg');
  writeFileSync(config, haproxyConfig(port, servers));
  let output = '';
  const child = spawn(binary, ['-f', config, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 100 && child.exitCode === null; i++) {
    if (await accepts(port)) return { port, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`HAProxy did not start: ${output.trim()}`);
}
