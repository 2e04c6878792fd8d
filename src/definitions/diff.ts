/**
 * The semantic diff of two definition sets (`npm run defs:diff -- <ref>`, `npm run check --
 * --base <ref>`): what an analyst's change means rather than which JSON lines moved. Entities
 * added or removed; fields added, removed (a rename is guessed), retyped, their enum values,
 * required and format; grid columns; machine states, events, targets and guards; permissions
 * and field rules per role; screens, their permissions and menu entries. Each change is marked
 * breaking when stored data or a user's existing right may be lost. Pure: both sides are
 * loaded definition sources (see diff/load.ts for reading a git ref).
 */
import type { DefinitionSources } from './sources.ts';
import { asNode, type DefinitionChange } from './diff/change.ts';
import { fieldChanges, isMove, isNarrowing, type FieldChange } from './diff/fields.ts';
import { machineChanges } from './diff/machines.ts';
import { accessChanges, screenChanges } from './diff/access.ts';

export type { ChangeKind, DefinitionChange } from './diff/change.ts';
export { DATA_CHANGES } from './diff/change.ts';

const ENTITY_FILE = /^schemas\/([a-z][^/]*)\/entity\.json$/;
const MIGRATION_FILE = /^schemas\/([a-z][^/]*)\/migrations\/(\d+)\.json$/;

const json = (s: DefinitionSources, file: string): unknown => s.get(file)?.json;
const matching = (s: DefinitionSources, re: RegExp): string[] => [...s.keys()].filter((f) => re.test(f));
const union = (a: string[], b: string[]): string[] => [...new Set([...a, ...b])].sort();

/** The ids of the entities of a definition set (the folders with an entity.json). */
export const entityIds = (s: DefinitionSources): string[] =>
  matching(s, ENTITY_FILE).map((f) => ENTITY_FILE.exec(f)![1]!);

/** An entity's manifest (undefined when the entity does not exist there). */
export const manifestOf = (s: DefinitionSources, entity: string): Record<string, unknown> | undefined =>
  asNode(json(s, `schemas/${entity}/entity.json`));

/** The entity's `schemaVersion` (absent = 1, as the contract says). */
export function schemaVersionOf(s: DefinitionSources, entity: string): number {
  const v = manifestOf(s, entity)?.schemaVersion;
  return typeof v === 'number' && Number.isInteger(v) ? v : 1;
}

/** The path of a file the manifest names (`schema`, `grid`), with the conventional default. */
export function entityFile(s: DefinitionSources, entity: string, key: 'schema' | 'grid'): string {
  const named = manifestOf(s, entity)?.[key];
  return `schemas/${entity}/${typeof named === 'string' ? named : `${key}.json`}`;
}

/** The versions N of the entity's `migrations/<N>.json` files, ascending. */
export const migrationVersions = (s: DefinitionSources, entity: string): number[] =>
  matching(s, MIGRATION_FILE)
    .map((f) => MIGRATION_FILE.exec(f)!)
    .filter((m) => m[1] === entity)
    .map((m) => Number(m[2]))
    .sort((a, b) => a - b);

/** A field change in plain words, with whether it is breaking. */
function fieldChange(group: string, baseFile: string, headFile: string, c: FieldChange): DefinitionChange {
  const p = c.field.pointer;
  const at = { group, file: headFile, pointer: c.field.schemaPointer, field: p };
  switch (c.kind) {
    case 'field-added':
      return { ...at, kind: c.kind, breaking: false, text: `field ${p} added (${c.field.type})` };
    case 'field-removed':
      return { ...at, file: baseFile, kind: c.kind, breaking: true, text: `field ${p} removed` };
    case 'field-renamed':
      return {
        ...at,
        file: baseFile,
        kind: c.kind,
        breaking: true,
        to: c.to.pointer,
        text: `removed ${p}, added ${c.to.pointer} (${isMove(p, c.to.pointer) ? 'moved' : 'a rename'}?)`,
      };
    case 'field-retyped':
      return {
        ...at,
        kind: c.kind,
        breaking: isNarrowing(c.was.type, c.field.type),
        text: `field ${p} changed type from ${c.was.type} to ${c.field.type}`,
      };
    case 'value-added':
    case 'value-removed':
      return {
        ...at,
        kind: c.kind,
        breaking: c.kind === 'value-removed',
        value: c.value,
        text: `field ${p}: value ${c.value} ${c.kind === 'value-added' ? 'added' : 'removed'}`,
      };
    case 'values-limited':
      return {
        ...at,
        kind: c.kind,
        breaking: true,
        text: `field ${p} is now limited to ${(c.field.values ?? []).join(', ')} (stored values outside the list become invalid)`,
      };
    case 'required-added':
      return { ...at, kind: c.kind, breaking: true, text: `field ${p} is now required (stored records may lack it)` };
    case 'required-removed':
      return { ...at, kind: c.kind, breaking: false, text: `field ${p} is no longer required` };
    case 'format-changed':
      return {
        ...at,
        kind: c.kind,
        breaking: false,
        text: `field ${p}: format ${c.was.format ?? '(none)'} became ${c.field.format ?? '(none)'}`,
      };
  }
}

/** The grid's column fields (the columns are named by the field they show). */
const columnsOf = (grid: unknown): string[] =>
  (Array.isArray(asNode(grid)?.columns) ? (asNode(grid)!.columns as unknown[]) : [])
    .map((c) => asNode(c)?.field)
    .filter((f): f is string => typeof f === 'string');

function entityChanges(base: DefinitionSources, head: DefinitionSources, id: string): DefinitionChange[] {
  const b = manifestOf(base, id);
  const h = manifestOf(head, id);
  const file = `schemas/${id}/entity.json`;
  if (!b || !h)
    return [
      {
        group: id,
        file,
        pointer: '',
        kind: b ? 'entity-removed' : 'entity-added',
        breaking: !!b,
        text: b ? 'entity removed (its stored records are no longer reachable)' : 'entity added',
      },
    ];
  const out: DefinitionChange[] = [];
  const [vb, vh] = [schemaVersionOf(base, id), schemaVersionOf(head, id)];
  if (vb !== vh)
    out.push({
      group: id,
      file,
      pointer: '/schemaVersion',
      kind: 'version-changed',
      breaking: false,
      text: `schemaVersion ${vb} → ${vh}`,
    });
  const known = new Set(migrationVersions(base, id));
  for (const n of migrationVersions(head, id).filter((v) => !known.has(v))) {
    const description = asNode(json(head, `schemas/${id}/migrations/${n}.json`))?.description;
    out.push({
      group: id,
      file: `schemas/${id}/migrations/${n}.json`,
      pointer: '',
      kind: 'migration-added',
      breaking: false,
      text: `migration ${n} added${typeof description === 'string' ? `: ${description}` : ''}`,
    });
  }
  const [sb, sh] = [entityFile(base, id, 'schema'), entityFile(head, id, 'schema')];
  out.push(...fieldChanges(json(base, sb), json(head, sh)).map((c) => fieldChange(id, sb, sh, c)));
  const [gb, gh] = [entityFile(base, id, 'grid'), entityFile(head, id, 'grid')];
  const [cb, ch] = [columnsOf(json(base, gb)), columnsOf(json(head, gh))];
  cb.forEach((f, i) => {
    if (!ch.includes(f))
      out.push({
        group: id,
        file: gb,
        pointer: `/columns/${i}`,
        kind: 'column-removed',
        breaking: false,
        text: `grid column ${f} removed`,
      });
  });
  ch.forEach((f, i) => {
    if (!cb.includes(f))
      out.push({
        group: id,
        file: gh,
        pointer: `/columns/${i}`,
        kind: 'column-added',
        breaking: false,
        text: `grid column ${f} added`,
      });
  });
  return out;
}

/**
 * Every semantic change from `base` to `head`, grouped by `group` (entity id first, then
 * `workflow <id>`, `screens`, `access`), in a stable order. An unchanged tree gives `[]`.
 * @example diffDefinitions(await loadComparable(baseDir), await loadComparable(root)).filter((c) => c.breaking)
 */
export function diffDefinitions(base: DefinitionSources, head: DefinitionSources): DefinitionChange[] {
  const entities = union(entityIds(base), entityIds(head));
  const subjects = new Map<string, string>();
  const machines = new Map<string, string[]>();
  for (const s of [base, head])
    for (const id of entityIds(s)) {
      const m = manifestOf(s, id)!;
      if (typeof m.subject === 'string') subjects.set(m.subject, id);
      if (typeof m.workflow === 'string')
        machines.set(m.workflow, [...new Set([...(machines.get(m.workflow) ?? []), id])]);
    }
  const out = entities.flatMap((id) => entityChanges(base, head, id));
  const machineFile = /^workflows\/([a-z][^/]*)\.machine\.json$/;
  for (const file of union(matching(base, machineFile), matching(head, machineFile))) {
    const id = machineFile.exec(file)![1]!;
    const users = machines.get(id) ?? [];
    out.push(
      ...machineChanges(users.length === 1 ? users[0]! : `workflow ${id}`, file, json(base, file), json(head, file)),
    );
  }
  const screenFile = /^screens\/[^/]+\.json$/;
  for (const file of union(matching(base, screenFile), matching(head, screenFile))) {
    const entity = asNode(json(head, file) ?? json(base, file))?.entity;
    const group = typeof entity === 'string' && entities.includes(entity) ? entity : 'screens';
    out.push(...screenChanges(group, file, json(base, file), json(head, file)));
  }
  const accessFile = 'schemas/_access/access.json';
  out.push(...accessChanges(json(base, accessFile), json(head, accessFile), (s) => subjects.get(s) ?? 'access'));
  const order = (g: string) => (entities.includes(g) ? 0 : g.startsWith('workflow ') ? 1 : g === 'screens' ? 2 : 3);
  return out
    .map((c, i) => ({ c, i }))
    .sort((x, y) => order(x.c.group) - order(y.c.group) || x.c.group.localeCompare(y.c.group) || x.i - y.i)
    .map(({ c }) => c);
}
