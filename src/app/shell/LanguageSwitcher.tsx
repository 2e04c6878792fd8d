import { useEffect } from 'react';
import { makeStyles, tokens } from '@fluentui/react-components';
import { GlobeRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '../../shared/locales.ts';
import { changeLocale } from '../i18n.ts';
import { getSetting } from '../../client/settings.ts';

/** Each language named in itself, so anyone can find theirs. */
export const LOCALE_NAMES: Record<Locale, string> = {
  uz: 'Oʻzbekcha',
  uzCyrillic: 'Ўзбекча',
  ru: 'Русский',
  en: 'English',
};

const useStyles = makeStyles({
  root: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXS },
  select: {
    appearance: 'none',
    background: 'transparent',
    color: 'inherit',
    border: `1px solid transparent`,
    borderRadius: tokens.borderRadiusMedium,
    padding: '4px 6px',
    font: 'inherit',
    fontWeight: tokens.fontWeightSemibold,
    cursor: 'pointer',
    ':hover': { border: `1px solid ${tokens.colorNeutralStrokeOnBrand}` },
    '& option': { color: tokens.colorNeutralForeground1, backgroundColor: tokens.colorNeutralBackground1 },
  },
});

/**
 * The header's language switch — a native select, light and usable on any phone. Switching
 * re-renders without a reload and is remembered.
 */
export function LanguageSwitcher() {
  const { i18n, t } = useTranslation();
  const s = useStyles();
  // A language chosen on a prerendered page while the app started (its guard script records it
  // in the settings, scripts/prerender.ts) is applied once the switch is React's.
  useEffect(() => {
    const chosen = getSetting('locale');
    if (chosen && chosen !== i18n.language && (LOCALES as readonly string[]).includes(chosen))
      void changeLocale(chosen);
    // Once, at mount: later the select only changes through onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <label className={s.root}>
      <GlobeRegular fontSize={20} aria-hidden />
      <select
        className={s.select}
        data-action="language"
        aria-label={t('app.language')}
        value={i18n.language}
        onChange={(e) => void changeLocale(e.target.value as Locale)}
      >
        {LOCALES.map((l) => (
          <option key={l} value={l} data-locale={l}>
            {LOCALE_NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}
