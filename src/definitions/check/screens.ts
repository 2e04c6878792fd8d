/**
 * `npm run check` rule for screens (`screens/<id>.json`): valid against the screen
 * meta-schema, named like the file, on a route no other screen has, for an entity that
 * exists; their texts (`titleKey`, the menu section, every option ending in `Key`) are i18n
 * keys; the permission names a known subject and an action it has; the menu icon is one the shell has (src/shared/icon-names.ts); the widgets of their
 * own forms are registered; options fit the entity (views, tree, wizard, photo route, plain
 * status; `drafts` is checked by the drafts capability); flow steps and record actions are
 * titled forms whose named values exist; the citizen's journey options (journey.ts).
 */
import type { JSONSchema7 } from 'json-schema';
import type { GridDefinition, RecordAction, ScreenDefinition, UiDefinition } from '../../generated/meta.ts';
import { MENU_ICON_NAMES } from '../../shared/icon-names.ts';
import { resolveFieldSchema } from '../../shared/field-schema.ts';
import { META_FOR, type CheckContext, type CheckRule, type UseKey } from './context.ts';
import { checkRecordSchema } from './record-schema.ts';
import { permissionProblem } from './access.ts';
import { unknownNameMessage } from './suggest.ts';
import { checkWidgetNames } from './ui.ts';
import { checkJourneyOptions } from './journey.ts';
import { checkFixedFilters } from './list-screens.ts';
import { checkFacets } from './facets.ts';

/** Screen options name texts by properties ending in `Key` (a group of texts for `contentKey`). */
function useOptionKeys(useKey: UseKey, file: string, pointer: string, value: unknown): void {
  if (Array.isArray(value)) value.forEach((v, i) => useOptionKeys(useKey, file, `${pointer}/${i}`, v));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      // `schema`/`uiSchema` are checked as forms are; titles there are keys by another rule.
      if (k === 'schema' || k === 'uiSchema') continue;
      if (k.endsWith('Key') && typeof v === 'string') useKey(file, `${pointer}/${k}`, v, k === 'contentKey');
      else useOptionKeys(useKey, file, `${pointer}/${k}`, v);
    }
  }
}

/** Every `uiSchema` among a screen's options (flow steps, tabs, actions, its own form). */
function optionUiSchemas(
  value: unknown,
  pointer: string,
  out: Array<{ pointer: string; ui: unknown }> = [],
): Array<{ pointer: string; ui: unknown }> {
  if (Array.isArray(value)) value.forEach((v, i) => optionUiSchemas(v, `${pointer}/${i}`, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'uiSchema') out.push({ pointer: `${pointer}/${k}`, ui: v });
      else if (k !== 'schema') optionUiSchemas(v, `${pointer}/${k}`, out);
    }
  }
  return out;
}

/** Screens: names, routes, entity, texts, icon, widgets, and options that fit the entity. */
export const screensRule: CheckRule = {
  name: 'screens',
  run(ctx) {
    const routes = new Map<string, string>();
    for (const file of ctx.filesIn(/^screens\/[^/]+$/)) {
      if (!ctx.metaValid(file, META_FOR.screen)) continue;
      const screen = ctx.json<ScreenDefinition>(file);
      ctx.screens.push({ file, screen });
      const name = file.slice('screens/'.length, -'.json'.length);
      if (screen.id !== name) ctx.report(file, '/id', `id "${screen.id}" must equal the file name "${name}"`);
      if (screen.entity && !ctx.entities.has(screen.entity))
        ctx.report(file, '/entity', `entity "${screen.entity}" does not exist`);
      if (routes.has(screen.route))
        ctx.report(file, '/route', `route "${screen.route}" is already used by ${routes.get(screen.route)}`);
      routes.set(screen.route, file);
      checkScreen(ctx, file, screen);
    }
  },
};

function checkScreen(ctx: CheckContext, file: string, screen: ScreenDefinition): void {
  const { report, useKey, entities, references } = ctx;
  useKey(file, '/titleKey', screen.titleKey);
  if (screen.permission !== 'public' && screen.permission !== 'signedIn') {
    const problem = permissionProblem(ctx, screen.permission);
    if (problem) report(file, '/permission', problem);
  }
  if (screen.menu) useKey(file, '/menu/section', screen.menu.section);
  const icon = screen.menu?.icon;
  // The shell shows a default icon for a name it lacks: a typo would go unnoticed.
  if (icon !== undefined && !(MENU_ICON_NAMES as readonly string[]).includes(icon)) {
    report(
      file,
      '/menu/icon',
      unknownNameMessage('menu icon', icon, 'an icon of the shell (src/shared/icon-names.ts)', MENU_ICON_NAMES),
    );
  }
  useOptionKeys(useKey, file, '/options', screen.options);
  for (const { pointer, ui } of optionUiSchemas(screen.options, '/options'))
    checkWidgetNames(file, pointer, ui, report);
  const options = screen.options as
    | {
        view?: string;
        plainStatus?: boolean;
        photoRoute?: string;
        recordActions?: RecordAction[];
        keyFacts?: string[];
        fixedFilters?: Record<string, string>;
        initial?: Record<string, unknown>;
      }
    | undefined;
  const view = options?.view;
  // `options.drafts` is the drafts capability's to check (src/server/capabilities/drafts/check.ts).
  const target = screen.entity ? entities.get(screen.entity) : undefined;
  // An integration screen's view is its page (screen.schema.json), not one of the entity's form views.
  if (view && target && screen.kind !== 'integration' && !target.manifest.views?.[view])
    report(file, '/options/view', `entity "${screen.entity}" has no view "${view}"`);
  if (screen.kind === 'integration' && view === 'imports' && !target?.manifest.registryImport)
    report(file, '/entity', `the imports page needs an entity whose manifest declares registryImport`);
  for (const name of Object.keys(options?.initial ?? {}))
    if (target && !target.schema?.properties?.[name])
      report(file, `/options/initial/${name}`, `entity "${screen.entity}" has no field "${name}"`);
  if (screen.kind === 'flow') {
    const flow = screen.options!;
    flow.steps?.forEach((step, i) => {
      const at = `/options/steps/${i}`;
      for (const k of ['titleKey', 'submitKey', 'doneKey'] as const) useKey(file, `${at}/${k}`, step[k]);
      step.actions?.forEach((a, j) => {
        useKey(file, `${at}/actions/${j}/labelKey`, a.labelKey);
        useKey(file, `${at}/actions/${j}/doneKey`, a.doneKey);
      });
      checkRecordSchema(file, step.schema as JSONSchema7, references, report, useKey);
      const fields = Object.keys((step.schema as JSONSchema7).properties ?? {});
      step.checks?.forEach((c, j) => {
        if (!fields.includes(c.field)) report(file, `${at}/checks/${j}/field`, `the step has no field "${c.field}"`);
      });
    });
    useKey(file, '/options/finish/doneKey', flow.finish?.doneKey);
  }
  options?.recordActions?.forEach((action, i) => {
    const at = `/options/recordActions/${i}`;
    if (screen.kind !== 'detail' || !target) report(file, at, 'recordActions need a detail screen of an entity');
    const permission = permissionProblem(ctx, action.permission);
    if (permission) report(file, `${at}/permission`, permission);
    checkRecordSchema(file, action.schema as JSONSchema7, references, report, useKey);
    for (const [name, pointer] of Object.entries(action.fromRecord ?? {})) {
      if (target?.schema && pointer !== '/id' && !resolveFieldSchema(target.schema, pointer))
        report(file, `${at}/fromRecord/${name}`, `entity "${screen.entity}" has no field ${pointer}`);
    }
    // Every value the call sends must come from the form or from the record.
    const known = new Set([
      ...Object.keys((action.schema as JSONSchema7).properties ?? {}),
      ...Object.keys(action.fromRecord ?? {}),
    ]);
    const named = [
      ...(action.endpoint.query ?? []),
      ...(action.endpoint.body ?? []),
      ...[...action.endpoint.path.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]!),
    ];
    for (const name of named)
      if (!known.has(name))
        report(file, `${at}/endpoint`, `"${name}" is neither a field of the action's form nor in fromRecord`);
  });
  options?.keyFacts?.forEach((pointer, i) => {
    // The header shows each key fact by its schema title: it must be a field of the entity.
    if (screen.kind !== 'detail' || !target)
      report(file, `/options/keyFacts/${i}`, 'keyFacts need a detail screen of an entity');
    else if (target.schema && !resolveFieldSchema(target.schema, pointer))
      report(file, `/options/keyFacts/${i}`, `entity "${screen.entity}" has no field ${pointer}`);
  });
  checkFacets(ctx, file, screen, target);
  if (options?.plainStatus && target) {
    // The applicant's plain-words status: one sentence for every state the record can be in.
    const machine = target.manifest.workflow ? ctx.machines.get(target.manifest.workflow) : undefined;
    if (!machine || screen.kind !== 'detail')
      report(file, '/options/plainStatus', 'plainStatus needs a detail screen of an entity with a workflow');
    for (const state of Object.keys(machine?.states ?? {}))
      useKey(file, '/options/plainStatus', `workflow.${machine!.id}.plain.${state}`);
  }
  checkJourneyOptions(ctx, file, screen, target);
  checkFixedFilters(ctx, file, screen, target);
  if (screen.kind === 'tree' && target && !target.manifest.tree)
    report(file, '/kind', `entity "${screen.entity}" has no tree (manifest "tree": {"parentField"})`);
  if (screen.kind === 'upload' && (!target || !target.manifest.registerFromFile))
    report(
      file,
      '/kind',
      `entity "${screen.entity}" has no registerFromFile (manifest "registerFromFile": {"path", …})`,
    );
  if (options?.photoRoute && ![...entities.values()].some((e) => e.manifest.photo?.route === options.photoRoute))
    report(file, '/options/photoRoute', `no manifest has photo.route "${options.photoRoute}"`);
  if (screen.kind === 'wizard' && target) {
    const uiName = view ? target.manifest.views?.[view] : target.manifest.ui;
    if (!(ctx.sources.get(`schemas/${screen.entity}/${uiName ?? ''}`)?.json as UiDefinition | undefined)?.wizard) {
      report(file, '/kind', `entity "${screen.entity}" has no wizard steps in ${uiName ?? 'its ui definition'}`);
    }
  }
}
