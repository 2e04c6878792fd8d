/**
 * `npm run check` rule for forms (`schemas/<entity>/ui.json` and the other forms a manifest
 * names as `views`): valid against the ui meta-schema; every uiSchema key that is not `ui:*`
 * is a field of the record schema at that level (and every `ui:order` entry); the texts
 * (`ui:title`, `ui:help`, …) are i18n keys; every `ui:widget` is a widget of the registry
 * (src/shared/widget-names.ts, the registry's keys — rjsf would silently fall back to the type's default);
 * each widget of the theme fits its field (`widgetFits`, same module); a lookup's `fill` names
 * fields beside the looked-up one and of the looked-up entity; wizard steps name existing
 * fields, each once, and (unless partial) every field.
 * `checkWidgetNames` serves the uiSchemas screens declare too.
 */
import type { JSONSchema7 } from 'json-schema';
import type { UiDefinition } from '../../generated/meta.ts';
import { deref, resolveFieldSchema, scalarType } from '../../shared/field-schema.ts';
import { isKnownWidgetName, portalWidgetNames, rjsfWidgetNames, widgetMisfit } from '../../shared/widget-names.ts';
import {
  META_FOR,
  createFieldCheck,
  entitiesWithSchema,
  escape,
  type CheckRule,
  type FieldCheck,
  type Report,
  type UseKey,
} from './context.ts';
import { unknownNameMessage } from './suggest.ts';

const UI_TEXT_KEYS = ['ui:title', 'ui:description', 'ui:help', 'ui:placeholder'];

/** The names a message offers: the theme's widgets and rjsf's short names (its component names are accepted too). */
const WIDGET_CHOICES = [...new Set([...portalWidgetNames, ...rjsfWidgetNames])].sort();

/** Forms: uiSchema keys, texts and widgets; wizard steps. */
export const formsRule: CheckRule = {
  name: 'forms',
  run(ctx) {
    const { report, useKey } = ctx;
    for (const { schema, schemaFile, uiFile, viewFiles } of entitiesWithSchema(ctx)) {
      const field = createFieldCheck(report, schema, schemaFile);
      for (const formFile of [...(uiFile ? [uiFile] : []), ...viewFiles]) {
        if (!ctx.metaValid(formFile, META_FOR.ui)) continue;
        checkForm(
          { file: formFile, root: schema, report, useKey, schemaOf: (id) => ctx.entities.get(id)?.schema },
          ctx.json<UiDefinition>(formFile),
          field,
        );
      }
    }
  },
};

/**
 * One form valid against its meta-schema: its uiSchema (fields, texts, widgets, lookups) and its
 * wizard steps. Also serves the admin playground, which checks a pasted form as this rule would.
 * @example checkForm({ file: 'ui.json', root: schema, report, useKey, schemaOf }, ui, createFieldCheck(report, schema, 'schema.json'))
 */
export function checkForm(env: FormEnv, ui: UiDefinition, field: FieldCheck): void {
  const { file: formFile, report, useKey } = env;
  checkUiSchema(env, '/uiSchema', ui.uiSchema, env.root, undefined);
  if (!ui.wizard) return;
  const seen = new Map<string, string>();
  ui.wizard.steps.forEach((step, i) => {
    useKey(formFile, `/wizard/steps/${i}/titleKey`, step.titleKey);
    step.fields.forEach((p, j) => {
      const at = `/wizard/steps/${i}/fields/${j}`;
      field(formFile, at, p);
      if (seen.has(p)) report(formFile, at, `field "${p}" is already in step "${seen.get(p)}"`);
      seen.set(p, step.id);
    });
  });
  if (!ui.wizard.partial) {
    for (const prop of Object.keys(env.root.properties ?? {})) {
      if (!seen.has(`/${prop}`)) report(formFile, '/wizard/steps', `field "/${prop}" is in no wizard step`);
    }
  }
  useKey(formFile, '/wizard/confirmKey', ui.wizard.confirmKey);
}

/** Reports a `ui:widget` (or `ui:options.widget`) at file#at that the widget registry lacks. */
function checkWidgetEntry(file: string, at: string, key: string, value: unknown, report: Report): void {
  const widget =
    key === 'ui:widget'
      ? value
      : key === 'ui:options' && value && typeof value === 'object'
        ? (value as { widget?: unknown }).widget
        : undefined;
  if (typeof widget !== 'string' || isKnownWidgetName(widget)) return;
  report(
    file,
    key === 'ui:widget' ? at : `${at}/widget`,
    unknownNameMessage('ui:widget', widget, 'a widget of the registry (src/engine/form/widgets)', WIDGET_CHOICES),
  );
}

/**
 * Every `ui:widget` of a uiSchema (at any depth, and as `ui:options.widget`) is a widget of
 * the registry. For uiSchemas without a record schema to follow (screens' own forms).
 * @example checkWidgetNames('screens/login.json', '/options/uiSchema', screen.options.uiSchema, report)
 */
export function checkWidgetNames(file: string, pointer: string, ui: unknown, report: Report): void {
  if (!ui || typeof ui !== 'object' || Array.isArray(ui)) return;
  for (const [key, value] of Object.entries(ui as Record<string, unknown>)) {
    const at = `${pointer}/${escape(key)}`;
    if (key.startsWith('ui:')) checkWidgetEntry(file, at, key, value, report);
    else checkWidgetNames(file, at, value, report);
  }
}

/** What checking one form needs besides the uiSchema: its record schema and the other entities' (lookups). */
export interface FormEnv {
  file: string;
  root: JSONSchema7;
  report: Report;
  useKey: UseKey;
  /** The record schema of an entity a lookup names (`ui:options.lookup`), when it has a valid one. */
  schemaOf: (entity: string) => JSONSchema7 | undefined;
}

/** A widget of the registry on a field it does not fit (e.g. a date widget on a number). */
function checkWidgetFit(env: FormEnv, at: string, widget: unknown, node: JSONSchema7 | undefined): void {
  if (typeof widget !== 'string' || !node) return;
  const items = scalarType(node) === 'array' ? deref(env.root, node.items as JSONSchema7) : undefined;
  const misfit = widgetMisfit(widget, {
    type: scalarType(node),
    format: node.format,
    ...(items ? { items: { type: scalarType(items) ?? '', format: items.format ?? '' } } : {}),
  });
  if (misfit) env.report(env.file, at, misfit);
}

/**
 * A lookup's `fill` ({sibling: field of the found record}): each sibling is a field of the
 * form beside the looked-up one, each source a field of the entity the lookup names.
 */
function checkFill(env: FormEnv, at: string, options: unknown, parent: JSONSchema7 | undefined): void {
  if (!options || typeof options !== 'object') return;
  const { fill, lookup } = options as { fill?: unknown; lookup?: unknown };
  if (!fill || typeof fill !== 'object' || Array.isArray(fill)) return;
  const siblings = Object.keys(parent?.properties ?? {});
  const source = typeof lookup === 'string' ? env.schemaOf(lookup) : undefined;
  for (const [target, from] of Object.entries(fill as Record<string, unknown>)) {
    const where = `${at}/fill/${escape(target)}`;
    if (!siblings.includes(target))
      env.report(
        env.file,
        where,
        unknownNameMessage('field', target, 'in the form beside the looked-up field', siblings),
      );
    if (source && typeof from === 'string' && !resolveFieldSchema(source, from.startsWith('/') ? from : `/${from}`))
      env.report(
        env.file,
        where,
        unknownNameMessage('field', from, `a field of "${String(lookup)}"`, Object.keys(source.properties ?? {})),
      );
  }
}

/** Every `labelKey` inside a widget's options (choices, the permission matrix's subjects and actions) is a text in every locale. */
function useLabelKeys(env: FormEnv, pointer: string, options: unknown): void {
  if (!options || typeof options !== 'object') return;
  for (const [key, value] of Object.entries(options as Record<string, unknown>)) {
    const at = `${pointer}/${escape(key)}`;
    if (key === 'labelKey' && typeof value === 'string') env.useKey(env.file, at, value);
    else useLabelKeys(env, at, value);
  }
}

/** Every uiSchema key that is not `ui:*` must be a field of the schema at that level; widgets must be registered and fit. */
function checkUiSchema(
  env: FormEnv,
  pointer: string,
  ui: unknown,
  node: JSONSchema7 | undefined,
  parent: JSONSchema7 | undefined,
): void {
  if (!ui || typeof ui !== 'object' || Array.isArray(ui)) return;
  const { file, root, report, useKey } = env;
  for (const [key, value] of Object.entries(ui as Record<string, unknown>)) {
    const at = `${pointer}/${escape(key)}`;
    if (key.startsWith('ui:')) {
      if (UI_TEXT_KEYS.includes(key)) useKey(file, at, value);
      if (key === 'ui:order' && Array.isArray(value)) {
        value.forEach((name, i) => {
          if (name !== '*' && !node?.properties?.[String(name)])
            report(file, `${at}/${i}`, `field "${String(name)}" does not exist in the schema`);
        });
        // Without "*", the form library refuses to draw an object whose field the order leaves out.
        if (!value.includes('*'))
          for (const name of Object.keys(node?.properties ?? {}))
            if (!value.includes(name))
              report(
                file,
                at,
                `field "${name}" is missing from ui:order, so the form cannot be drawn: add it where it belongs (or "*" for the fields not listed)`,
              );
      }
      checkWidgetEntry(file, at, key, value, report);
      if (key === 'ui:widget' && parent) checkWidgetFit(env, at, value, node);
      if (key === 'ui:options') {
        checkFill(env, at, value, parent);
        useLabelKeys(env, at, value);
      }
      continue;
    }
    if (key === 'items' && scalarType(node ?? {}) === 'array') {
      checkUiSchema(env, at, value, deref(root, node?.items as JSONSchema7), node);
      continue;
    }
    const child = deref(root, node?.properties?.[key]);
    if (!child) {
      report(file, at, `field "${key}" does not exist in the schema`);
      continue;
    }
    checkUiSchema(env, at, value, child, node);
  }
}
