/**
 * `npm run docs:workflows`: writes docs/workflows/<id>.md (a Mermaid state diagram and the
 * tables of states and events) for every machine in workflows/, and removes pages of machines
 * that no longer exist. With `--check` it writes nothing and exits 1 when a page is stale
 * (run by `npm run check`). An optional argument names another repository root (tests).
 */
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDefinitionSources } from '../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../src/definitions/registry.ts';
import { machineDoc } from '../src/server/workflow/diagram.ts';

const rootArg = process.argv.slice(2).find((a) => !a.startsWith('--'));
const root = rootArg ? path.resolve(rootArg) : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.join(root, 'docs/workflows');
const check = process.argv.includes('--check');
const registry = createDefinitionRegistry((await loadDefinitionSources(root)).sources);

const wanted = new Map<string, string>();
for (const machine of registry.machines.values()) {
  const subjects = [...registry.entities.values()]
    .filter((d) => d.manifest.workflow === machine.id)
    .map((d) => d.manifest.subject)
    .sort();
  wanted.set(`${machine.id}.md`, machineDoc(machine, subjects));
}
const present = existsSync(dir) ? (await readdir(dir)).filter((f) => f.endsWith('.md')) : [];
const stale: string[] = [];
for (const [file, text] of wanted) {
  const target = path.join(dir, file);
  const current = existsSync(target) ? await readFile(target, 'utf8') : undefined;
  if (current === text) continue;
  stale.push(file);
  if (!check) {
    await mkdir(dir, { recursive: true });
    await writeFile(target, text);
  }
}
for (const file of present.filter((f) => !wanted.has(f))) {
  stale.push(file);
  if (!check) await rm(path.join(dir, file));
}
if (check && stale.length) {
  console.error(`docs:workflows: docs/workflows is stale (${stale.join(', ')}); run npm run docs:workflows`);
  process.exit(1);
}
console.log(
  check
    ? `docs:workflows: ${wanted.size} diagrams are current`
    : `docs:workflows: ${stale.length ? `wrote ${stale.join(', ')}` : 'nothing to do'}`,
);
