/**
 * The pure executor of record migrations (schemas/<id>/migrations/<N>.json): the declarative
 * steps and the script steps applied, in order, to a copy of one record's data. No value is
 * lost by a step unless the step says so (`remove`): a value that cannot go where a step sends
 * it (the target is already filled, the text does not split) stays where it was, and the
 * start-up pass keeps it aside when the schema no longer knows it (./kept-aside.ts).
 */
import type { MigrationStep } from '../../generated/meta.ts';
import { pointerSegments, setAt, toPointer, valueAt } from '../../shared/pointer.ts';

type Data = Record<string, unknown>;

/**
 * What a script may know of the stored row besides its data: its id and its owner (the user
 * who created it, null for a record sent without an account) — a field derived from how the
 * record came in needs them.
 */
export interface StoredRowFacts {
  id: number;
  owner: string | null;
}

/**
 * Another entity's stored records (id and data, by id), for a script's optional `prepare`
 * export: what it returns is the script's third argument.
 */
export type RecordsReader = (entity: string) => Promise<Array<{ id: number; data: Data }>>;

/** A script step's function: the record's data (and the row's facts) in, the migrated data out. */
export type MigrationScript = (data: Data, row: StoredRowFacts) => Data;

/** The facts of a row no script asked about (the unit tests of declarative steps). */
const NO_ROW: StoredRowFacts = { id: 0, owner: null };

const isObject = (v: unknown): v is Data => typeof v === 'object' && v !== null && !Array.isArray(v);
const empty = (v: unknown): boolean => v === undefined || v === null;

/** Removes the field at a pointer (nothing when absent). */
function removeAt(data: Data, pointer: string): void {
  const segments = pointerSegments(pointer);
  const holder = valueAt(data, toPointer(segments.slice(0, -1)));
  if (isObject(holder)) delete holder[segments.at(-1)!];
}

/** Moves a value from one pointer to another unless the target already holds one. */
function moveValue(data: Data, from: string, to: string): void {
  const value = valueAt(data, from);
  if (value === undefined || !empty(valueAt(data, to))) return;
  removeAt(data, from);
  setAt(data, to, value);
}

/** One step on `data`, in place. */
function applyStep(
  data: Data,
  step: MigrationStep,
  scripts: ReadonlyMap<string, MigrationScript>,
  row: StoredRowFacts,
): Data {
  switch (step.op) {
    case 'rename':
    case 'move':
      moveValue(data, step.from, step.to);
      return data;
    case 'remove':
      removeAt(data, step.path);
      return data;
    case 'default':
      if (empty(valueAt(data, step.path))) setAt(data, step.path, structuredClone(step.value));
      return data;
    case 'mapValues': {
      const value = valueAt(data, step.path);
      const map = step.map as Record<string, unknown>;
      const mapped = (v: unknown) =>
        (typeof v === 'string' || typeof v === 'number') && Object.hasOwn(map, String(v)) ? map[String(v)] : v;
      if (value !== undefined) setAt(data, step.path, Array.isArray(value) ? value.map(mapped) : mapped(value));
      return data;
    }
    case 'split': {
      const value = valueAt(data, step.from);
      if (typeof value !== 'string' || step.to.some((to) => to !== step.from && !empty(valueAt(data, to)))) return data;
      const parts = value.split(step.separator);
      // The last part takes the rest, so that no word of the text is lost.
      const cut = [...parts.slice(0, step.to.length - 1), parts.slice(step.to.length - 1).join(step.separator)];
      removeAt(data, step.from);
      step.to.forEach((to, i) => {
        if (cut[i] !== undefined && cut[i] !== '') setAt(data, to, cut[i]);
      });
      return data;
    }
    case 'join': {
      if (!empty(valueAt(data, step.to)) && !step.from.includes(step.to)) return data;
      const values = step.from.map((from) => valueAt(data, from));
      if (values.every(empty)) return data;
      for (const from of step.from) removeAt(data, from);
      setAt(data, step.to, values.filter((v) => !empty(v) && v !== '').join(step.separator));
      return data;
    }
    case 'script': {
      const script = scripts.get(step.module);
      if (!script) throw new Error(`migration script ${step.module} is not loaded`);
      const out = script(data, row);
      if (!isObject(out)) throw new Error(`migration script ${step.module} returned no record`);
      return out;
    }
  }
}

/**
 * A record's data after the steps, in order; the input is not changed.
 * @example applySteps({ director: 'A' }, [{ op: 'rename', from: '/director', to: '/directorName' }])
 * // { directorName: 'A' }
 */
export function applySteps(
  data: Data,
  steps: readonly MigrationStep[],
  scripts: ReadonlyMap<string, MigrationScript> = new Map(),
  row: StoredRowFacts = NO_ROW,
): Data {
  let out = structuredClone(data);
  for (const step of steps) out = applyStep(out, step, scripts, row);
  return out;
}
