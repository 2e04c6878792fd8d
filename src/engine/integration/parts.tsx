/**
 * Small pieces the integration pages share: the sandbox banner, an agency's status and breaker
 * badges, a call's failure in words, the facts list and the page's styles.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge, MessageBar, MessageBarBody, MessageBarTitle, makeStyles, tokens } from '@fluentui/react-components';
import type { AgencyStatus, BreakerState } from '../../client/data-provider.ts';
import { describeFailure, HttpError, NetworkError } from '../../client/http.ts';

const STATUS_COLORS = { connected: 'success', sandbox: 'warning', notConnected: 'subtle' } as const;
const BREAKER_COLORS = { closed: 'success', halfOpen: 'warning', open: 'danger' } as const;

export const useIntegrationStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    minWidth: 0,
    maxWidth: '1200px',
  },
  heading: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalS },
  badges: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS, alignItems: 'center' },
  muted: { color: tokens.colorNeutralForeground3 },
  // A table scrolls inside its box on a phone; the page itself never scrolls sideways.
  scroll: { overflowX: 'auto', maxWidth: '100%' },
  cards: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    listStyleType: 'none',
    padding: 0,
    margin: 0,
  },
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalM,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    overflowWrap: 'anywhere',
    minWidth: 0,
  },
  filters: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM, alignItems: 'end' },
  pager: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  facts: {
    display: 'grid',
    gridTemplateColumns: 'minmax(140px, 30%) 1fr',
    columnGap: tokens.spacingHorizontalL,
    margin: 0,
    '@media (max-width: 600px)': { gridTemplateColumns: '1fr' },
  },
  factRow: { display: 'contents' },
  term: {
    color: tokens.colorNeutralForeground3,
    padding: `${tokens.spacingVerticalS} 0`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
    '@media (max-width: 600px)': { borderBottom: 'none', paddingBottom: 0 },
  },
  value: {
    margin: 0,
    padding: `${tokens.spacingVerticalS} 0`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
    minWidth: 0,
    overflowWrap: 'anywhere',
  },
});

/** The banner of a portal whose agencies are answered by the sandbox: test data, said on every page. */
export function SandboxBanner() {
  const { t } = useTranslation();
  return (
    <MessageBar intent="warning" data-region="sandbox-banner" layout="multiline">
      <MessageBarBody>
        <MessageBarTitle>{t('integration.sandbox.title')}</MessageBarTitle>
        {t('integration.sandbox.text')}
      </MessageBarBody>
    </MessageBar>
  );
}

/** An agency's connection as a coloured badge (`data-status`). */
export function StatusBadge({ status }: { status: AgencyStatus }) {
  const { t } = useTranslation();
  return (
    <Badge appearance="tint" color={STATUS_COLORS[status] ?? 'subtle'} data-status={status}>
      {t(`integration.status.${status}`)}
    </Badge>
  );
}

/** An agency's circuit breaker as a coloured badge (`data-breaker`). */
export function BreakerBadge({ breaker }: { breaker: BreakerState }) {
  const { t } = useTranslation();
  return (
    <Badge
      appearance="outline"
      color={BREAKER_COLORS[breaker] ?? 'informative'}
      data-breaker={breaker}
      title={t('integration.breaker.label')}
    >
      {t(`integration.breaker.${breaker}`)}
    </Badge>
  );
}

/**
 * A failed call in words: no right (403), too many calls (429) and an unknown method (404) in
 * the page's own words; the agency's trouble (502, 503) and anything else as the server said it.
 */
export function callFailureText(error: unknown, t: (key: string) => string): string {
  if (error instanceof HttpError) {
    if (error.status === 403 || error.status === 417) return t('integration.agency.error.forbidden');
    if (error.status === 429) return t('integration.agency.error.tooMany');
    if (error.status === 404) return t('integration.agency.error.unknown');
    return describeFailure(error.status, error.body, t);
  }
  if (error instanceof NetworkError) return t('errors.networkText');
  return t('errors.internal');
}

/** A labelled list of facts: `[title, value, pointer]` each, empty values left out. */
export function Facts({ items }: { items: ReadonlyArray<{ pointer: string; title: string; value: ReactNode }> }) {
  const s = useIntegrationStyles();
  return (
    <dl className={s.facts}>
      {items.map((item) => (
        <div key={item.pointer} className={s.factRow} data-field={item.pointer}>
          <dt className={s.term}>{item.title}</dt>
          <dd className={s.value}>{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
