/**
 * The parts of docs/analyst-guide.md that are generated from the registries, so the lists an
 * analyst picks from cannot go stale: widgets (src/shared/widget-names.ts), string formats and
 * keywords (src/shared/validation/formats.ts, vocabulary.ts and ajv-formats), menu icons
 * (src/shared/icon-names.ts), filter kinds (src/shared/filter-kinds.ts), cell formats
 * (src/shared/cell-formats.ts), screen kinds (the screen meta-schema) and the machines' guards,
 * actions, checks and delays (src/server/workflow/implementations.ts, with each one's doc
 * comment). Each block sits between `<!-- generated:<name> -->` and `<!-- /generated:<name> -->`;
 * `npm run docs:guide` rewrites them, `npm run check` fails when one is stale.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { CELL_FORMATS, CELL_FORMAT_NAMES } from '../../src/shared/cell-formats.ts';
import { FILTER_KINDS, FILTER_KIND_NAMES } from '../../src/shared/filter-kinds.ts';
import { MENU_ICON_NAMES } from '../../src/shared/icon-names.ts';
import { portalFormats, portalKeywords } from '../../src/shared/validation/vocabulary.ts';
import { portalWidgetNames, rjsfWidgetNames, widgetFits } from '../../src/shared/widget-names.ts';
import {
  actionImplementations,
  checkImplementations,
  delayImplementations,
  guardImplementations,
  payloadGuards,
} from '../../src/server/workflow/implementations.ts';

/** The guide's path, repository-relative. */
export const GUIDE_PATH = 'docs/analyst-guide.md';

const code = (s: string): string => `\`${s}\``;
const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

/**
 * The doc comments of the members of one exported object literal in a source file, by member
 * name: the text of `/** … *\/` right before `name:`.
 */
export function memberComments(source: string, objectName: string): Map<string, string> {
  const start = source.indexOf(`export const ${objectName}`);
  const end = source.indexOf('\n};', start);
  const body = start < 0 ? '' : source.slice(start, end);
  const out = new Map<string, string>();
  for (const m of body.matchAll(/\/\*\*([\s\S]*?)\*\/\s*\n\s*'?([A-Za-z][\w-]*)'?\s*[:(]/g)) {
    out.set(
      m[2]!,
      m[1]!
        .split('\n')
        .map((l) => l.replace(/^\s*\*\s?/, ''))
        .join(' ')
        .trim(),
    );
  }
  return out;
}

function widgets(): string {
  const rows = portalWidgetNames.map((name) => {
    const fit = widgetFits[name];
    const fits = !fit
      ? 'any field'
      : `${fit.types.join(', ')}${fit.formats ? ` with format ${fit.formats.join(', ')}` : ''}${
          fit.items ? ` of ${fit.items.type}${fit.items.format ? ` (${fit.items.format})` : ''} items` : ''
        }`;
    return `| ${code(name)} | ${fits} |`;
  });
  const rjsfOnly = [...rjsfWidgetNames].filter((n) => !(portalWidgetNames as readonly string[]).includes(n)).sort();
  return [
    '| `ui:widget` | fits fields of type |',
    '|---|---|',
    ...rows,
    '',
    `rjsf's own names are accepted too (its default widgets, not restyled): ${rjsfOnly.map(code).join(', ')}.`,
  ].join('\n');
}

function formats(root: string): string {
  const comments = memberComments(
    readFileSync(path.join(root, 'src/shared/validation/formats.ts'), 'utf8'),
    'portalFormats',
  );
  const rows = Object.entries(portalFormats).map(
    ([name, pattern]) => `| ${code(name)} | ${cell(comments.get(name) ?? '')} | ${code(cell(pattern.source))} |`,
  );
  const standard = Object.keys(fullFormats).filter((n) => !(n in portalFormats));
  return [
    '| `format` | meaning | pattern |',
    '|---|---|---|',
    ...rows,
    '',
    `Standard formats (ajv-formats): ${standard.map(code).join(', ')}.`,
  ].join('\n');
}

function keywords(): string {
  const rows = portalKeywords.map((k) => {
    const meta = k.metaSchema as { properties?: Record<string, unknown>; required?: string[] } | undefined;
    const value = meta?.properties
      ? `{ ${Object.keys(meta.properties)
          .map((p) => (meta.required?.includes(p) ? p : `${p}?`))
          .join(', ')} }`
      : String(k.schemaType);
    const on = k.type ? ` (on ${[k.type].flat().join(', ')} fields)` : '';
    return `| ${code(String(k.keyword))} | ${code(value)}${on} |`;
  });
  return ['| keyword | value |', '|---|---|', ...rows].join('\n');
}

const icons = (): string => MENU_ICON_NAMES.map(code).join(', ');

function filterKinds(): string {
  const rows = FILTER_KIND_NAMES.map((kind) => {
    const d = FILTER_KINDS[kind];
    const field = d.keywordSearch
      ? "none (the manifest's `keywordFields`)"
      : (d.fieldTypes?.join(', ') ?? 'any scalar');
    return `| ${code(kind)} | ${d.params('x').map(code).join(', ')} | ${field} |`;
  });
  return ['| `kind` | query parameters of a filter named `x` | field type |', '|---|---|---|', ...rows].join('\n');
}

function cellFormats(): string {
  const rows = CELL_FORMAT_NAMES.map((name) => {
    const f = CELL_FORMATS[name];
    const notes = [
      f.numeric && 'right-aligned',
      f.badge && 'a coloured badge (the status label)',
      f.needsReference && 'the column names its `reference` list',
    ].filter(Boolean);
    return `| ${code(name)} | ${notes.join('; ') || '—'} |`;
  });
  return ['| column `format` | shown as |', '|---|---|', ...rows].join('\n');
}

function screenKinds(root: string): string {
  const meta = JSON.parse(readFileSync(path.join(root, 'schemas/_meta/screen.schema.json'), 'utf8'));
  return (meta.properties.kind.enum as string[]).map(code).join(', ');
}

function implementations(root: string): string {
  const source = readFileSync(path.join(root, 'src/server/workflow/implementations.ts'), 'utf8');
  const groups: Array<[string, string, Record<string, unknown>]> = [
    ['guard', 'guardImplementations', guardImplementations],
    ['action', 'actionImplementations', actionImplementations],
    ['check', 'checkImplementations', checkImplementations],
    ['delay', 'delayImplementations', delayImplementations],
  ];
  const rows = groups.flatMap(([what, objectName, impl]) => {
    const comments = memberComments(source, objectName);
    return Object.keys(impl).map((name) => {
      const note = what === 'guard' && payloadGuards.has(name) ? ' (reads the payload)' : '';
      return `| ${what} | ${code(name)} | ${cell(comments.get(name) ?? '')}${note} |`;
    });
  });
  return ['| kind | `type` | what it does |', '|---|---|---|', ...rows].join('\n');
}

/** Every generated block's text by name, from the registries under `root`. */
export function guideBlocks(root: string): Map<string, string> {
  return new Map([
    ['widgets', widgets()],
    ['formats', formats(root)],
    ['keywords', keywords()],
    ['icons', icons()],
    ['filter-kinds', filterKinds()],
    ['cell-formats', cellFormats()],
    ['screen-kinds', screenKinds(root)],
    ['machine-implementations', implementations(root)],
  ]);
}

/**
 * The guide with every generated block replaced by its current text, and the names of the
 * blocks that changed or whose markers are missing.
 */
export function renderGuide(text: string, blocks: Map<string, string>): { text: string; stale: string[] } {
  const stale: string[] = [];
  let out = text;
  for (const [name, body] of blocks) {
    const open = `<!-- generated:${name} (npm run docs:guide) -->`;
    const close = `<!-- /generated:${name} -->`;
    const from = out.indexOf(open);
    const to = out.indexOf(close);
    if (from < 0 || to < from) {
      stale.push(`${name} (markers missing)`);
      continue;
    }
    const next = `${out.slice(0, from)}${open}\n${body}\n${out.slice(to)}`;
    if (next !== out) stale.push(name);
    out = next;
  }
  return { text: out, stale };
}
