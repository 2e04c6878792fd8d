/**
 * The portal as `npm start` runs it, in a child process (src/server/main.ts), for benchmarks
 * and tests that need a real process: one that can be killed with SIGKILL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A started portal process and where it listens. */
export interface PortalProcess {
  port: number;
  child: ChildProcess;
  /** Ends the process with `signal` (SIGTERM: a clean stop) and waits until it is gone. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts src/server/main.ts on 127.0.0.1:`port` with `env` on top of this process's
 * environment (DATABASE_URL, DATA_DIR, FILES_S3_*…) and waits until /api/health answers.
 * @example const app = await startPortalProcess(port, { DATABASE_URL: url, DATA_DIR: dir })
 */
export async function startPortalProcess(
  port: number,
  env: Record<string, string>,
  options: { timeoutMs?: number; output?: 'inherit' | 'ignore' } = {},
): Promise<PortalProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/server/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SEED_SAMPLES: '0',
      WORKFLOW_SWEEP_INTERVAL_MS: '0',
      ...env,
    },
    stdio: ['ignore', options.output ?? 'inherit', options.output ?? 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  const deadline = Date.now() + (options.timeoutMs ?? 180_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the portal on port ${port} exited (${child.exitCode})`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return { port, child, stop };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop('SIGKILL');
  throw new Error(`the portal on port ${port} did not answer /api/health in time`);
}
