/**
 * What the engine takes from @rjsf/core, for the form screens' staged loading
 * (src/engine/registry.ts): importing the package's namespace would keep all of its exports,
 * `getTestRegistry` among them, and with it @rjsf/validator-ajv8's default validator — ajv's
 * compiler — in every form screen's chunks.
 */
export { withTheme } from '@rjsf/core';
