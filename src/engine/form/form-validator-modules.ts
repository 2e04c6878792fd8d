/**
 * The loaders of the form validators generated at build time: one per entity record schema
 * (by entity id), one per screen definition that holds form schemas of its own (by screen id)
 * and one per status machine whose transitions take a payload (by machine id). The build writes this module's code (scripts/form-validators.ts, `formValidators`
 * plugin) from the definition files; where nothing generates it (a run without the plugin)
 * there are none, and every form validates with the compiler.
 */
type Loader = () => Promise<unknown>;

/** Generated validators of each entity's `schema.json`. */
export const entityValidatorModules: Readonly<Record<string, Loader>> = {};

/** Generated validators of the form schemas inside each screen definition that has any. */
export const screenValidatorModules: Readonly<Record<string, Loader>> = {};

/** Generated validators of each status machine's transition payloads. */
export const machineValidatorModules: Readonly<Record<string, Loader>> = {};
