/**
 * The public routes as the definitions on disk give them (src/definitions/public-routes.ts):
 * for Node scripts and tests, which cannot use the web app's bundled definitions.
 */
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { publicRoutes } from '../../src/definitions/public-routes.ts';

/** The public parameterless routes of the project at `root`, in the screens' order. */
export async function definedPublicRoutes(root: string): Promise<string[]> {
  const registry = createDefinitionRegistry((await loadDefinitionSources(root)).sources);
  return publicRoutes(registry.screens.values(), registry.access?.guest.permissions ?? []);
}
