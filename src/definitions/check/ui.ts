/**
 * `npm run check` rule for forms (`schemas/<entity>/ui.json` and the other forms a manifest
 * names as `views`): valid against the ui meta-schema; every uiSchema key that is not `ui:*`
 * is a field of the record schema at that level (and every `ui:order` entry); the texts
 * (`ui:title`, `ui:help`, …) are i18n keys; every `ui:widget` is a widget of the registry
 * (src/shared/widget-names.ts, the registry's keys — rjsf would silently fall back to the type's default);
 * wizard steps name existing fields, each once, and (unless partial) every field.
 * `checkWidgetNames` serves the uiSchemas screens declare too.
 */
import type { JSONSchema7 } from 'json-schema';
import type { UiDefinition } from '../../generated/meta.ts';
import { deref, scalarType } from '../../shared/field-schema.ts';
import { isKnownWidgetName, portalWidgetNames, rjsfWidgetNames } from '../../shared/widget-names.ts';
import {
  META_FOR,
  createFieldCheck,
  entitiesWithSchema,
  escape,
  type CheckRule,
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
        const ui = ctx.json<UiDefinition>(formFile);
        checkUiSchema(formFile, '/uiSchema', ui.uiSchema, schema, schema, report, useKey);
        if (!ui.wizard) continue;
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
          for (const prop of Object.keys(schema.properties ?? {})) {
            if (!seen.has(`/${prop}`)) report(formFile, '/wizard/steps', `field "/${prop}" is in no wizard step`);
          }
        }
        useKey(formFile, '/wizard/confirmKey', ui.wizard.confirmKey);
      }
    }
  },
};

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

/** Every uiSchema key that is not `ui:*` must be a field of the schema at that level; widgets must be registered. */
function checkUiSchema(
  file: string,
  pointer: string,
  ui: unknown,
  node: JSONSchema7 | undefined,
  root: JSONSchema7,
  report: Report,
  useKey: UseKey,
): void {
  if (!ui || typeof ui !== 'object' || Array.isArray(ui)) return;
  for (const [key, value] of Object.entries(ui as Record<string, unknown>)) {
    const at = `${pointer}/${escape(key)}`;
    if (key.startsWith('ui:')) {
      if (UI_TEXT_KEYS.includes(key)) useKey(file, at, value);
      if (key === 'ui:order' && Array.isArray(value)) {
        value.forEach((name, i) => {
          if (name !== '*' && !node?.properties?.[String(name)])
            report(file, `${at}/${i}`, `field "${String(name)}" does not exist in the schema`);
        });
      }
      checkWidgetEntry(file, at, key, value, report);
      continue;
    }
    if (key === 'items' && scalarType(node ?? {}) === 'array') {
      checkUiSchema(file, at, value, deref(root, node?.items as JSONSchema7), root, report, useKey);
      continue;
    }
    const child = deref(root, node?.properties?.[key]);
    if (!child) {
      report(file, at, `field "${key}" does not exist in the schema`);
      continue;
    }
    checkUiSchema(file, at, value, child, root, report, useKey);
  }
}
