import { Body1, Button, makeStyles, Subtitle1, Title1, Title2, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import type { ScreenDefinition } from '../../generated/meta.ts';
import { screens } from '../../definitions/client.ts';
import { formatDate } from '../../shared/format.ts';
import { dueDate, recallTrack, type ConfirmationOptions } from './confirmation.ts';

const useStyles = makeStyles({
  root: { maxWidth: '760px', display: 'grid', gap: tokens.spacingVerticalL },
  // The GOV.UK confirmation panel: green, white text, the reference large.
  panel: {
    backgroundColor: tokens.colorPaletteGreenBackground3,
    color: tokens.colorNeutralForegroundOnBrand,
    padding: `${tokens.spacingVerticalXXL} ${tokens.spacingHorizontalXXL}`,
    textAlign: 'center',
    borderRadius: tokens.borderRadiusMedium,
    display: 'grid',
    gap: tokens.spacingVerticalS,
    '& > *': { justifySelf: 'center', textAlign: 'center' },
    '@media print': { color: 'black', backgroundColor: 'white', border: '3px solid black' },
  },
  panelTitle: { color: 'inherit' },
  reference: {
    fontSize: tokens.fontSizeHero800,
    lineHeight: tokens.lineHeightHero800,
    fontWeight: tokens.fontWeightBold,
    overflowWrap: 'anywhere',
  },
  next: { display: 'grid', gap: tokens.spacingVerticalM, '& > h2, & > p': { margin: 0 } },
  link: { color: tokens.colorBrandForegroundLink, fontSize: tokens.fontSizeBase400 },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalL, alignItems: 'center' },
});

/** Hides the portal's shell and the page's own buttons on paper ("Print or save as PDF"). */
const PRINT_CSS = `@media print {
  [data-region="header"], [data-region="menu"], [data-region="menu-backdrop"], [data-print="hide"],
  [data-region="footer"], [data-region="skip-link"] { display: none !important; }
  [data-region="main"] { margin: 0 !important; padding: 0 !important; }
  body { background: white !important; }
}`;

/**
 * The page after a public submission: a green panel with the reference number, what happens
 * next (the screen's texts, with the due date computed from the submit day), print, a link
 * that pre-fills the tracking lookup, and a link to send another. It lives at the form's own
 * route with `?sent=<reference>&on=<submitted at>`, so a reload shows it again.
 */
export function Confirmation({
  screen,
  reference,
  sentAt,
}: {
  screen: ScreenDefinition;
  reference: string;
  sentAt: string | null;
}) {
  const s = useStyles();
  const { t } = useTranslation();
  const submit = screen.options?.submit as { doneKey?: string; confirmation?: ConfirmationOptions } | undefined;
  const c = submit?.confirmation ?? {};
  const validSent = sentAt && !Number.isNaN(Date.parse(sentAt)) ? sentAt : undefined;
  const values = {
    reference,
    days: c.days ?? '',
    date: validSent && c.days ? formatDate(dueDate(validSent, c.days, c.dayKind)) : '',
  };
  const trackScreen = c.track ? screens.find((x) => x.id === c.track!.screen) : undefined;
  // With the contact this tab filed it with, the lookup can answer at once (`run=1`); without
  // it (another tab, another browser) the link fills in the reference and the visitor adds the rest.
  const remembered = recallTrack(reference);
  const trackQuery = c.track
    ? new URLSearchParams(
        remembered
          ? { ...remembered, run: '1' }
          : { ...(c.track.tab ? { tab: c.track.tab } : {}), [c.track.referenceParam ?? 'reference']: reference },
      )
    : undefined;
  return (
    <div data-screen={screen.id} data-region="confirmation" className={s.root}>
      <style>{PRINT_CSS}</style>
      <div className={s.panel} data-region="confirmation-panel">
        <Title1 as="h1" className={s.panelTitle}>
          {t(submit?.doneKey ?? 'journey.confirmation.title')}
        </Title1>
        <Body1 className={s.panelTitle}>{t('journey.confirmation.reference')}</Body1>
        <strong className={s.reference} data-reference-number>
          {reference}
        </strong>
        {validSent && (
          <Body1 className={s.panelTitle}>{t('journey.confirmation.sentOn', { date: formatDate(validSent) })}</Body1>
        )}
      </div>
      {c.nextKeys?.length ? (
        <section className={s.next} data-region="next-steps">
          <Title2 as="h2">{t('journey.confirmation.next')}</Title2>
          {c.nextKeys.map((key) => (
            <Body1 as="p" key={key} data-next={key}>
              {t(key, values)}
            </Body1>
          ))}
        </section>
      ) : null}
      <div className={s.actions} data-print="hide">
        <Button data-action="print" onClick={() => window.print()}>
          {t('journey.confirmation.print')}
        </Button>
        {trackScreen && trackQuery && (
          <RouterLink to={`${trackScreen.route}?${trackQuery}`} data-action="track" className={s.link}>
            {t('journey.confirmation.track')}
          </RouterLink>
        )}
      </div>
      <Subtitle1 as="p" data-print="hide">
        <RouterLink to={screen.route} data-action="another" className={s.link} reloadDocument>
          {t('journey.confirmation.another')}
        </RouterLink>
      </Subtitle1>
    </div>
  );
}
