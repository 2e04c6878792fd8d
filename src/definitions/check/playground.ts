/**
 * The admin playground's check: a pasted record schema and form (the contents of a
 * `schema.json` and a `ui.json`) checked by the very rules `npm run check` applies to an
 * entity's files — meta-schemas, the portal vocabulary (formats, keywords) under a strict ajv,
 * titles and texts as i18n keys of all four locales, reference lists, widgets and their fit —
 * against the repository's other definitions. Messages name `schema.json` or `ui.json` and the
 * JSON pointer, as the check would.
 */
import type { JSONSchema7 } from 'json-schema';
import type { UiDefinition } from '../../generated/meta.ts';
import type { DefinitionSources } from '../sources.ts';
import { META_FOR, createCheckContext, createFieldCheck, type DefinitionProblem } from './context.ts';
import { referenceListsRule } from './references.ts';
import { checkRecordSchemaFile } from './record-schema.ts';
import { checkForm } from './ui.ts';
import { localesRule } from './locales.ts';

/** The subsystem subject and action that open the playground (only `manage all` has it by default). */
export const PLAYGROUND_SUBJECT = 'Playground';
export const PLAYGROUND_ACTION = 'use';

/** The names the pasted files go by in the messages. */
export const PLAYGROUND_FILES = { schema: 'schema.json', ui: 'ui.json' } as const;

/** No machine is involved: the form rules name no guard, action or check. */
const NO_IMPLEMENTATIONS = { guards: [], actions: [], delays: [], checks: [] };

/**
 * The problems of a pasted schema and form (`ui` may be absent), the repository's own
 * definitions left out.
 * @example checkPlayground(sources, { schema: { type: 'object' }, ui: { uiSchema: {} } })
 */
export function checkPlayground(
  sources: DefinitionSources,
  input: { schema: unknown; ui?: unknown },
): DefinitionProblem[] {
  const files = new Map(sources);
  files.set(PLAYGROUND_FILES.schema, { path: PLAYGROUND_FILES.schema, json: input.schema });
  if (input.ui !== undefined) files.set(PLAYGROUND_FILES.ui, { path: PLAYGROUND_FILES.ui, json: input.ui });
  const ctx = createCheckContext(files, NO_IMPLEMENTATIONS);
  referenceListsRule.run(ctx);
  if (ctx.metaValid(PLAYGROUND_FILES.schema, META_FOR.record)) {
    const schema = input.schema as JSONSchema7;
    checkRecordSchemaFile(ctx, PLAYGROUND_FILES.schema, schema);
    if (input.ui !== undefined && ctx.metaValid(PLAYGROUND_FILES.ui, META_FOR.ui))
      checkForm(
        {
          file: PLAYGROUND_FILES.ui,
          root: schema,
          report: ctx.report,
          useKey: ctx.useKey,
          schemaOf: (id) => sources.get(`schemas/${id}/schema.json`)?.json as JSONSchema7 | undefined,
        },
        input.ui as UiDefinition,
        createFieldCheck(ctx.report, schema, PLAYGROUND_FILES.schema),
      );
  }
  localesRule.run(ctx);
  const ours = new Set<string>(Object.values(PLAYGROUND_FILES));
  return ctx.problems.filter((p) => ours.has(p.file));
}
