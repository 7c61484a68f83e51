/**
 * Moving translations in and out of the catalogs (README § Languages):
 *
 *   npm run i18n:missing -- de > de.json      the messages German lacks, as { id: { english, files } }
 *   npm run i18n:fill -- de de-done.json      writes { id: "translation" } into every catalog holding the id
 *
 * A translator works on the JSON (with the glossary, locales/glossary); the ids are the
 * catalogs' own, so a message in two catalogs (web and server) is filled in both.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { getCatalogs } from '@lingui/cli/api';
import { getConfig } from '@lingui/conf';
import { isSupportedLocale } from '../packages/contract/src/locales.ts';

const root = path.resolve(import.meta.dirname, '..');
const [command, locale, file] = process.argv.slice(2);
if (!locale || !isSupportedLocale(locale) || locale === 'en' || (command === 'fill' && !file)) {
  console.error('usage: translations.ts missing <locale> | fill <locale> <file.json>');
  process.exit(2);
}
const catalogs = await getCatalogs(getConfig({ configPath: path.join(root, 'lingui.config.ts') }));

if (command === 'missing') {
  const missing: Record<string, { english: string; files: string[] }> = {};
  for (const catalog of catalogs) {
    const english = (await catalog.read('en')) ?? {};
    const messages = (await catalog.read(locale)) ?? {};
    for (const [id, entry] of Object.entries(english)) {
      if (entry.obsolete || messages[id]?.translation?.trim()) continue;
      missing[id] = {
        english: entry.message ?? id,
        files: [...new Set((entry.origin ?? []).map(([origin]) => origin))],
      };
    }
  }
  process.stdout.write(`${JSON.stringify(missing, null, 2)}\n`);
} else if (command === 'fill') {
  const translations = JSON.parse(await readFile(path.resolve(file!), 'utf8')) as Record<string, string>;
  let filled = 0;
  for (const catalog of catalogs) {
    const messages = (await catalog.read(locale)) ?? {};
    let changed = false;
    for (const [id, translation] of Object.entries(translations)) {
      if (!messages[id] || typeof translation !== 'string' || !translation.trim()) continue;
      messages[id] = { ...messages[id], translation };
      changed = true;
      filled += 1;
    }
    if (changed) await catalog.write(locale, messages);
  }
  console.error(`${filled} translations written for ${locale}`);
}
