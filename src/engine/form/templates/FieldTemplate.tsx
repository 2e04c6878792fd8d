import { useContext, useRef } from 'react';
import { Field, makeStyles, tokens } from '@fluentui/react-components';
import {
  getSchemaType,
  getUiOptions,
  type FieldTemplateProps,
  type Registry,
  type RJSFSchema,
  type UIOptionsType,
} from '@rjsf/utils';
import {
  ErrorVisibilityContext,
  FieldPathContext,
  ServerErrorsContext,
  useErrorsRevealed,
  useSiblingValue,
} from '../context.ts';
import { translateKnown, translateMessage, translateTitle } from '../messages.ts';
import { pathToPointer } from '../pointer.ts';
import { useTranslator } from '../useTranslator.ts';
import { objectWidgetNames } from '../widgets/names.ts';

const useStyles = makeStyles({
  field: { minWidth: 0 },
  groupErrors: {
    color: tokens.colorPaletteRedForeground1,
    fontSize: tokens.fontSizeBase200,
    marginTop: tokens.spacingVerticalXS,
  },
});

/**
 * Whether a field is a container (an object or array laid out by its own template) rather
 * than one control: objects and arrays with a widget (map point, files, multi-select) are controls.
 */
export function isContainerField(schema: RJSFSchema, uiOptions: UIOptionsType, registry: Registry): boolean {
  const type = getSchemaType(schema);
  const widget = typeof uiOptions.widget === 'string' ? uiOptions.widget : undefined;
  if (type === 'object') return !(widget && objectWidgetNames.has(widget));
  if (type === 'array') return !widget && !registry.schemaUtils.isMultiSelect(schema);
  return false;
}

/**
 * The frame of every field: translated label with the required marker, help, and the
 * field's errors under it. Its root carries `data-field` = the field's JSON pointer.
 * Errors show per spec §5: a required field's once it changed, an optional one's once it
 * lost focus, and any field's after a submit, a wizard step check or a server reply.
 */
export function FieldTemplate(props: FieldTemplateProps) {
  const {
    id,
    fieldPathId,
    label,
    required,
    rawErrors,
    hidden,
    schema,
    uiSchema,
    registry,
    children,
    formData,
    rawHelp,
    readonly,
  } = props;
  const path = fieldPathId.path;
  const pointer = pathToPointer(path);
  const i18n = useTranslator();
  const styles = useStyles();
  const store = useContext(ErrorVisibilityContext);
  const revealed = useErrorsRevealed(pointer);
  const fromServer = useContext(ServerErrorsContext)[pointer];
  // A change, even one undone later, makes a required field's errors show (aggressive validation).
  const initial = useRef(formData);
  const changed = useRef(false);
  if (!changed.current && !Object.is(formData, initial.current)) changed.current = true;

  // `ui:options.showWhen: {sibling: value}`: the field is shown only while its siblings have
  // these values (a legal entity's tax ID only for a legal-entity applicant).
  const showWhen = (uiSchema?.['ui:options'] as { showWhen?: Record<string, unknown> } | undefined)?.showWhen;
  const [whenField, whenValue] = showWhen ? Object.entries(showWhen)[0]! : [undefined, undefined];
  const sibling = useSiblingValue(whenField);
  const content = <FieldPathContext.Provider value={path}>{children}</FieldPathContext.Provider>;
  if (path.length === 0) return content;
  if (hidden || (whenField !== undefined && sibling !== whenValue))
    return (
      <div hidden data-field={pointer}>
        {content}
      </div>
    );

  const show = revealed || (Boolean(required) && changed.current);
  const messages = [
    ...new Set([
      ...(show ? (rawErrors ?? []).map((m) => translateMessage(i18n, m)) : []),
      ...(fromServer ? [fromServer] : []),
    ]),
  ];
  const uiOptions = getUiOptions(uiSchema);
  if (isContainerField(schema, uiOptions, registry)) {
    return (
      <div data-field={pointer} className={styles.field}>
        {content}
        {messages.length > 0 && (
          <div role="alert" className={styles.groupErrors}>
            {messages.join(' ')}
          </div>
        )}
      </div>
    );
  }
  // A checkbox carries its own label beside the box.
  const ownLabel = getSchemaType(schema) === 'boolean' && (uiOptions.widget ?? 'checkbox') === 'checkbox';
  const showLabel = uiOptions.label !== false && !ownLabel;
  // A detail page shows data: no typing hints and no required markers.
  const hint = readonly ? undefined : (translateKnown(i18n, rawHelp) ?? translateKnown(i18n, uiOptions.description));
  return (
    <div data-field={pointer} className={styles.field} onBlur={() => store?.touch(pointer)}>
      <Field
        label={showLabel ? { children: translateTitle(i18n, label), htmlFor: id } : undefined}
        required={showLabel && !readonly && Boolean(required)}
        validationState={messages.length ? 'error' : 'none'}
        validationMessage={messages.length ? messages.join(' ') : undefined}
        hint={hint}
      >
        {content}
      </Field>
    </div>
  );
}
