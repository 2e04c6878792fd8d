import fp from 'fastify-plugin';
import { loadDefinitionSources } from '../../definitions/sources.ts';
import { checkDefinitions, formatProblem } from '../../definitions/check.ts';
import { createDefinitionRegistry } from '../../definitions/registry.ts';
import { remoteSourceAdapters } from '../integrations/adapters.ts';
import { implementationNames } from '../workflow/implementations.ts';
import { createTranslator } from '../i18n.ts';

/**
 * Loads the definitions from the repository and refuses to start when `npm run check`
 * would fail: a server must never serve a half-valid definition.
 */
export default fp(
  async (app) => {
    const { sources, problems: parse } = await loadDefinitionSources(app.config.root);
    const problems = [...parse, ...checkDefinitions(sources, { ...implementationNames, adapters: Object.keys(remoteSourceAdapters) })];
    if (problems.length) {
      throw new Error(`invalid definitions:\n${problems.map(formatProblem).join('\n')}`);
    }
    const registry = createDefinitionRegistry(sources);
    app.decorate('definitions', registry);
    app.decorate('translator', createTranslator(registry.locales));
  },
  { name: 'definitions' },
);
