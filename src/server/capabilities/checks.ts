/**
 * The manifest capabilities' `npm run check` rules, found by reading the capability folders
 * (registry.ts) once, when this module loads, so that `checkDefinitions` stays synchronous;
 * and the rule that the composed entity meta-schema is current. {@link DEFINITION_RULES}
 * inserts them among the definitions' own rules; the server and `npm run check` pass that list
 * to `checkDefinitions`.
 */
import { checkRulesWith } from '../../definitions/check.ts';
import type { CheckRule } from '../../definitions/check/context.ts';
import {
  capabilityFragments,
  composeEntityMetaSchema,
  ENTITY_META_BASE_FILE,
  ENTITY_META_FILE,
  loadCapabilityChecks,
  metaSchemaText,
} from './registry.ts';

/**
 * schemas/_meta/entity.schema.json is what `npm run codegen` composes from its base and the
 * capabilities' fragments: editors and the checker read that file, so a fragment or a base
 * edited without codegen must not pass unnoticed.
 */
export const composedMetaSchemaRule: CheckRule = {
  name: 'composed entity meta-schema',
  run(ctx) {
    const base = ctx.sources.get(ENTITY_META_BASE_FILE)?.json as Record<string, unknown> | undefined;
    if (!base) return ctx.report(ENTITY_META_BASE_FILE, '', 'the base of the entity meta-schema is missing');
    let composed: Record<string, unknown>;
    try {
      composed = composeEntityMetaSchema(base, capabilityFragments());
    } catch (error) {
      return ctx.report(ENTITY_META_FILE, '', (error as Error).message);
    }
    const onDisk = ctx.sources.get(ENTITY_META_FILE)?.json;
    if (onDisk === undefined || metaSchemaText(onDisk) !== metaSchemaText(composed)) {
      const parts = `${ENTITY_META_BASE_FILE} and the capability fragments (src/server/capabilities/*/schema.json)`;
      ctx.report(ENTITY_META_FILE, '', `is not composed from ${parts}: run npm run codegen`);
    }
  },
};

/**
 * The rules the capabilities add to `npm run check`: the composed meta-schema, then each
 * capability's rule in folder-name order.
 */
export const CAPABILITY_RULES: readonly CheckRule[] = [composedMetaSchemaRule, ...(await loadCapabilityChecks())];

/** Every rule of `npm run check`: the definitions' own and the capabilities', in order. */
export const DEFINITION_RULES: readonly CheckRule[] = checkRulesWith(CAPABILITY_RULES);
