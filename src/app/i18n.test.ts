// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { changeLocale, initI18n } from './i18n.ts';
import { LOCALES } from '../shared/locales.ts';

const loaded = () => LOCALES.filter((l) => i18next.hasResourceBundle(l, 'translation'));

describe('the interface languages a visitor loads', () => {
  it('a Russian visitor loads Russian alone, and a switch adds only the language chosen', async () => {
    await initI18n('ru');
    // Not the default language as a fallback: every locale holds the same keys (npm run check).
    expect(loaded()).toEqual(['ru']);
    expect(i18next.t('app.title')).toBe('Комитет по развитию конкуренции и защите прав потребителей');
    expect(document.documentElement.lang).toBe('ru');

    await changeLocale('en');
    expect(loaded()).toEqual(['ru', 'en']);
    expect(i18next.language).toBe('en');
    expect(i18next.t('app.title')).not.toBe('app.title');
    expect(i18next.t('app.title')).not.toBe(i18next.getResource('ru', 'translation', 'app.title'));
    expect(document.documentElement.lang).toBe('en');
  });
});
