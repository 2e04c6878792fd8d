/**
 * The build's own API server for the prerender (scripts/prerender.ts starts it as a child
 * process): the portal's server on an in-memory database with its seeds, on a loopback port,
 * so that a prerendered page holds exactly what the server answers a visitor (a blank
 * record's defaults, the reference lists) rather than a second implementation of it. Prints
 * one line `{"url": "http://127.0.0.1:<port>"}` when it listens; ends with its parent
 * (stdin closed) or on SIGTERM.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/server/app.ts';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-prerender-'));
const app = await buildApp({
  dataDir,
  inMemory: true,
  // Nobody signs in here; a random password keeps the first-start notice off the build's output.
  adminPassword: randomBytes(24).toString('base64url'),
  sweepIntervalMs: 0,
  logger: { level: 'warn' },
});
await app.listen({ host: '127.0.0.1', port: 0 });
const { port } = app.server.address() as { port: number };
process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);

let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  void app.close().finally(() => {
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
};
process.once('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
