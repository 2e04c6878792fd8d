/**
 * `npm run check -- --base <ref>`: a breaking data change of an entity (a field removed,
 * renamed or retyped, an enum value removed, a field made required) needs a higher
 * `schemaVersion` than at the base and migrations (`schemas/<id>/migrations/<N>.json`, one per
 * version step) whose steps cover the field. A step covers a field when its `from`/`path`
 * names it or an object holding it; a `script` step covers what its migration's `covers`
 * lists. Each problem names the file, the field and the step that would cover it.
 */
import type { DefinitionSources } from '../sources.ts';
import type { DefinitionProblem } from '../check/context.ts';
import { asNode, strings, DATA_CHANGES, type DefinitionChange } from './change.ts';
import { coversPointer, isMove, recordFields } from './fields.ts';
import { entityFile, entityIds, manifestOf, migrationVersions, schemaVersionOf } from '../diff.ts';

interface Step {
  op: string;
  /** The stored fields the step reads (`from`, `path`). */
  reads: string[];
  /** The fields it writes (`to`, and `path` for `default`). */
  writes: string[];
  map: Record<string, unknown> | undefined;
}

function stepsOf(migration: unknown): Step[] {
  const m = asNode(migration);
  const covers = strings(m?.covers);
  return (Array.isArray(m?.steps) ? m.steps : []).flatMap((value): Step[] => {
    const s = asNode(value);
    if (!s || typeof s.op !== 'string') return [];
    const list = (v: unknown) => (typeof v === 'string' ? [v] : strings(v));
    if (s.op === 'script') {
      const own = strings(s.covers);
      return [{ op: 'script', reads: [...covers, ...own], writes: [...covers, ...own], map: undefined }];
    }
    const reads = [...list(s.from), ...list(s.path)];
    return [
      { op: s.op, reads, writes: [...list(s.to), ...(s.op === 'default' ? list(s.path) : [])], map: asNode(s.map) },
    ];
  });
}

/** Whether a `mapValues` map says what becomes of `value`. */
const maps = (map: Record<string, unknown> | undefined, value: string): boolean => !!map && value in map;

const names = (steps: Step[], field: string, ops?: string[]): Step[] =>
  steps.filter((s) => (!ops || ops.includes(s.op)) && s.reads.some((r) => coversPointer(r, field)));

/** Whether the migrations' steps say what happens to the stored field of this change. */
function covered(c: DefinitionChange, steps: Step[], base: DefinitionSources, entity: string): boolean {
  const field = c.field!;
  switch (c.kind) {
    case 'field-removed':
    case 'field-renamed':
      return names(steps, field, ['rename', 'move', 'remove', 'split', 'join', 'script']).length > 0;
    case 'field-retyped':
      return names(steps, field).length > 0;
    case 'values-limited':
      return names(steps, field, ['mapValues', 'remove', 'default', 'script']).length > 0;
    case 'value-removed':
      return steps.some(
        (s) =>
          s.reads.some((r) => coversPointer(r, field)) &&
          (s.op === 'mapValues' ? maps(s.map, c.value!) : s.op !== 'rename' && s.op !== 'move'),
      );
    case 'required-added': {
      if (steps.some((s) => (s.op === 'default' || s.op === 'script') && s.writes.some((w) => coversPointer(w, field))))
        return true;
      // A field renamed or moved from one every stored record had (it was required) is filled.
      const was = recordFields(base.get(entityFile(base, entity, 'schema'))?.json);
      return steps.some(
        (s) =>
          (s.op === 'rename' || s.op === 'move') &&
          s.writes.includes(field) &&
          s.reads.every((r) => was.get(r)?.required),
      );
    }
    default:
      return true;
  }
}

/**
 * JSON on one line with spaces, as the analyst guide writes steps.
 * @example stepJson({ op: 'rename', from: '/a', to: '/b' }) // '{ "op": "rename", "from": "/a", "to": "/b" }'
 */
const stepJson = (v: unknown): string =>
  asNode(v)
    ? `{ ${Object.entries(v as object)
        .map(([k, x]) => `${JSON.stringify(k)}: ${stepJson(x)}`)
        .join(', ')} }`
    : JSON.stringify(v);

/** The migration step that would cover the change, as JSON the analyst can paste. */
function suggestedStep(c: DefinitionChange, head: DefinitionSources, entity: string): string {
  const field = c.field!;
  switch (c.kind) {
    case 'field-renamed':
      return stepJson({ op: isMove(field, c.to!) ? 'move' : 'rename', from: field, to: c.to });
    case 'field-removed':
      return `${stepJson({ op: 'remove', path: field })} (or a "rename"/"move" to the field that keeps its value)`;
    case 'field-retyped':
      return `a "script" step listing "${field}" in the migration's "covers" (or ${stepJson({ op: 'remove', path: field })})`;
    case 'value-removed':
      return stepJson({ op: 'mapValues', path: field, map: { [c.value!]: '<a value still allowed>' } });
    case 'values-limited':
      return stepJson({ op: 'mapValues', path: field, map: { '<a stored value>': '<one of the list>' } });
    default: {
      const fallback = recordFields(head.get(entityFile(head, entity, 'schema'))?.json).get(field)?.default;
      return stepJson({ op: 'default', path: field, value: fallback ?? '<a value>' });
    }
  }
}

/** What the change did to the field, for the message. */
function what(c: DefinitionChange): string {
  switch (c.kind) {
    case 'field-renamed':
      return `${c.field} was removed (${isMove(c.field!, c.to!) ? 'moved' : 'renamed'} to ${c.to}?)`;
    case 'field-removed':
      return `${c.field} was removed`;
    case 'field-retyped':
      return `${c.field} ${c.text.replace(`field ${c.field} `, '')}`;
    case 'value-removed':
      return `${c.field} no longer allows the value ${c.value}`;
    case 'values-limited':
      return `${c.field} is now a closed list and stored values outside it become invalid`;
    default:
      return `${c.field} is now required and stored records may lack it`;
  }
}

/**
 * The problems of `npm run check -- --base`: every breaking data change in `changes` (from
 * `diffDefinitions(base, head)`) whose entity lacks a version bump, a migration file, or a
 * migration step covering the field.
 * @example migrationProblems(base, head, diffDefinitions(base, head))
 * // [{ file: 'schemas/contractor/schema.json', pointer: '/properties/director', message: '/director was removed … bump schemaVersion to 2 …' }]
 */
export function migrationProblems(
  base: DefinitionSources,
  head: DefinitionSources,
  changes: readonly DefinitionChange[],
): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  for (const entity of entityIds(head)) {
    const [from, to] = [schemaVersionOf(base, entity), schemaVersionOf(head, entity)];
    if (manifestOf(base, entity) && to < from)
      problems.push({
        file: `schemas/${entity}/entity.json`,
        pointer: '/schemaVersion',
        message: `schemaVersion went down from ${from} to ${to}: stored records of version ${from} would look newer than the definitions`,
      });
  }
  const byEntity = new Map<string, DefinitionChange[]>();
  for (const c of changes)
    if (c.breaking && DATA_CHANGES.has(c.kind) && c.field !== undefined)
      byEntity.set(c.group, [...(byEntity.get(c.group) ?? []), c]);
  for (const [entity, list] of byEntity) {
    if (!manifestOf(base, entity) || !manifestOf(head, entity)) continue;
    const [from, to] = [schemaVersionOf(base, entity), schemaVersionOf(head, entity)];
    const folder = `schemas/${entity}/migrations/`;
    const present = new Set(migrationVersions(head, entity));
    const versions = Array.from({ length: Math.max(0, to - from) }, (_, i) => from + 1 + i);
    // A missing migrations/<N>.json is the migrations rule's to name (it checks 2…schemaVersion
    // has no gap); here it only means its steps cover nothing.
    const found = versions.filter((n) => present.has(n));
    const steps = found.flatMap((n) => stepsOf(head.get(`${folder}${n}.json`)?.json));
    for (const c of list) {
      if (covered(c, steps, base, entity)) continue;
      const step = suggestedStep(c, head, entity);
      const fix =
        to <= from
          ? `bump schemaVersion to ${from + 1} in schemas/${entity}/entity.json and add migrations/${from + 1}.json with ${step}`
          : present.has(to)
            ? `add to migrations/${to}.json the step ${step}`
            : `add migrations/${to}.json with ${step}`;
      const none = found.length
        ? `no migration in ${folder} (${found.map((n) => `${n}.json`).join(', ')})`
        : `no migration in ${folder}`;
      problems.push({ file: c.file, pointer: c.pointer, message: `${what(c)} but ${none} covers it: ${fix}` });
    }
  }
  return problems;
}
