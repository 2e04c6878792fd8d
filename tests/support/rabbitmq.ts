import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const SERVER = '/usr/lib/rabbitmq/bin/rabbitmq-server';

const freePort = () => new Promise<number>((resolve) => {
  const server = net.createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address() as net.AddressInfo;
    server.close(() => resolve(port));
  });
});

const accepts = (port: number) => new Promise<boolean>((resolve) => {
  const socket = net.connect(port, '127.0.0.1', () => { socket.end(); resolve(true); });
  socket.on('error', () => resolve(false));
});

/** Why RabbitMQ cannot run here, or undefined when it can (CI installs Debian's rabbitmq-server). */
export const rabbitmqMissing = (): string | undefined =>
  existsSync(SERVER) ? undefined : `RabbitMQ is not installed (${SERVER} missing; apt-get install rabbitmq-server)`;

/**
 * A private RabbitMQ node for one test file: its own node name, data directory and ports,
 * with only the STOMP plugin. `stop()` ends exactly the process group it started.
 */
export async function startRabbitmq(): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rabbitmq-test-'));
  const [amqp, stomp, dist] = [await freePort(), await freePort(), await freePort()];
  writeFileSync(path.join(dir, 'enabled_plugins'), '[rabbitmq_stomp].\n');
  writeFileSync(path.join(dir, 'rabbitmq.conf'), `listeners.tcp.default = 127.0.0.1:${amqp}\nstomp.listeners.tcp.1 = 127.0.0.1:${stomp}\n`);
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
      try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ }
      await new Promise((r) => setTimeout(r, 500));
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
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
