import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setupI18n, type I18n, type Messages } from '@lingui/core';
import { formatter } from '@lingui/format-po';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { defaultLocale, supportedLocales, type Locale } from '@portal/contract';
import { serverRoot } from '../server-root.ts';

/**
 * The server's translations (docs/decisions/languages.md § Mails and the server's messages):
 * one Lingui catalog per language, apps/server/src/locales/{locale}.po, written by
 * `npm run i18n:extract` and translated by hand. The server has no macro transform (tsx and
 * esbuild run it), so each message is a plain descriptor with an explicit id marked for the
 * extractor: `/*i18n*\/ { id: 'mail.x.subject', message: 'New case {trackingNo}' }`.
 *
 * The PO files are read from the source folder both when tsx runs src/ and when Node runs the
 * build in dist/ (server-root.ts is apps/server from either), parsed and compiled with
 * Lingui's own compiler once per language, at start (app.ts); a message missing from a
 * catalog falls back to English, then to the descriptor's own words.
 */
export const catalogFolder = path.join(serverRoot, 'src/locales');

export const catalogFile = (locale: Locale) => path.join(catalogFolder, `${locale}.po`);

/** A catalog's messages, id to ICU text, as the PO file holds them (obsolete ones left out, empty ones as missing). */
export function readCatalog(locale: Locale): Record<string, string> {
  const parsed = formatter().parse(readFileSync(catalogFile(locale), 'utf8'), {
    locale,
    sourceLocale: defaultLocale,
    filename: catalogFile(locale),
  }) as Record<string, { translation?: string; message?: string; obsolete?: boolean }>;
  const messages: Record<string, string> = {};
  for (const [id, entry] of Object.entries(parsed)) {
    if (entry.obsolete || !entry.translation) continue;
    messages[id] = entry.translation;
  }
  return messages;
}

const compile = (catalog: Record<string, string>): Messages =>
  Object.fromEntries(Object.entries(catalog).map(([id, text]) => [id, compileMessage(text)]));

const instances = new Map<Locale, I18n>();

/** The server's Lingui instance for a language, made once: its catalog over English's. */
export function i18nFor(locale: Locale): I18n {
  let i18n = instances.get(locale);
  if (!i18n) {
    const english = compile(readCatalog(defaultLocale));
    const own = locale === defaultLocale ? {} : compile(readCatalog(locale));
    i18n = setupI18n({ locale, locales: [locale], messages: { [locale]: { ...english, ...own } } });
    // A descriptor whose id no catalog has yet (a message added since the last extract) shows its English.
    i18n.setMessagesCompiler(compileMessage);
    instances.set(locale, i18n);
  }
  return i18n;
}

/** A stored or asked-for language as one the server speaks; anything else is English. */
export const serverLocale = (value: string | null | undefined): Locale =>
  (supportedLocales as readonly string[]).includes(value ?? '') ? (value as Locale) : defaultLocale;

/** Every language's instance, made at start (app.ts): a catalog missing or broken stops the start, not a mail later. */
export function loadServerCatalogs(): void {
  for (const locale of supportedLocales) i18nFor(locale);
}
