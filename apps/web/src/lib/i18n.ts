import { i18n, type Messages } from '@lingui/core';
import { defaultLocale, isRightToLeft, isSupportedLocale, matchLocale, type Locale } from '@portal/contract/locales';

/**
 * The language the portal speaks (docs/decisions/languages.md § The web app): the signed-in
 * user's own (their account's, kept here at sign-in and when they change it), else the one chosen
 * on this device with a language picker, else the browser's. A browser set to the pseudo-locale
 * `en-XA` sees it whatever else is set: accented, longer text that shows what is left untranslated
 * or cut by its box (docs/quality/languages.md § The pseudo-locale).
 */
export type ShownLocale = Locale | 'pseudo';

export const pseudoBrowserTag = 'en-XA';

// The device's language is a cookie, not a localStorage key: localStorage holds the session's
// seven values of docs/spec.md section 3 and nothing else, and the choice outlives a session.
const cookieName = 'locale';
const yearSeconds = 365 * 24 * 60 * 60;

function storedLocale(): Locale | null {
  const stored = document.cookie
    .split('; ')
    .find((entry) => entry.startsWith(`${cookieName}=`))
    ?.slice(cookieName.length + 1);
  return stored && isSupportedLocale(stored) ? stored : null;
}

/* eslint-disable lingui/no-unlocalized-strings -- a cookie's attributes */
function storeLocale(locale: Locale) {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${cookieName}=${locale}; Path=/; Max-Age=${yearSeconds}; SameSite=Lax${secure}`;
}
/* eslint-enable lingui/no-unlocalized-strings */

/** Which language to show at page load. */
export function initialLocale(): ShownLocale {
  if (navigator.languages[0] === pseudoBrowserTag) return 'pseudo';
  return storedLocale() ?? matchLocale(navigator.languages);
}

// One chunk per language, fetched when that language is first shown (the vite plugin compiles
// each PO file into its messages at build time). English is in the code itself, compiled
// (lingui/inline-english.ts): its catalog is read only to make the pseudo-locale.
const catalogs: Record<Locale, () => Promise<{ messages: Messages }>> = {
  en: () => import('../locales/en.po'),
  de: () => import('../locales/de.po'),
  fr: () => import('../locales/fr.po'),
  es: () => import('../locales/es.po'),
  it: () => import('../locales/it.po'),
  'pt-BR': () => import('../locales/pt-BR.po'),
  pl: () => import('../locales/pl.po'),
  tr: () => import('../locales/tr.po'),
  ar: () => import('../locales/ar.po'),
  'zh-CN': () => import('../locales/zh-CN.po'),
};

async function messagesFor(locale: ShownLocale): Promise<Messages> {
  if (locale === 'pseudo') {
    const [{ pseudolocalize }, { messages }] = await Promise.all([import('./pseudo-locale.ts'), catalogs.en()]);
    return pseudolocalize(messages);
  }
  if (locale === 'en') return {};
  return (await catalogs[locale]()).messages;
}

/** Shows `locale`: loads its messages, then switches every translated text, `<html lang dir>` included. */
export async function showLocale(locale: ShownLocale): Promise<void> {
  if (i18n.locale === locale) return;
  const messages = await messagesFor(locale);
  i18n.loadAndActivate({ locale, messages });
  document.documentElement.lang = locale === 'pseudo' ? pseudoBrowserTag : locale;
  document.documentElement.dir = isRightToLeft(locale) ? 'rtl' : 'ltr';
}

/**
 * A language the user chose (a picker, their profile) or their account carries (sign-in):
 * kept on this device for the pages before sign-in, and shown unless the browser asks for the
 * pseudo-locale.
 */
export async function chooseLocale(locale: Locale): Promise<void> {
  storeLocale(locale);
  if (i18n.locale !== 'pseudo') await showLocale(locale);
}

/** The language shown, as `Intl` takes it (the pseudo-locale formats as English). */
export const intlLocale = (): string => (i18n.locale === 'pseudo' || !i18n.locale ? defaultLocale : i18n.locale);

export { i18n };
