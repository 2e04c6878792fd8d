/**
 * i18next for the four interface languages. Only the current language's file is loaded
 * (each locale is its own chunk); switching loads the next one and re-renders without a
 * reload, and the choice is persisted.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../shared/locales.ts';
import { getSetting, setSetting } from '../client/settings.ts';

// Each file comes merged with every entity's and machine's texts of its language (vite.config.ts,
// `mergedLocales`): one chunk per locale, as before the texts moved beside the definitions.
const loaders = import.meta.glob<Record<string, unknown>>('../i18n/locales/*.json', { import: 'default' });

async function loadLocale(locale: Locale): Promise<void> {
  if (i18next.hasResourceBundle(locale, 'translation')) return;
  const load = loaders[`../i18n/locales/${locale}.json`];
  // Neither deep-merged nor copied (i18next copies a bundle through JSON by default): a locale
  // file is whole and nobody changes it, and copying its ~2,000 keys is a measurable part of a
  // phone's first-visit main-thread work.
  if (load)
    i18next.addResourceBundle(locale, 'translation', await load(), false, true, { silent: false, skipCopy: true });
}

/** The stored locale, else the default (uzCyrillic). */
export const initialLocale = (): Locale => {
  const stored = getSetting('locale');
  return stored && (LOCALES as readonly string[]).includes(stored) ? stored : DEFAULT_LOCALE;
};

/** Initializes i18next with the stored language loaded (that one alone). */
export async function initI18n(locale: Locale = initialLocale()): Promise<typeof i18next> {
  await i18next.use(initReactI18next).init({
    lng: locale,
    fallbackLng: DEFAULT_LOCALE,
    resources: {},
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  // The visitor's language only: every locale holds the same keys (`npm run check` refuses a
  // key missing in one, src/definitions/check/locales.ts), so the fallback would never be read,
  // and loading it too doubled a Russian, Uzbek or English visitor's texts (~50 KB gzip).
  await loadLocale(locale);
  document.documentElement.lang = htmlLang(locale);
  rememberForServer(locale);
  return i18next;
}

/** The `<html lang>` of a locale. */
export const htmlLang = (l: Locale): string => ({ uz: 'uz-Latn', uzCyrillic: 'uz-Cyrl', ru: 'ru', en: 'en' })[l];

/** Cookie naming the visitor's language, so the server sends a public page prerendered in it. */
export const LOCALE_COOKIE = 'portal.locale';

// localStorage is the client's record of the choice (settings.ts); the cookie only mirrors it
// for the server, which cannot read localStorage when it picks the prerendered page.
const rememberForServer = (locale: Locale): void => {
  document.cookie = `${LOCALE_COOKIE}=${locale}; path=/; max-age=31536000; samesite=lax`;
};

/** Switches the interface language and remembers it. */
export async function changeLocale(locale: Locale): Promise<void> {
  await loadLocale(locale);
  await i18next.changeLanguage(locale);
  setSetting('locale', locale);
  document.documentElement.lang = htmlLang(locale);
  rememberForServer(locale);
}
