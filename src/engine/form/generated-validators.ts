/**
 * The form validators generated at build time (scripts/form-validators.ts), loaded with the
 * screen or dialog that shows the form: one module per entity record schema, one per screen
 * definition that holds form schemas of its own (a sign-in form, a flow's steps, a record
 * action's form) and one per status machine (its transitions' payloads). This module
 * is light on purpose — the router's loaders import it — and holds only what was loaded,
 * by the hash of each root schema (`hashForSchema`).
 */
import type { ValidatorFunctions } from '@rjsf/validator-ajv8';
import { entityValidatorModules, machineValidatorModules, screenValidatorModules } from './form-validator-modules.ts';

/** One generated root schema: its hash and rjsf's `validateFns` for `createPrecompiledValidator`. */
export interface GeneratedFormValidator {
  hash: string;
  validateFns: ValidatorFunctions;
}

type Loader = () => Promise<unknown>;

/** Loaded validators by root-schema hash. */
export const generatedValidators = new Map<string, ValidatorFunctions>();

const loaded = new Map<string, Promise<void>>();

/** A module's default export as the plugin writes it. */
const isGenerated = (value: unknown): value is GeneratedFormValidator[] =>
  Array.isArray(value) &&
  value.every(
    (v) => typeof (v as GeneratedFormValidator)?.hash === 'string' && (v as GeneratedFormValidator).validateFns,
  );

function load(file: string, loader: Loader | undefined): Promise<void> {
  if (!loader) return Promise.resolve();
  let pending = loaded.get(file);
  if (!pending) {
    pending = loader().then((module) => {
      const value = (module as { default?: unknown }).default;
      if (isGenerated(value)) for (const v of value) generatedValidators.set(v.hash, v.validateFns);
    });
    loaded.set(file, pending);
  }
  return pending;
}

/** Where a form's schema is written: its entity, the screen that shows it, the machine of a transition. */
export interface FormSchemaSource {
  entity?: string;
  /** The screen's id (its own form schemas: a sign-in form, flow steps, record actions). */
  id?: string;
  /** The status machine's id (its transitions' payloads). */
  machine?: string;
}

/**
 * Loads the generated validators a screen's (or a dialog's) forms use: its entity's record
 * schema, the schemas in its own definition and its machine's payloads. Resolves when they are
 * registered (a file that is not there loads nothing).
 * @example await loadFormValidators({ id: screen.id, entity: screen.entity })
 */
export function loadFormValidators(source: FormSchemaSource): Promise<void> {
  return Promise.all([
    source.entity ? load(`entity ${source.entity}`, entityValidatorModules[source.entity]) : undefined,
    source.id ? load(`screen ${source.id}`, screenValidatorModules[source.id]) : undefined,
    source.machine ? load(`machine ${source.machine}`, machineValidatorModules[source.machine]) : undefined,
  ]).then(() => undefined);
}
