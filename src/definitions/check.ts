/**
 * `npm run check`: the definitions linter. A thin core: it builds the shared context
 * (check/context.ts) and runs the rule modules of check/, one per definition kind, in an
 * order where each rule finds the registries the earlier ones filled (reference lists and
 * machines before the entities that name them, record schemas before everything that names
 * fields, the locales last, once every i18n key has been met). The manifest capabilities bring
 * their own rules (src/server/capabilities/), found by reading their folders. The generated
 * documents are checked apart (check/docs.ts), by the script, once the definitions are valid.
 */
import type { DefinitionSources } from './sources.ts';
import {
  createCheckContext,
  type CheckRule,
  type DefinitionProblem,
  type ImplementationNames,
} from './check/context.ts';
import { referenceListsRule } from './check/references.ts';
import { machineFieldsRule, machinesRule } from './check/machines.ts';
import { entityManifestsRule, manifestFieldsRule } from './check/entities.ts';
import { recordSchemasRule } from './check/record-schema.ts';
import { seedsRule } from './check/seeds.ts';
import { editRulesRule } from './check/edit-rules.ts';
import { gridsRule } from './check/grid.ts';
import { formsRule } from './check/ui.ts';
import { crossRefsRule } from './check/cross-refs.ts';
import { screensRule } from './check/screens.ts';
import { dashboardsRule } from './check/dashboards.ts';
import { boardsRule } from './check/boards.ts';
import { chatbotRule } from './check/chatbot.ts';
import { openDataRule } from './check/open-data.ts';
import { integrationsRule } from './check/integrations.ts';
import { accessRule } from './check/access.ts';
import { localesRule } from './check/locales.ts';
import { migrationsRule } from './check/migrations.ts';

export type { CheckContext, CheckRule, DefinitionProblem, ImplementationNames } from './check/context.ts';
export { SUBSYSTEM_SUBJECTS } from './check/access.ts';

/**
 * The rules `checkDefinitions` runs, in order, with the rules of the manifest capabilities
 * (src/server/capabilities/<key>/check.ts, which the server composes: this layer imports no
 * runtime) inserted once entities, their schemas and the screens are known. A new rule goes
 * where the registries it reads are filled: after `entityManifestsRule` for manifests, after
 * `recordSchemasRule` for fields, before `localesRule` when it meets i18n keys.
 * @example checkDefinitions(sources, names, checkRulesWith(CAPABILITY_RULES))
 */
export function checkRulesWith(capabilityRules: readonly CheckRule[]): readonly CheckRule[] {
  return [
    referenceListsRule,
    machinesRule,
    entityManifestsRule,
    recordSchemasRule,
    migrationsRule,
    manifestFieldsRule,
    seedsRule,
    editRulesRule,
    gridsRule,
    formsRule,
    machineFieldsRule,
    crossRefsRule,
    screensRule,
    dashboardsRule,
    boardsRule,
    chatbotRule,
    ...capabilityRules,
    openDataRule,
    integrationsRule,
    accessRule,
    localesRule,
  ];
}

/** The rules of the definitions themselves, without any capability's (see {@link checkRulesWith}). */
export const CHECK_RULES: readonly CheckRule[] = checkRulesWith([]);

/** Formats a checker problem the way `npm run check` prints it. */
export const formatProblem = (p: DefinitionProblem): string => `${p.file}#${p.pointer || '/'}: ${p.message}`;

/**
 * Validates every definition against its meta-schema and every cross-reference between
 * definitions (fields, files, machines, implementations, screens, reference lists, widgets,
 * icons and the i18n keys of all four locales). Returns all problems found; an empty list
 * means valid.
 * @example checkDefinitions(sources, implementationNames)
 */
export function checkDefinitions(
  sources: DefinitionSources,
  implementations: ImplementationNames,
  rules: readonly CheckRule[] = CHECK_RULES,
): DefinitionProblem[] {
  const ctx = createCheckContext(sources, implementations);
  for (const rule of rules) rule.run(ctx);
  return ctx.problems;
}
