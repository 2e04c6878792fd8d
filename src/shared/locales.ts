/** The four interface languages. uzCyrillic is the default and the fallback. */
export const LOCALES = ['uz', 'uzCyrillic', 'ru', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'uzCyrillic';

/**
 * Maps an Accept-Language header or a stored value to one of our locales.
 * `uz-Cyrl` → uzCyrillic, `uz`/`uz-Latn` → uz, `ru*` → ru, `en*` → en.
 * @example pickLocale('ru-RU,ru;q=0.9') // 'ru'
 */
export function pickLocale(value: string | undefined | null): Locale {
  if (!value) return DEFAULT_LOCALE;
  for (const part of value.split(',')) {
    const tag = part.split(';')[0]!.trim().toLowerCase();
    if (tag === 'uzcyrillic' || tag.startsWith('uz-cyrl')) return 'uzCyrillic';
    if (tag === 'uz' || tag.startsWith('uz-')) return 'uz';
    if (tag.startsWith('ru')) return 'ru';
    if (tag.startsWith('en')) return 'en';
  }
  return DEFAULT_LOCALE;
}

/** A reference item's names in the four scripts. */
export interface LocalizedNames {
  nameLt?: string | null;
  nameUz?: string | null;
  nameRu?: string | null;
  nameEn?: string | null;
}

/**
 * Picks the name for a locale: nameUz for uzCyrillic, nameLt for uz (Latin), nameRu for ru,
 * nameEn for en; falls back nameUz → nameLt → nameRu (the legacy portal's order).
 */
export function localizedName(item: LocalizedNames, locale: Locale): string {
  const own = { uzCyrillic: item.nameUz, uz: item.nameLt, ru: item.nameRu, en: item.nameEn }[locale];
  return own || item.nameUz || item.nameLt || item.nameRu || '';
}
