/**
 * One stored record brought to its entity's current schema version: the kept-aside fields put
 * back, the migrations above its version applied in order (./steps.ts), the fields the
 * schema does not know taken out and kept aside (./kept-aside.ts), and what still fails the
 * schema named field by field. Pure: the start-up pass (./record-evolution.ts) writes it.
 */
import type { ValidateFunction } from 'ajv';
import type { EntityDefinition } from '../../definitions/registry.ts';
import { toFieldProblems, type FieldProblem } from '../../shared/validation/field-errors.ts';
import { splitKeptAside, withKeptAside, type KeptAside } from './kept-aside.ts';
import { applySteps, type MigrationScript } from './steps.ts';

type Data = Record<string, unknown>;

/** A record as stored: its data, its kept-aside fields and the schema version it was written at. */
export interface StoredState {
  id: number;
  data: Data;
  kept: KeptAside;
  schemaVersion: number;
  /** The row's owner (scripts may derive a field from it); null or absent: none. */
  owner?: string | null;
}

/** The record after evolving, with the migrations applied and what still fails the schema. */
export interface EvolvedState {
  data: Data;
  kept: KeptAside;
  schemaVersion: number;
  /** The migration files applied, in order (empty when the record was current). */
  applied: string[];
  /** The record's schema problems after the migrations (empty when valid). */
  errors: FieldProblem[];
}

/** The script functions of one migration file, by the module name its steps use (`./3.ts`). */
export type ScriptsByFile = ReadonlyMap<string, ReadonlyMap<string, MigrationScript>>;

/**
 * The record at the entity's current version. A script that throws stops everything with the
 * migration and the record named: a migration must not be half-applied.
 * @example evolveRecord(def, validate, scripts, { id: 1, data: { director: 'A' }, kept: {}, schemaVersion: 1 })
 */
export function evolveRecord(
  def: EntityDefinition,
  validate: ValidateFunction,
  scripts: ScriptsByFile,
  stored: StoredState,
): EvolvedState {
  let data = stored.data;
  let left: KeptAside = stored.kept;
  const applied: string[] = [];
  const pending = def.migrations.filter((m) => m.version > stored.schemaVersion && m.version <= def.schemaVersion);
  if (pending.length) {
    ({ data, left } = withKeptAside(data, stored.kept));
    for (const m of pending) {
      try {
        data = applySteps(data, m.migration.steps, scripts.get(m.file), {
          id: stored.id,
          owner: stored.owner ?? null,
        });
      } catch (error) {
        throw new Error(`${m.file} failed on ${def.id} record ${stored.id}: ${(error as Error).message}`);
      }
      applied.push(m.file);
    }
  }
  const split = splitKeptAside(def.schema, data);
  const kept = { ...split.kept, ...left };
  const errors = validate(split.data) ? [] : toFieldProblems(validate.errors);
  return { data: split.data, kept, schemaVersion: Math.max(stored.schemaVersion, def.schemaVersion), applied, errors };
}
