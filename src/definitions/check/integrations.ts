/**
 * `npm run check` rule for the integration platform (`schemas/_integrations/<agency>/`): the
 * agency file, each method and each sandbox fixture valid against their meta-schemas and named by
 * their folder and file; an agency's id is not a word the platform's own pages use; a method's
 * parameters and answer compile with the strict ajv (so a misspelt keyword is caught), every
 * parameter and shown answer field has its `titles` in four languages; a table's `rows` points
 * at an array of objects; the roles exist and may open the query pages (`call Integration`);
 * every method has a fixture and every fixture's answers follow the method's answer schema.
 */
import type { IntegrationAgency, IntegrationFixture, IntegrationMethod } from '../../generated/meta.ts';
import { createAbility, rulesFromPermissions } from '../../shared/ability.ts';
import { LOCALES } from '../../shared/locales.ts';
import { META_FOR, type CheckContext, type CheckRule } from './context.ts';
import { unknownNameMessage } from './suggest.ts';

/** The platform's own page names under /admin/integrations/: no agency may take one. */
export const RESERVED_AGENCY_IDS = ['audit', 'health'];

const DIR = 'schemas/_integrations';
type Schema = { type?: unknown; properties?: Record<string, Schema>; items?: Schema; titles?: unknown };

/** Reports every property (nested objects and array items too) that lacks a text in one of the four languages. */
function checkTitles(ctx: CheckContext, file: string, schema: Schema, at: string): void {
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    const pointer = `${at}/properties/${name}`;
    const titles = field.titles as Record<string, unknown> | undefined;
    const missing = LOCALES.filter((l) => typeof titles?.[l] !== 'string' || !titles[l]);
    if (missing.length) ctx.report(file, pointer, `"${name}" needs titles in ${missing.join(', ')}`);
    if (field.properties) checkTitles(ctx, file, field, pointer);
    if (field.items?.properties) checkTitles(ctx, file, field.items, `${pointer}/items`);
  }
}

/** The schema a JSON pointer of the answer leads to (through properties only), if any. */
function schemaAt(schema: Schema, pointer: string): Schema | undefined {
  let node: Schema | undefined = schema;
  for (const segment of pointer.split('/').slice(1)) node = node?.properties?.[segment];
  return node;
}

function checkMethod(
  ctx: CheckContext,
  file: string,
  agencyId: string,
  roles: Map<string, boolean>,
): IntegrationMethod | undefined {
  if (!ctx.metaValid(file, META_FOR.integrationMethod)) return undefined;
  const method = ctx.json<IntegrationMethod>(file);
  if (file !== `${DIR}/${agencyId}/${method.id}.json`)
    ctx.report(file, '/id', `id "${method.id}" must equal the file name`);
  for (const part of ['params', 'result'] as const) {
    const schema = (part === 'params' ? method.params : method.result.schema) as object;
    const at = part === 'params' ? '/params' : '/result/schema';
    try {
      ctx.strict.compile(schema);
    } catch (error) {
      ctx.report(file, at, `does not compile: ${(error as Error).message}`);
    }
    checkTitles(ctx, file, schema as Schema, at);
  }
  if (method.result.view === 'table') {
    const rows = method.result.rows ? schemaAt(method.result.schema as Schema, method.result.rows) : undefined;
    if (!method.result.rows) ctx.report(file, '/result', 'a table view needs `rows`: the pointer of the rows array');
    else if (rows?.type !== 'array' || !rows.items?.properties)
      ctx.report(file, '/result/rows', `"${method.result.rows}" is not an array of objects in the answer's schema`);
  }
  method.roles.forEach((code, i) => {
    if (!roles.has(code))
      ctx.report(
        file,
        `/roles/${i}`,
        unknownNameMessage('role', code, 'a role code of access.json', [...roles.keys()]),
      );
    else if (!roles.get(code))
      ctx.report(
        file,
        `/roles/${i}`,
        `role "${code}" lacks "call Integration" in access.json, so it could not open the query pages`,
      );
  });
  if (method.personalData && method.cache && !method.cache.personalData)
    ctx.report(
      file,
      '/cache',
      'a personal-data method is not cached unless cache.personalData says the agreement allows it',
    );
  return method;
}

function checkFixture(ctx: CheckContext, file: string, method: IntegrationMethod | undefined): void {
  if (!ctx.metaValid(file, META_FOR.integrationFixture)) return;
  if (!method) {
    ctx.report(file, '', 'no method of this agency has this name');
    return;
  }
  let validate;
  try {
    validate = ctx.strict.compile(method.result.schema as object);
  } catch {
    return; // reported with the method
  }
  let validParams;
  try {
    validParams = ctx.strict.compile(method.params as object);
  } catch {
    return; // reported with the method
  }
  ctx.json<IntegrationFixture>(file).cases.forEach((c, i) => {
    // The contract tests call the method with each case's params: they must be a valid query
    // (a catch-all case, with none, suits only a method whose parameters are all optional).
    if (!validParams(c.params))
      for (const e of validParams.errors ?? [])
        ctx.report(
          file,
          `/cases/${i}/params${e.instancePath}`,
          `not a valid query of ${method.id}: ${e.message ?? ''}${e.keyword === 'required' ? ` (${String(e.params.missingProperty)})` : ''}`,
        );
    if (!validate(c.body))
      for (const e of validate.errors ?? [])
        ctx.report(
          file,
          `/cases/${i}/body${e.instancePath}`,
          `does not follow the method's answer schema: ${e.message ?? ''}`,
        );
  });
}

/** The integration platform's definitions: agencies, methods, fixtures. */
export const integrationsRule: CheckRule = {
  name: 'integrations',
  run(ctx) {
    // Which roles exist, and whether each may open the query pages.
    const roles = new Map(
      (ctx.accessJson?.roles ?? []).map((r) => [
        r.code,
        createAbility(rulesFromPermissions(r.permissions)).can('call', 'Integration'),
      ]),
    );
    const agencies = new Set(ctx.filesIn(/^schemas\/_integrations\/[^/]+\//).map((f) => f.split('/')[2]!));
    for (const agencyId of agencies) {
      const agencyFile = `${DIR}/${agencyId}/agency.json`;
      if (!ctx.sources.has(agencyFile)) {
        ctx.report(`${DIR}/${agencyId}`, '', 'an agency folder needs its agency.json');
        continue;
      }
      if (ctx.metaValid(agencyFile, META_FOR.integrationAgency)) {
        const agency = ctx.json<IntegrationAgency>(agencyFile);
        if (agency.id !== agencyId) ctx.report(agencyFile, '/id', `id "${agency.id}" must equal the folder name`);
        if (RESERVED_AGENCY_IDS.includes(agency.id))
          ctx.report(agencyFile, '/id', `"${agency.id}" is a page of the platform (/admin/integrations/${agency.id})`);
      }
      const methods = new Map<string, IntegrationMethod | undefined>();
      for (const file of ctx.filesIn(new RegExp(`^${DIR}/${agencyId}/[^/]+\\.json$`))) {
        if (file === agencyFile) continue;
        methods.set(file.slice(file.lastIndexOf('/') + 1, -5), checkMethod(ctx, file, agencyId, roles));
      }
      if (!methods.size) ctx.report(agencyFile, '', 'the agency has no method');
      const fixtures = ctx.filesIn(new RegExp(`^${DIR}/${agencyId}/fixtures/[^/]+\\.json$`));
      for (const file of fixtures) checkFixture(ctx, file, methods.get(file.slice(file.lastIndexOf('/') + 1, -5)));
      for (const name of methods.keys())
        if (!fixtures.includes(`${DIR}/${agencyId}/fixtures/${name}.json`))
          ctx.report(`${DIR}/${agencyId}/${name}.json`, '', `the sandbox needs fixtures/${name}.json`);
    }
  },
};
