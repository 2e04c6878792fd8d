import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** `import.meta.glob` of the locale files with `?section=<name>`: file path → `{<name>: texts}`. */
export type LocaleSectionLoaders = Record<string, () => Promise<Record<string, unknown>>>;

/**
 * Makes a lazily built section of the interface texts (vite.config.ts `LAZY_LOCALE_SECTIONS`)
 * available in the current language; true once it is there.
 * The glob stays with its caller: its pattern and query must be literal.
 * @example const ready = useLocaleSection('passwordPolicy', import.meta.glob('../../i18n/locales/*.json', { query: '?section=passwordPolicy', import: 'default' }));
 */
export function useLocaleSection(name: string, loaders: LocaleSectionLoaders): boolean {
  const { i18n } = useTranslation();
  const locale = i18n.language;
  const present = (l: string) => i18n.getResource(l, 'translation', name) !== undefined;
  const [, setLoaded] = useState(0);
  useEffect(() => {
    // The current language only, as the locale chunks (src/app/i18n.ts): the keys are alike in all.
    const missing = present(locale) ? [] : [locale];
    if (!missing.length) return undefined;
    let live = true;
    const loadOne = async (l: string) => {
      const load = Object.entries(loaders).find(([file]) => file.endsWith(`/${l}.json`))?.[1];
      if (load) i18n.addResourceBundle(l, 'translation', await load(), true, true);
    };
    // A failed load leaves the keys showing; nothing else depends on these words.
    Promise.allSettled(missing.map(loadOne)).then(() => live && setLoaded((n) => n + 1));
    return () => {
      live = false;
    };
  }, [locale]); // eslint-disable-line react-hooks/exhaustive-deps
  return present(locale);
}
