/**
 * `npm run new:entity -- <id> [--workflow] [--like <entity>] [--title "<English title>"]`:
 * writes a minimal valid entity — manifest, schema, form, grid, edit rules, the list, new, edit
 * and detail screens with a menu entry, its texts in the four languages (English, the others
 * marked `[translate] `), the default roles' permissions in access.json and, with `--workflow`, a
 * two-state machine — or, with `--like`, a renamed copy of an existing entity. Then it runs
 * codegen and the docs generators (their output is generated, never hand-edited) and the
 * definition check, and prints what it wrote and what is left to the analyst.
 *
 * Options for tests and tools: `--root <dir>` (another repository root, e.g. a copy: the
 * generators and the check run there, from its own scripts/), `--i18n per-entity|shell` (where the
 * texts go; default: as the repository does, scripts/scaffold/translations.ts), `--no-check`
 * (write only).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDefinitionRegistry } from '../src/definitions/registry.ts';
import { loadDefinitionSources } from '../src/definitions/sources.ts';
import type { AccessDefinition } from '../src/generated/meta.ts';
import { freshEntity } from './scaffold/fresh.ts';
import { likeEntity } from './scaffold/like.ts';
import { refusal, subjectOf, titleOf, type Plan, type ScaffoldOptions } from './scaffold/plan.ts';
import {
  translationLayout,
  UNTRANSLATED_MARK,
  writeTranslations,
  type TranslationLayout,
} from './scaffold/translations.ts';

const USAGE =
  'usage: npm run new:entity -- <id> [--workflow] [--like <entity>] [--title "<English title>"], e.g. npm run new:entity -- sugar-outlet --workflow';

function fail(message: string, code = 1): never {
  console.error(`new:entity: ${message}`);
  process.exit(code);
}

/** The command line as options; a mistake in it ends the run with the usage line. */
function parseArgs(argv: string[]): ScaffoldOptions & { root?: string; layout?: TranslationLayout; check: boolean } {
  const positional: string[] = [];
  const out: ScaffoldOptions & { root?: string; layout?: TranslationLayout; check: boolean } = {
    id: '',
    workflow: false,
    check: true,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) fail(`${arg} needs a value\n${USAGE}`, 2);
      return v;
    };
    if (arg === '--workflow') out.workflow = true;
    else if (arg === '--no-check') out.check = false;
    else if (arg === '--like') out.like = value();
    else if (arg === '--title') out.title = value();
    else if (arg === '--root') out.root = path.resolve(value());
    else if (arg === '--i18n') {
      const layout = value();
      if (layout !== 'per-entity' && layout !== 'shell') fail(`--i18n is per-entity or shell, not "${layout}"`, 2);
      out.layout = layout;
    } else if (arg.startsWith('--')) fail(`unknown option ${arg}\n${USAGE}`, 2);
    else positional.push(arg);
  }
  if (positional.length !== 1) fail(USAGE, 2);
  out.id = positional[0]!;
  return out;
}

const writeJson = (file: string, data: unknown): void => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
};

/** Runs one of the repository's scripts under `root`; false when it fails (its output is shown). */
function runScript(root: string, script: string, ...args: string[]): boolean {
  const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
  const run = spawnSync(tsx, [path.join('scripts', script), ...args], { cwd: root, stdio: 'inherit' });
  return run.status === 0;
}

const options = parseArgs(process.argv.slice(2));
const root = options.root ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const registry = createDefinitionRegistry((await loadDefinitionSources(root)).sources);
const refused = refusal(options, root, registry);
if (refused) fail(refused);

const accessFile = path.join(root, 'schemas/_access/access.json');
const input = {
  id: options.id,
  subject: subjectOf(options.id),
  title: options.title ?? titleOf(options.id),
  workflow: options.workflow,
  like: options.like,
  root,
  registry,
  access: JSON.parse(readFileSync(accessFile, 'utf8')) as AccessDefinition,
};
const plan: Plan = options.like ? likeEntity(input) : freshEntity(input);
const layout = options.layout ?? translationLayout(root);

// The texts first: the one write that may still refuse (a key left behind by an earlier entity).
let textFiles: string[];
try {
  textFiles = writeTranslations(root, plan.texts, { entity: options.id, machine: plan.machine }, layout);
} catch (error) {
  fail(`${(error as Error).message}; nothing was written`);
}
for (const [file, json] of plan.files) writeJson(path.join(root, file), json);
writeJson(accessFile, plan.access);

console.log(`new:entity: wrote the entity "${options.id}"${options.like ? ` as a copy of "${options.like}"` : ''}:`);
for (const file of [...plan.files.keys()].sort()) console.log(`  ${file}`);
console.log(`  ${path.relative(root, accessFile)} — permissions on ${input.subject}:`);
for (const grant of plan.grants) console.log(`    ${grant.role}: ${grant.permissions.join(', ')}`);
console.log(`  texts (${plan.texts.size} keys, ${layout} layout): ${textFiles.join(', ')}`);

if (options.check) {
  const steps: Array<[string, string[]]> = [
    ['codegen.ts', []],
    ['docs-roles.ts', []],
    ['docs-edit-rules.ts', []],
    ['docs-workflows.ts', []],
    ['check.ts', []],
    ['docs-workflows.ts', ['--check']],
  ];
  for (const [script, args] of steps) {
    if (!runScript(root, script, ...args))
      fail(`scripts/${script} failed (above). The files listed were written; fix them, or delete them to start again.`);
  }
  console.log('new:entity: codegen, docs:roles, docs:edit-rules, docs:workflows and the definition check passed.');
}
const untranslated = [...plan.texts.values()].filter((t) => t.ru.startsWith(UNTRANSLATED_MARK)).length;
console.log(`
What is left to you (docs/analyst-guide.md walks through each file):
  1. Rewrite the "description" of schemas/${options.id}/entity.json${plan.machine ? ` and of workflows/${plan.machine}.machine.json` : ''} in plain words.
  2. Shape the record: fields in schema.json, the form in ui.json, columns and filters in grid.json, edit.json.
  3. Translate: ${untranslated} text(s) start with "${UNTRANSLATED_MARK.trim()}" in ru, uz and uzCyrillic (${textFiles.join(', ')}).
  4. Review the permissions above in schemas/_access/access.json, then npm run docs:roles${plan.machine ? ' and npm run docs:workflows' : ''} (and npm run docs:edit-rules after edit.json changes).
  5. npm run codegen && npm run check, then npm run test:entity -- ${options.id} (TEST_DB=pglite for PGlite only).`);
