/**
 * `npm run check` rule for the documents generated from the definitions (docs/roles.md from
 * access.json and the manifests, docs/edit-rules.md from the entities' edit.json): each must
 * say what the definitions say now, else the check names the command that rewrites it. Run
 * only once the definitions are valid (the documents are rendered from them); the caller
 * reads the files, so the rule itself needs no disk.
 */
import type { DefinitionSources } from '../sources.ts';
import { createDefinitionRegistry } from '../registry.ts';
import { renderRolesDoc, ROLES_DOC_COMMAND, ROLES_DOC_PATH } from '../roles-doc.ts';
import { EDIT_RULES_DOC_COMMAND, EDIT_RULES_DOC_PATH, renderEditRulesDoc } from '../edit-rules-doc.ts';
import type { DefinitionProblem } from './context.ts';

/** Reads a repository-relative file; undefined when it does not exist. */
export type ReadDoc = (path: string) => string | undefined;

/**
 * The generated documents that are stale or missing, one problem each.
 * @example checkGeneratedDocs(sources, (p) => existsSync(join(root, p)) ? readFileSync(join(root, p), 'utf8') : undefined)
 */
export function checkGeneratedDocs(sources: DefinitionSources, readDoc: ReadDoc): DefinitionProblem[] {
  const registry = createDefinitionRegistry(sources);
  const docs = [
    {
      path: ROLES_DOC_PATH,
      command: ROLES_DOC_COMMAND,
      of: 'schemas/_access/access.json',
      expected:
        registry.access &&
        renderRolesDoc(
          registry.access,
          [...registry.entities.values()].map((e) => e.manifest),
        ),
    },
    {
      path: EDIT_RULES_DOC_PATH,
      command: EDIT_RULES_DOC_COMMAND,
      of: "the entities' edit.json",
      expected: renderEditRulesDoc(registry),
    },
  ];
  const problems: DefinitionProblem[] = [];
  for (const doc of docs) {
    if (doc.expected && readDoc(doc.path) !== doc.expected) {
      problems.push({
        file: doc.path,
        pointer: '',
        message: `stale or missing: it no longer matches ${doc.of}; run \`${doc.command}\` and commit it`,
      });
    }
  }
  return problems;
}
