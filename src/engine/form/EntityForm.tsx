import {
  useCallback,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type Ref,
} from 'react';
import { useTranslation } from 'react-i18next';
import { makeStyles } from '@fluentui/react-components';
import { withTheme, type IChangeEvent } from '@rjsf/core';
import type Form from '@rjsf/core';
import { deepEquals, type FieldPathList, type RJSFSchema, type RJSFValidationError, type UiSchema } from '@rjsf/utils';
import type { JSONSchema7 } from 'json-schema';
import { useDataProvider } from '../../client/react/hooks.ts';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../../shared/locales.ts';
import {
  createErrorVisibility,
  ErrorVisibilityContext,
  ServerErrorsContext,
  type EntityFormContext,
} from './context.ts';
import { localizeErrors, propertyToPointer, toErrorSchema } from './localize.ts';
import { ErrorSummary, fieldTitle, focusField, orderedItems, type SummaryItem } from './ErrorSummary.tsx';
import { translateMessage } from './messages.ts';
import { useTranslator } from './useTranslator.ts';
import { isWithin } from './pointer.ts';
import { getAtPointer } from '../../shared/pointer.ts';
import { portalFormTheme } from './theme.ts';
import { prepareUiSchema } from './uiSchema.ts';
import { useFormValidator } from './validator.ts';
import { FormLoading } from './FormLoading.tsx';
import { FormElement } from './templates/FormElement.tsx';
import { holdsLongList } from './row-commit.ts';

type Data = Record<string, unknown>;

const ThemedForm = withTheme<Data, RJSFSchema, EntityFormContext>(portalFormTheme);

const useStyles = makeStyles({ root: { minWidth: 0 } });

const NO_DATA: Data = {};
// An optional choice starts empty: rjsf would otherwise pre-select a oneOf's first const.
const DEFAULTS_BEHAVIOR = { constAsDefaults: 'skipOneOf' } as const;

/** What a screen (or a wizard) can do with a mounted EntityForm. */
export interface EntityFormHandle {
  /** Validates everything, shows every error, and calls `onSubmit` when the data is valid. */
  submit(): void;
  /**
   * Validates only the fields at these JSON pointers (and inside them; default: all) and shows
   * their errors; true when they are valid (a wizard's "next").
   */
  validateFields(pointers?: readonly string[]): boolean;
  /** The data as edited so far. */
  getData(): Data;
}

export interface EntityFormProps {
  /** Entity id: `data-entity`, uploads and lookups. */
  entity: string;
  schema: JSONSchema7 | RJSFSchema;
  uiSchema?: UiSchema | Record<string, unknown>;
  formData?: Data;
  /** Every change, with the whole data. */
  onChange?(data: Data): void;
  /** Called with valid data after `submit()` (screens render their own buttons). */
  onSubmit(data: Data): void;
  /** Called when a submit found errors (the fields show them). */
  onError?(pointers: string[]): void;
  /** `{pointer: message}` from a 400; each shows on its field until that field changes. */
  serverErrors?: Record<string, string>;
  /** Every widget read-only, no validation (detail pages). */
  readOnly?: boolean;
  /** JSON pointers of the top-level fields to render (a wizard step); the rest of the data stays intact. */
  fields?: string[];
  /** The stored record being edited (its uploads are bound to it); undefined for a new one. */
  recordId?: number;
  /** Values around the form its widgets may read by name (a flow's earlier steps, a dialog's record). */
  outside?: Readonly<Record<string, unknown>>;
  /** The `id` of the `<form>` element: a submit button elsewhere (a dialog's) names it in its `form` attribute. */
  id?: string;
  /** Rendered inside the `<form>` after the fields: its submit button, so Enter submits. */
  children?: ReactNode;
  /** The error summary on top after an invalid submit (default: on, unless read-only). */
  errorSummary?: boolean;
  /** A summary link's field is not on the page (a wizard's other step): the screen takes the user there. */
  onFieldElsewhere?(pointer: string): void;
  /** The handle (`formRef` or, React 19 style, `ref`). */
  formRef?: Ref<EntityFormHandle>;
  ref?: Ref<EntityFormHandle>;
}

const asLocale = (language: string | undefined): Locale =>
  (LOCALES as readonly string[]).includes(language ?? '') ? (language as Locale) : DEFAULT_LOCALE;

/**
 * The one form of the engine: rjsf with the portal's Fluent theme, validator and localized
 * messages, rendering any entity's schema. Required fields are validated as they change,
 * optional ones when they lose focus (spec §5); a submit or `validateFields` shows everything
 * in its scope.
 * @example <EntityForm entity={id} schema={def.schema} uiSchema={def.ui?.uiSchema} formData={data} onSubmit={save} formRef={ref} />
 */
export function EntityForm(props: EntityFormProps) {
  const {
    entity,
    uiSchema,
    formData,
    onChange,
    onSubmit,
    onError,
    serverErrors,
    readOnly = false,
    fields,
    recordId,
    outside,
    formRef,
    ref,
    id,
    children,
  } = props;
  const summaryOn = (props.errorSummary ?? true) && !readOnly;
  const schema = props.schema as RJSFSchema;
  const styles = useStyles();
  const { i18n } = useTranslation();
  const dataProvider = useDataProvider();
  const locale = asLocale(i18n.language);
  const form = useRef<Form<Data, RJSFSchema, EntityFormContext>>(null);
  const [visibility] = useState(createErrorVisibility);
  const latest = useRef<Data>(formData ?? {});
  // The data the form last reported through onChange.
  const reported = useRef<Data | undefined>(undefined);
  // Set while `validateFields` asks rjsf to validate: its errors are a step's, not a failed submit.
  const quiet = useRef(false);
  const ui = useMemo(() => prepareUiSchema(uiSchema as UiSchema | undefined), [uiSchema]);
  const i18nText = useTranslator();
  const root = useRef<HTMLDivElement>(null);
  // The summary of the last failed submit (GOV.UK): each failure is a new attempt that takes the focus.
  const [summary, setSummary] = useState<{ attempt: number; items: SummaryItem[] } | null>(null);
  // Generated at build time for the definitions' schemas; a schema composed at run time waits for the compiler.
  const validator = useFormValidator(entity, schema);

  // Server errors stay on their fields until the field's value changes.
  const [server, setServer] = useState(() => ({
    source: serverErrors,
    active: serverErrors ?? {},
    base: latest.current,
  }));
  if (server.source !== serverErrors)
    setServer({ source: serverErrors, active: serverErrors ?? {}, base: latest.current });
  useEffect(() => {
    if (serverErrors) visibility.reveal(Object.keys(serverErrors));
  }, [serverErrors, visibility]);
  const extraErrors = useMemo(() => toErrorSchema(server.active), [server.active]);

  const setFieldValue = useCallback(
    (path: FieldPathList, value: unknown) => form.current?.setFieldValue(path, value as Data),
    [],
  );
  const formContext = useMemo<EntityFormContext>(
    () => ({ entity, recordId, dataProvider, locale, setFieldValue, fields, outside }),
    [entity, recordId, dataProvider, locale, setFieldValue, fields, outside],
  );

  const handleChange = (event: IChangeEvent<Data, RJSFSchema, EntityFormContext>) => {
    const data = event.formData ?? {};
    latest.current = data;
    reported.current = data;
    const pointers = Object.keys(server.active);
    if (pointers.length) {
      const kept = pointers.filter((p) => deepEquals(getAtPointer(data, p), getAtPointer(server.base, p)));
      if (kept.length !== pointers.length)
        setServer((s) => ({ ...s, active: Object.fromEntries(kept.map((p) => [p, s.active[p]!])) }));
    }
    onChange?.(data);
  };

  /** The errors of the data within `pointers`, the schema's and the server's, as summary lines. */
  const problems = useCallback(
    (data: Data, pointers: readonly string[]): SummaryItem[] => {
      if (!validator) return [];
      const { errors } = validator.validateFormData(data, schema, undefined, localizeErrors, ui);
      const inScope = (pointer: string) => pointers.some((scope) => isWithin(pointer, scope));
      const line = (pointer: string, message: string): SummaryItem => ({
        pointer,
        text: i18nText.t('forms.summary.item', {
          field: fieldTitle(i18nText, schema, ui, pointer),
          message: translateMessage(i18nText, message),
          interpolation: { escapeValue: false },
        }),
      });
      return [
        ...errors
          .map((e) => ({ pointer: propertyToPointer(e.property), message: e.message ?? '' }))
          .filter((e) => inScope(e.pointer))
          .map((e) => line(e.pointer, e.message)),
        ...Object.entries(server.active)
          .filter(([pointer]) => inScope(pointer))
          .map(([pointer, message]) => line(pointer, message)),
      ];
    },
    [validator, schema, ui, server.active, i18nText],
  );
  const showSummary = useCallback(
    (items: SummaryItem[]) => {
      if (!summaryOn) return;
      setSummary((prev) =>
        items.length ? { attempt: (prev?.attempt ?? 0) + 1, items: orderedItems(root.current, items) } : null,
      );
    },
    [summaryOn],
  );

  // A 400's field errors are an invalid submit too: the summary lists them (with any others).
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new reply from the server shows it
  useEffect(() => {
    if (serverErrors && Object.keys(serverErrors).length) showSummary(problems(latest.current, ['']));
  }, [serverErrors]);

  const handle = useMemo<EntityFormHandle>(
    () => ({
      submit() {
        visibility.reveal(['']);
        form.current?.submit();
      },
      validateFields(pointers = ['']) {
        const current = form.current;
        const data = current?.state.formData ?? latest.current;
        const found = problems(data, pointers);
        visibility.reveal(pointers);
        // rjsf validates live only after a first change; this puts the current errors on the fields.
        quiet.current = true;
        if (current?.validateFormWithFormData(data) !== false) quiet.current = false;
        showSummary(found);
        return found.length === 0;
      },
      getData: () => form.current?.state.formData ?? latest.current,
    }),
    [visibility, problems, showSummary],
  );
  useImperativeHandle(formRef, () => handle, [handle]);
  useImperativeHandle(ref, () => handle, [handle]);

  // rjsf calls these once per change; they read the latest props through a ref so that the
  // form element below stays the same while only the data the form itself reported comes back.
  const handlers = useRef({ handleChange, onSubmit, onError, problems, showSummary });
  handlers.current = { handleChange, onSubmit, onError, problems, showSummary };
  const [rjsfHandlers] = useState(() => ({
    onChange: (event: IChangeEvent<Data, RJSFSchema, EntityFormContext>) => handlers.current.handleChange(event),
    onSubmit: (event: IChangeEvent<Data, RJSFSchema, EntityFormContext>) => {
      setSummary(null);
      handlers.current.onSubmit(event.formData ?? {});
    },
    onError: (errors: RJSFValidationError[]) => {
      if (quiet.current) {
        quiet.current = false;
        return;
      }
      const { problems: find, showSummary: show, onError: report } = handlers.current;
      visibility.reveal(['']);
      show(find(form.current?.state.formData ?? latest.current, ['']));
      report?.(errors.map((e) => propertyToPointer(e.property)));
    },
  }));

  // Screens store what onChange reports and pass it back as `formData`. That is rjsf's own
  // state returning: handed to rjsf, it would re-derive its whole state from it (defaults and
  // conditions of every row of a long array) and compare it deeply, for every key press. So
  // while only that echo changed, the form element stays as it is; anything else (data from
  // outside, errors, the schema) builds it anew with the current data. rjsf notices new data
  // by comparing its props deeply, so data from outside equal to what rjsf still holds from
  // before the skipped echoes (the data the form began with, set again) also flips a prop
  // rjsf only reads to decide whether to look at its props.
  const given = formData ?? NO_DATA;
  const inputs = [validator, schema, ui, formContext, extraErrors, readOnly, summaryOn, id, children];
  const held = useRef({ inputs, given, data: given, skipped: false, flip: false });
  const h = held.current;
  const sameInputs = inputs.every((v, i) => v === h.inputs[i]);
  if (sameInputs && given !== h.given && given === reported.current) {
    h.given = given;
    h.skipped = true;
  } else if (!sameInputs || given !== h.given) {
    const flip = h.skipped && deepEquals(given, h.data) ? !h.flip : h.flip;
    held.current = { inputs, given, data: given, skipped: false, flip };
  }
  const data = held.current.data;
  // A form that opens with a long list keeps its <form> out of React's hands, where each key
  // press cost named look-ups of thousands of controls (templates/FormElement.tsx); every other
  // form, the prerendered public ones among them, is React's own <form>.
  const [formTag] = useState(() => (holdsLongList(formData) ? FormElement : undefined));
  // biome-ignore lint/correctness/useExhaustiveDependencies: `held.current` is replaced exactly when an input changes
  const rjsfForm = useMemo(
    () =>
      validator && (
        <ThemedForm
          ref={form}
          schema={schema}
          uiSchema={ui}
          formData={data}
          validator={validator}
          formContext={formContext}
          transformErrors={localizeErrors}
          extraErrors={extraErrors}
          liveValidate={readOnly ? false : 'onChange'}
          noValidate={readOnly}
          readonly={readOnly}
          noHtml5Validate
          experimental_defaultFormStateBehavior={DEFAULTS_BEHAVIOR}
          experimental_componentUpdateStrategy={held.current.flip ? 'always' : 'customDeep'}
          showErrorList={false}
          focusOnFirstError={!summaryOn}
          id={id}
          tagName={formTag}
          onChange={rjsfHandlers.onChange}
          onSubmit={rjsfHandlers.onSubmit}
          onError={rjsfHandlers.onError}
        >
          {children}
        </ThemedForm>
      ),
    [held.current],
  );

  return (
    <div data-entity={entity} className={styles.root} ref={root}>
      {summary && (
        <ErrorSummary
          items={summary.items}
          attempt={summary.attempt}
          onFollow={(pointer) => focusField(root.current, pointer) || props.onFieldElsewhere?.(pointer)}
        />
      )}
      <ErrorVisibilityContext.Provider value={visibility}>
        <ServerErrorsContext.Provider value={server.active}>{rjsfForm || <FormLoading />}</ServerErrorsContext.Provider>
      </ErrorVisibilityContext.Provider>
    </div>
  );
}
