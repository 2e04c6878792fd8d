/**
 * `npm run check`: runs every `check:*` script of package.json in the order they are declared,
 * stopping at the first that fails (as a `&&` chain would). Arguments after `--` go to the
 * definitions step (`check:defs`) only, so `npm run check -- --base main` works although npm
 * would append them to the end of a chain.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const scripts: Record<string, string> = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts;
const forwarded = process.argv.slice(2);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
for (const step of Object.keys(scripts).filter((name) => name.startsWith('check:'))) {
  const extra = step === 'check:defs' && forwarded.length ? ['--', ...forwarded] : [];
  const result = spawnSync(npm, ['run', '-s', step, ...extra], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
