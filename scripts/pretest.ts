/**
 * What `npm test` runs before vitest: `check`, `typecheck` and `build`, side by side rather than
 * one after another. Each is mostly one process that leaves the second core idle, and none
 * needs another's output (the build reads the sources, not the type check's result), so
 * together they take about as long as the slowest alone. Each step's output is printed whole
 * when it ends, so that lines do not interleave; the script fails when any step fails, after
 * all have ended, naming the failed ones. The byte ceilings (`npm run budgets`) measure the
 * build, so they run after it, in the build's lane.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** Lanes run side by side; the steps of one lane one after another, stopping at a failure. */
const LANES = [['check'], ['typecheck'], ['build', 'budgets']];
const STEPS = LANES.flat();

/** Runs `npm run -s <step>`, collecting its output; resolves with its exit code. */
function run(step: string): Promise<number> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(npm, ['run', '-s', step], { cwd: root, env: { ...process.env, FORCE_COLOR: '0' } });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n── ${step} (${code === 0 ? 'ok' : `failed, exit ${code}`}, ${seconds} s)\n`);
      process.stdout.write(Buffer.concat(output));
      resolve(code ?? 1);
    });
  });
}

/** Runs a lane's steps in order; a step after a failed one is not run. */
async function lane(steps: string[]): Promise<Record<string, number>> {
  const codes: Record<string, number> = {};
  for (const step of steps) {
    codes[step] = await run(step);
    if (codes[step] !== 0) break;
  }
  return codes;
}

const codes: Record<string, number> = Object.assign({}, ...(await Promise.all(LANES.map(lane))));
const failed = STEPS.filter((step) => codes[step] !== undefined && codes[step] !== 0);
if (failed.length) {
  console.error(`\n${failed.join(', ')} failed`);
  process.exit(1);
}
