import fp from 'fastify-plugin';
import { formatProblem } from '../../definitions/check.ts';
import { loadCheckedDefinitions } from '../definitions-check.ts';
import { createDefinitionRegistry, type DefinitionRegistry } from '../../definitions/registry.ts';
import { createTranslator, type Translator } from '../i18n.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The definitions of schemas/, workflows/, screens/, checked as `npm run check` checks them. */
    definitions: DefinitionRegistry;
    /** The shell's and every entity's texts, by locale. */
    translator: Translator;
  }
}

/**
 * Loads the definitions from the repository and refuses to start when `npm run check`
 * would fail: a server must never serve a half-valid definition.
 */
export default fp(
  async (app) => {
    const { sources, problems } = await loadCheckedDefinitions(app.config.root);
    if (problems.length) {
      throw new Error(`invalid definitions:\n${problems.map(formatProblem).join('\n')}`);
    }
    const registry = createDefinitionRegistry(sources);
    app.decorate('definitions', registry);
    app.decorate('translator', createTranslator(registry.locales));
  },
  { name: 'definitions' },
);
