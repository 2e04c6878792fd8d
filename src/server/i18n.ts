import i18next, { type i18n, type TFunction } from 'i18next';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../shared/locales.ts';

/**
 * The server's translator over the same locale files the client uses, so an error says the
 * same thing in the API reply and on screen.
 */
export interface Translator {
  t(locale: Locale, key: string, params?: Record<string, unknown>): string;
}

export function createTranslator(resources: Record<Locale, Record<string, unknown>>): Translator {
  const instance: i18n = i18next.createInstance();
  void instance.init({
    initImmediate: false,
    resources: Object.fromEntries(LOCALES.map((l) => [l, { translation: resources[l] }])),
    lng: DEFAULT_LOCALE,
    fallbackLng: DEFAULT_LOCALE,
    interpolation: { escapeValue: false },
    returnNull: false,
  } as never);
  const fixed = new Map<Locale, TFunction>(LOCALES.map((l) => [l, instance.getFixedT(l)]));
  return { t: (locale, key, params) => fixed.get(locale)!(key, params ?? {}) as string };
}
