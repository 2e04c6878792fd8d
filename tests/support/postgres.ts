/**
 * A throwaway PostgreSQL cluster for tests and benchmarks: initdb + pg_ctl in a temporary
 * directory, listening only on 127.0.0.1 at a free port, removed by `stop()`. As root
 * (CI) the cluster runs as the `postgres` user, since initdb refuses root.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface TestCluster {
  /** Connection URL of the `postgres` database (superuser `portal`, trust auth on loopback). */
  url: string;
  port: number;
  stop(): void;
}

function findBinary(name: string): string | undefined {
  const which = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim()) return which.stdout.trim();
  for (const version of ['17', '16', '15', '14']) {
    const candidate = `/usr/lib/postgresql/${version}/bin/${name}`;
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/** Why PostgreSQL cannot be started here, or undefined when it can. */
export function postgresUnavailableReason(): string | undefined {
  for (const bin of ['initdb', 'pg_ctl'])
    if (!findBinary(bin)) return `${bin} not found on PATH or in /usr/lib/postgresql/*/bin`;
  return undefined;
}

export async function startTestCluster(options: { fsync?: boolean } = {}): Promise<TestCluster> {
  const initdb = findBinary('initdb')!;
  const pgCtl = findBinary('pg_ctl')!;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portal-pg-'));
  const dataDir = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  let uid: number | undefined;
  let gid: number | undefined;
  if (asRoot) {
    uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const run = (bin: string, args: string[]): void => {
    const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
    const result = spawnSync(cmd, argv as string[], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${bin} failed: ${result.stderr || result.stdout}`);
  };
  run(initdb, ['-D', dataDir, '-U', 'portal', '--auth=trust', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  const settings = [
    `-p ${port}`,
    `-c listen_addresses=127.0.0.1`,
    `-c unix_socket_directories=${dir}`,
    `-c max_connections=200`,
    `-c shared_buffers=256MB`,
    ...(options.fsync === false ? ['-c fsync=off'] : []),
  ].join(' ');
  run(pgCtl, ['-D', dataDir, '-o', settings, '-l', path.join(dir, 'log'), '-w', '-t', '60', 'start']);
  return {
    url: `postgres://portal@127.0.0.1:${port}/postgres`,
    port,
    stop() {
      try {
        run(pgCtl, ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
