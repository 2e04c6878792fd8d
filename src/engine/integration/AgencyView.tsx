/**
 * The `agency` view (route with `:agency`): one agency's methods as tabs (the chosen one in the
 * address, `?method=`), each a query form rendered by the engine's form (its parameter schema,
 * with the portal's widgets, validator and error summary) — for personal data with a required
 * purpose and a note that the call is recorded — a "Run query" button, and the answer (see
 * ResultView). A record the query is made for comes in the address (`?recordEntity=&recordId=`)
 * and is sent with the call. An agency that is not connected shows its form read-only with the
 * reason; the sandbox is labelled on the page.
 */
import { useMemo, useRef, useState } from 'react';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import {
  Badge,
  Button,
  Caption1,
  MessageBar,
  MessageBarBody,
  Spinner,
  Subtitle1,
  Text,
  Title2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Tab, TabList } from '../common/TabList.tsx';
import { ArrowLeftRegular } from '@fluentui/react-icons';
import type { ScreenProps } from '../types.ts';
import type { IntegrationAgencyInfo, IntegrationMethodInfo } from '../../client/data-provider.ts';
import { HttpError } from '../../client/http.ts';
import { useCallIntegration, useGetIntegrations } from '../../client/react/hooks.ts';
import { useAbility } from '../../client/react/ability.tsx';
import { manifests } from '../../definitions/client.ts';
import { pickLocale } from '../../shared/locales.ts';
import { ScreenState } from '../common/ScreenState.tsx';
import { useMediaQuery } from '../common/useMediaQuery.ts';
import { EntityForm, type EntityFormHandle } from '../form/EntityForm.tsx';
import { queryFormSchema, queryUiSchema } from './integration-model.ts';
import { integrationScreen } from './links.ts';
import { BreakerBadge, SandboxBanner, StatusBadge, callFailureText, useIntegrationStyles } from './parts.tsx';
import { ResultView } from './ResultView.tsx';

const useStyles = makeStyles({
  layout: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0 },
  tabs: { flexWrap: 'wrap' },
  panel: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0 },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, marginTop: tokens.spacingVerticalM },
  meta: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  result: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: 0 },
});

/** Below this width the methods are a vertical list, not a row of tabs. */
const NARROW_QUERY = '(max-width: 640px)';

/** The record a query is made for. */
type ForRecord = { entity: string; id: number };

/** The record a query is made for, from the address: a known entity and a positive id. */
function recordOf(search: URLSearchParams): ForRecord | undefined {
  const entity = search.get('recordEntity') ?? '';
  const id = Number(search.get('recordId'));
  return manifests.has(entity) && Number.isInteger(id) && id > 0 ? { entity, id } : undefined;
}

/** One agency's page: its methods, a query form each, and the answer. */
export function AgencyView({ screen }: ScreenProps) {
  const s = useIntegrationStyles();
  const own = useStyles();
  const { t, i18n } = useTranslation();
  const ability = useAbility();
  const { agency: agencyId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const narrow = useMediaQuery(NARROW_QUERY);
  const catalogue = useGetIntegrations(pickLocale(i18n.language));
  const record = useMemo(() => recordOf(search), [search]);
  const back = integrationScreen('agencies', ability);

  if (!catalogue.data)
    return <ScreenState screenId={screen.id} error={catalogue.error} onRetry={() => void catalogue.refetch()} />;
  const { sandbox } = catalogue.data;
  const agency = catalogue.data.agencies.find((a) => a.id === agencyId);
  const backLink = back && (
    <RouterLink to={back.route} data-action="back">
      <ArrowLeftRegular /> {t('integration.agency.back')}
    </RouterLink>
  );
  if (!agency)
    return (
      <section className={s.root} data-screen={screen.id} data-state="unknown-agency">
        {backLink}
        <Title2 as="h1">{t(screen.titleKey)}</Title2>
        <MessageBar intent="warning">
          <MessageBarBody>{t('integration.agency.unknown')}</MessageBarBody>
        </MessageBar>
      </section>
    );
  const method = agency.methods.find((m) => m.id === search.get('method')) ?? agency.methods[0];
  const notConnected = agency.status === 'notConnected';
  const choose = (id: string) =>
    setSearch(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.set('method', id);
        return next;
      },
      { replace: true },
    );
  return (
    <section className={s.root} data-screen={screen.id} data-agency={agency.id} data-sandbox={sandbox}>
      {backLink}
      <div className={s.heading}>
        <Title2 as="h1">{agency.title}</Title2>
        <span className={s.badges}>
          <StatusBadge status={agency.status} />
          <BreakerBadge breaker={agency.breaker} />
        </span>
      </div>
      {sandbox && <SandboxBanner />}
      {notConnected && (
        <MessageBar intent="warning" data-state="not-connected">
          <MessageBarBody>{t('integration.agency.notConnected')}</MessageBarBody>
        </MessageBar>
      )}
      {!notConnected && agency.breaker === 'open' && (
        <MessageBar intent="warning" data-state="paused">
          <MessageBarBody>{t('integration.agency.paused', { agency: agency.title })}</MessageBarBody>
        </MessageBar>
      )}
      <div className={own.layout}>
        {agency.methods.length > 1 && (
          <TabList
            className={own.tabs}
            vertical={narrow}
            selectedValue={method?.id}
            onTabSelect={(_e, d) => choose(String(d.value))}
            aria-label={t('integration.agency.methods')}
          >
            {agency.methods.map((m) => (
              <Tab key={m.id} value={m.id} data-tab={m.id}>
                {m.title}
              </Tab>
            ))}
          </TabList>
        )}
        {method && (
          <MethodPanel
            key={`${agency.id}/${method.id}`}
            screenId={screen.id}
            agency={agency}
            method={method}
            disabled={notConnected}
            record={record}
          />
        )}
      </div>
    </section>
  );
}

/** One method: its query form, the run button and the answer. */
function MethodPanel({
  screenId,
  agency,
  method,
  disabled,
  record,
}: {
  screenId: string;
  agency: IntegrationAgencyInfo;
  method: IntegrationMethodInfo;
  disabled: boolean;
  record: ForRecord | undefined;
}) {
  const own = useStyles();
  const { t } = useTranslation();
  const form = useRef<EntityFormHandle>(null);
  const schema = useMemo(() => queryFormSchema(method), [method]);
  const ui = useMemo(() => queryUiSchema(), []);
  const [data, setData] = useState<Record<string, unknown>>({ params: {} });
  const [serverErrors, setServerErrors] = useState<Record<string, string> | undefined>(undefined);
  const call = useCallIntegration();
  // A 400 with field errors is shown at the fields (and in the summary), not as a message.
  const fieldRefusal = call.error instanceof HttpError && call.error.status === 400 && call.error.fieldErrors;
  const run = (values: Record<string, unknown>) => {
    setServerErrors(undefined);
    const purpose = typeof values.purpose === 'string' ? values.purpose.trim() : undefined;
    call.mutate(
      {
        agency: agency.id,
        method: method.id,
        params: (values.params as Record<string, unknown> | undefined) ?? {},
        purpose: purpose || undefined,
        record,
      },
      {
        onError: (error) => {
          if (error instanceof HttpError && error.status === 400 && error.fieldErrors)
            setServerErrors(error.fieldErrors);
        },
      },
    );
  };
  const reply = call.data;
  const recordTitle = record && manifests.get(record.entity)?.titleKey;
  return (
    <div className={own.panel} role="tabpanel" data-method={method.id} data-personal-data={method.personalData}>
      <Subtitle1 as="h2">{method.title}</Subtitle1>
      {method.personalData && (
        <MessageBar intent="info" data-state="personal-data" layout="multiline">
          <MessageBarBody>{t('integration.agency.personalData')}</MessageBarBody>
        </MessageBar>
      )}
      {record && (
        <Text data-state="for-record">
          {t('integration.agency.forRecord', {
            record: `${recordTitle ? t(recordTitle) : record.entity} № ${record.id}`,
          })}
        </Text>
      )}
      <EntityForm
        ref={form}
        entity={screenId}
        schema={schema}
        uiSchema={ui}
        formData={data}
        onChange={setData}
        onSubmit={run}
        serverErrors={serverErrors}
        readOnly={disabled}
      >
        <div className={own.actions}>
          <Button
            appearance="primary"
            type="submit"
            data-action="run-query"
            disabled={disabled || call.isPending}
            icon={call.isPending ? <Spinner size="tiny" /> : undefined}
          >
            {t(call.isPending ? 'integration.agency.running' : 'integration.agency.run')}
          </Button>
        </div>
      </EntityForm>
      <div className={own.result} data-region="result" aria-live="polite">
        {call.isError && !fieldRefusal && (
          <MessageBar
            intent="error"
            data-state="call-error"
            data-status={call.error instanceof HttpError ? call.error.status : undefined}
          >
            <MessageBarBody>{callFailureText(call.error, t)}</MessageBarBody>
          </MessageBar>
        )}
        {reply && !call.isPending && (
          <>
            <Subtitle1 as="h3">{t('integration.agency.result')}</Subtitle1>
            <span className={own.meta} data-state="reply-meta" data-cached={reply.cached} data-sandbox={reply.sandbox}>
              {reply.sandbox && (
                <Badge appearance="tint" color="warning" size="small">
                  {t('integration.agency.sandboxAnswer')}
                </Badge>
              )}
              {reply.cached && (
                <Badge appearance="tint" color="informative" size="small">
                  {t('integration.agency.cached')}
                </Badge>
              )}
              <Caption1>{t('integration.agency.duration', { ms: reply.durationMs })}</Caption1>
            </span>
            {reply.found && reply.result ? (
              <ResultView method={method} result={reply.result} />
            ) : (
              <div data-state="not-found">
                <Text weight="semibold">{t('integration.agency.nothingFound')}</Text>
                <br />
                <Caption1>{t('integration.agency.nothingFoundHint')}</Caption1>
              </div>
            )}
          </>
        )}
      </div>
    </div>
  );
}
