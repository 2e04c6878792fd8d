import { Button, Field, makeStyles, MessageBar, MessageBarBody, Textarea, tokens } from '@fluentui/react-components';
import { useMutation } from '@tanstack/react-query';
import { useDeferredValue, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { JSONSchema7 } from 'json-schema';
import type { PlaygroundProblem } from '../../client/data-provider.ts';
import { useDataProvider } from '../../client/react/hooks.ts';
import type { ScreenProps } from '../types.ts';
import { Heading, Paragraph } from '../common/primitives.tsx';
import { EntityForm, type EntityFormHandle } from '../form/EntityForm.tsx';
import { FormBoundary } from './FormBoundary.tsx';
import example from './example.json';

const useStyles = makeStyles({
  columns: {
    display: 'grid',
    gap: tokens.spacingHorizontalL,
    gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 420px), 1fr))',
    alignItems: 'start',
  },
  source: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0 },
  code: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200, minHeight: '16em' },
  problems: { margin: 0, paddingLeft: tokens.spacingHorizontalL, overflowWrap: 'anywhere' },
  pointer: { fontFamily: tokens.fontFamilyMonospace, wordBreak: 'break-all' },
  result: {
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
    margin: 0,
  },
  bar: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
});

const pretty = (value: unknown): string => JSON.stringify(value, null, 2);

/** The text parsed as JSON, or the parser's message. */
function parse(text: string): { value?: unknown; error?: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/**
 * The admin playground (screen kind `playground`): a record schema and a form (the contents of a
 * `schema.json` and a `ui.json`) pasted into two boxes; "Check" asks the server to check them by
 * the rules of `npm run check` (`data-region="problems"`, each problem with its file and JSON
 * pointer), and the form beside them is the engine's own, with the portal's widgets and
 * validator, redrawn as the text changes. Nothing is stored.
 */
export default function PlaygroundScreen({ screen }: ScreenProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const dp = useDataProvider();
  const [schemaText, setSchemaText] = useState(() => pretty(example.schema));
  const [uiText, setUiText] = useState(() => pretty(example.ui));
  const [valid, setValid] = useState<Record<string, unknown> | undefined>();
  const form = useRef<EntityFormHandle>(null);
  const check = useMutation({
    mutationFn: (input: { schema: unknown; ui?: unknown }) => dp.checkPlayground(input),
  });
  // The form follows the text a moment later: typing stays responsive.
  const shownSchema = useDeferredValue(schemaText);
  const shownUi = useDeferredValue(uiText);
  const schema = parse(shownSchema);
  const ui = parse(shownUi);
  const uiSchema = (ui.value as { uiSchema?: Record<string, unknown> } | undefined)?.uiSchema;

  const run = () => {
    const parsedSchema = parse(schemaText);
    const parsedUi = uiText.trim() ? parse(uiText) : { value: undefined };
    if (parsedSchema.error || parsedUi.error) return;
    check.mutate({ schema: parsedSchema.value, ...(parsedUi.value === undefined ? {} : { ui: parsedUi.value }) });
  };
  const jsonErrors = [
    ...(parse(schemaText).error ? [{ file: 'schema.json', message: parse(schemaText).error! }] : []),
    ...(uiText.trim() && parse(uiText).error ? [{ file: 'ui.json', message: parse(uiText).error! }] : []),
  ];
  const problems: PlaygroundProblem[] | undefined = check.data?.problems;

  return (
    <section data-screen={screen.id}>
      <Heading>{t(screen.titleKey)}</Heading>
      <Paragraph>{t('playground.intro')}</Paragraph>
      <div className={s.columns}>
        <div className={s.source}>
          <Field label={t('playground.schema')} data-field="/schema">
            <Textarea
              className={s.code}
              resize="vertical"
              value={schemaText}
              spellCheck={false}
              onChange={(_, d) => {
                setSchemaText(d.value);
                // The problems shown were of the text before: they go with it.
                check.reset();
              }}
            />
          </Field>
          <Field label={t('playground.ui')} data-field="/ui">
            <Textarea
              className={s.code}
              resize="vertical"
              value={uiText}
              spellCheck={false}
              onChange={(_, d) => {
                setUiText(d.value);
                check.reset();
              }}
            />
          </Field>
          <div className={s.bar}>
            <Button appearance="primary" data-action="check" disabled={check.isPending} onClick={run}>
              {t('playground.check')}
            </Button>
          </div>
          {jsonErrors.map((e) => (
            <MessageBar key={e.file} intent="error" data-json-error={e.file}>
              <MessageBarBody>{t('playground.badJson', { file: e.file, message: e.message })}</MessageBarBody>
            </MessageBar>
          ))}
          {check.isError && (
            <MessageBar intent="error">
              <MessageBarBody>{(check.error as Error).message}</MessageBarBody>
            </MessageBar>
          )}
          {problems && (
            <div data-region="problems" data-count={problems.length} role="status">
              {problems.length === 0 ? (
                <MessageBar intent="success">
                  <MessageBarBody>{t('playground.ok')}</MessageBarBody>
                </MessageBar>
              ) : (
                <MessageBar intent="warning" layout="multiline">
                  <MessageBarBody>
                    {t('playground.problems', { count: problems.length })}
                    <ul className={s.problems}>
                      {problems.map((p, i) => (
                        <li key={i} data-problem={`${p.file}#${p.pointer}`}>
                          <span className={s.pointer}>
                            {p.file}#{p.pointer || '/'}
                          </span>
                          : {p.message}
                        </li>
                      ))}
                    </ul>
                  </MessageBarBody>
                </MessageBar>
              )}
            </div>
          )}
        </div>
        <div className={s.source} data-region="form">
          <h2>{t('playground.form')}</h2>
          {schema.value !== undefined && !ui.error && (
            <FormBoundary
              key={`${shownSchema}\u0000${shownUi}`}
              fallback={(message) => (
                <MessageBar intent="error" data-region="cannot-draw">
                  <MessageBarBody>{t('playground.cannotDraw', { message })}</MessageBarBody>
                </MessageBar>
              )}
            >
              <EntityForm
                entity=""
                schema={schema.value as JSONSchema7}
                uiSchema={uiSchema}
                formRef={form}
                onChange={() => setValid(undefined)}
                onSubmit={(data) => setValid(data)}
              />
            </FormBoundary>
          )}
          <div className={s.bar}>
            <Button data-action="validate" onClick={() => form.current?.submit()}>
              {t('playground.validate')}
            </Button>
          </div>
          {valid && (
            <div data-region="valid">
              <Paragraph>{t('playground.valid')}</Paragraph>
              <pre className={s.result}>{pretty(valid)}</pre>
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
