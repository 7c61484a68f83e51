/**
 * The languages the portal speaks (issue 43). English is the spec's words; the rest are
 * translated in the catalogs (apps/web/src/locales, apps/server/src/locales) against one
 * glossary per language (locales/glossary). `pseudo` is for tests only: accented and longer,
 * it shows text left in English and text cut by its box; no user can choose it. No zod here:
 * the sign-in page reads this file (the schema is in locale-schema.ts).
 */
export const supportedLocales = ['en', 'de', 'fr', 'es', 'it', 'pt-BR', 'pl', 'tr', 'ar', 'zh-CN'] as const;
export type Locale = (typeof supportedLocales)[number];
export const defaultLocale: Locale = 'en';

export const localeMessages = {
  unsupported: `Choose one of these languages: ${supportedLocales.join(', ')}`,
} as const;

/** Each language in its own words, for the language pickers. */
export const localeNames: Record<Locale, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
  'pt-BR': 'Português (Brasil)',
  pl: 'Polski',
  tr: 'Türkçe',
  ar: 'العربية',
  'zh-CN': '中文（简体）',
};

/** Languages written right to left: the page mirrors (`dir="rtl"`). */
export const rightToLeftLocales: readonly Locale[] = ['ar'];
export const isRightToLeft = (value: string) => (rightToLeftLocales as readonly string[]).includes(value);

export const isSupportedLocale = (value: string): value is Locale =>
  (supportedLocales as readonly string[]).includes(value);

/**
 * The supported language closest to a list of preferences (the browser's `navigator.languages`,
 * or an Accept-Language header's tags in order): an exact tag first ('pt-BR'), then its
 * language alone ('de-AT' → 'de', 'zh' → 'zh-CN', 'pt-PT' → 'pt-BR'); English when none fits.
 */
export function matchLocale(preferences: readonly string[]): Locale {
  for (const preference of preferences) {
    const tag = preference.trim();
    const exact = supportedLocales.find((candidate) => candidate.toLowerCase() === tag.toLowerCase());
    if (exact) return exact;
    const language = tag.split('-')[0]!.toLowerCase();
    const sameLanguage = supportedLocales.find((candidate) => candidate.split('-')[0] === language);
    if (sameLanguage) return sameLanguage;
  }
  return defaultLocale;
}
