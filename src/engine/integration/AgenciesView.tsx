/**
 * The `agencies` view: the agencies the user may query, each a card with its connection
 * (connected, sandbox, not connected), its circuit breaker and its queries, leading to the
 * agency's page; the sandbox banner when the sandbox answers; links to the audit and the health
 * pages for those who may open them.
 */
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Badge, Caption1, Subtitle2, Text, Title2, makeStyles, tokens } from '@fluentui/react-components';
import { LockClosedRegular } from '@fluentui/react-icons';
import type { ScreenProps } from '../types.ts';
import { useGetIntegrations } from '../../client/react/hooks.ts';
import { useAbility } from '../../client/react/ability.tsx';
import { pickLocale } from '../../shared/locales.ts';
import { ScreenState } from '../common/ScreenState.tsx';
import { agencyPath, integrationScreen } from './links.ts';
import { BreakerBadge, SandboxBanner, StatusBadge, useIntegrationStyles } from './parts.tsx';

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 320px), 1fr))',
    gap: tokens.spacingHorizontalM,
    listStyleType: 'none',
    margin: 0,
    padding: 0,
  },
  methods: { margin: 0, paddingLeft: tokens.spacingHorizontalL },
  method: { display: 'flex', gap: tokens.spacingHorizontalXS, alignItems: 'baseline' },
  more: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalL },
});

/** The agencies the user may query, as cards. */
export function AgenciesView({ screen }: ScreenProps) {
  const s = useIntegrationStyles();
  const own = useStyles();
  const { t, i18n } = useTranslation();
  const ability = useAbility();
  const catalogue = useGetIntegrations(pickLocale(i18n.language));
  if (!catalogue.data)
    return <ScreenState screenId={screen.id} error={catalogue.error} onRetry={() => void catalogue.refetch()} />;
  const { agencies, sandbox } = catalogue.data;
  const others = [integrationScreen('audit', ability), integrationScreen('health', ability)].filter(
    (x) => x !== undefined,
  );
  return (
    <section className={s.root} data-screen={screen.id} data-sandbox={sandbox}>
      <div className={s.heading}>
        <Title2 as="h1">{t(screen.titleKey)}</Title2>
        {sandbox && (
          <Badge appearance="filled" color="warning" data-state="sandbox">
            {t('integration.sandbox.badge')}
          </Badge>
        )}
      </div>
      {sandbox && <SandboxBanner />}
      <Text>{t('integration.agencies.intro')}</Text>
      {!agencies.length && <Text data-state="empty">{t('integration.agencies.empty')}</Text>}
      <ul className={own.grid} aria-label={t(screen.titleKey)}>
        {agencies.map((agency) => {
          const path = agencyPath(agency.id, ability);
          return (
            <li key={agency.id} className={s.card} data-agency={agency.id}>
              <Subtitle2 as="h2">
                {path ? (
                  <RouterLink to={path} data-action="open-agency">
                    {agency.title}
                  </RouterLink>
                ) : (
                  agency.title
                )}
              </Subtitle2>
              <span className={s.badges}>
                <StatusBadge status={agency.status} />
                <BreakerBadge breaker={agency.breaker} />
              </span>
              <Caption1 className={s.muted}>
                {t('integration.agencies.methods', { count: agency.methods.length })}
              </Caption1>
              <ul className={own.methods}>
                {agency.methods.map((m) => (
                  <li key={m.id} data-method={m.id}>
                    <span className={own.method}>
                      {m.title}
                      {m.personalData && (
                        <LockClosedRegular
                          aria-label={t('integration.personalData')}
                          title={t('integration.personalData')}
                        />
                      )}
                    </span>
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
      </ul>
      {others.length > 0 && (
        <nav className={own.more} aria-label={t('integration.agencies.more')}>
          {others.map((o) => (
            <RouterLink key={o.id} to={o.route} data-menu-link={o.id}>
              {t(o.titleKey)}
            </RouterLink>
          ))}
        </nav>
      )}
    </section>
  );
}
