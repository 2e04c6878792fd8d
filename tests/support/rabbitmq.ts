import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const SERVER = '/usr/lib/rabbitmq/bin/rabbitmq-server';

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

const LIB = '/usr/lib/rabbitmq/lib';

/** Why RabbitMQ cannot run here, or undefined when it can (CI installs Debian's rabbitmq-server). */
export function rabbitmqMissing(server = SERVER, lib = LIB): string | undefined {
  if (!existsSync(server)) return `RabbitMQ is not installed (${server} missing; apt-get install rabbitmq-server)`;
  const stomp =
    existsSync(lib) &&
    readdirSync(lib).some((release) => {
      const plugins = path.join(lib, release, 'plugins');
      return existsSync(plugins) && readdirSync(plugins).some((p) => /^rabbitmq_stomp-/.test(p));
    });
  return stomp ? undefined : `RabbitMQ's STOMP plugin is missing (no ${lib}/*/plugins/rabbitmq_stomp-*)`;
}

/**
 * Whether tests that need RabbitMQ can run: `reason` (RabbitMQ's, or another need of the
 * test's) makes them skip with a message on a laptop, and fail under REQUIRE_RABBITMQ=1
 * (set by .ci/run, which installs rabbitmq-server), as REQUIRE_POSTGRES / REQUIRE_BROWSER do.
 */
export function rabbitmqTestsEnabled(
  reason: string | undefined = rabbitmqMissing(),
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (reason && env.REQUIRE_RABBITMQ === '1') throw new Error(`REQUIRE_RABBITMQ=1 but ${reason}`);
  if (reason) console.warn(`[tests] RabbitMQ tests are SKIPPED: ${reason}. REQUIRE_RABBITMQ=1 makes this a failure.`);
  return !reason;
}

/**
 * A private RabbitMQ node for one test file: its own node name, data directory and ports,
 * with only the STOMP plugin. `stop()` ends exactly the process group it started.
 */
export async function startRabbitmq(): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rabbitmq-test-'));
  const [amqp, stomp, dist] = [await freePort(), await freePort(), await freePort()];
  writeFileSync(path.join(dir, 'enabled_plugins'), '[rabbitmq_stomp].\n');
  writeFileSync(
    path.join(dir, 'rabbitmq.conf'),
    `listeners.tcp.default = 127.0.0.1:${amqp}\nstomp.listeners.tcp.1 = 127.0.0.1:${stomp}\n`,
  );
  const child: ChildProcess = spawn(SERVER, [], {
    detached: true,
    stdio: 'ignore',
    env: {
      ...process.env,
      HOME: dir,
      RABBITMQ_NODENAME: `portaltest${stomp}@localhost`,
      RABBITMQ_MNESIA_BASE: path.join(dir, 'mnesia'),
      RABBITMQ_LOG_BASE: path.join(dir, 'log'),
      RABBITMQ_ENABLED_PLUGINS_FILE: path.join(dir, 'enabled_plugins'),
      RABBITMQ_CONFIG_FILE: path.join(dir, 'rabbitmq.conf'),
      RABBITMQ_DIST_PORT: String(dist),
    },
  });
  const stop = async () => {
    if (child.pid && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      await new Promise((r) => setTimeout(r, 500));
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 240 && child.exitCode === null; i++) {
    if (await accepts(stomp)) return { url: `stomp://guest:guest@127.0.0.1:${stomp}/`, stop };
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error('RabbitMQ did not start within a minute');
}
