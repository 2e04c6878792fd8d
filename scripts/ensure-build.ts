/**
 * Before `npm start`: builds the web app when dist/web is missing or older than the sources
 * it is built from, so a fresh clone needs only `npm ci && npm start`.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'dist/web/index.html');

const newest = (dir: string): number => {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'generated' && !entry.name.startsWith('.'))
        latest = Math.max(latest, newest(full));
    } else latest = Math.max(latest, statSync(full).mtimeMs);
  }
  return latest;
};

const sources = ['src', 'schemas', 'screens', 'workflows', 'index.html']
  .map((p) => path.join(root, p))
  .filter(existsSync);
const stale =
  !existsSync(built) ||
  sources.some((p) => (statSync(p).isDirectory() ? newest(p) : statSync(p).mtimeMs) > statSync(built).mtimeMs);
if (stale) {
  console.log('Building the web app (vite build)…');
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
