import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { getCatalogs } from '@lingui/cli/api';
import { getConfig } from '@lingui/conf';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import { supportedLocales } from '@portal/contract/locales';
import { describe, expect, it } from 'vitest';

/**
 * Every catalog of lingui.config.ts (the web app's, the server's) against its source, in every
 * language (docs/quality/languages.md): what `lingui compile --strict` would refuse, and more.
 */
const root = path.resolve(import.meta.dirname, '../../../..');
const config = getConfig({ configPath: path.join(root, 'lingui.config.ts') });
const catalogs = await getCatalogs(config);
const translated = supportedLocales.filter((locale) => locale !== 'en');

/** The placeholders of an ICU message (`{name}`, `{count, plural, ...}`, `<0>` tags' numbers). */
function placeholders(message: string): string[] {
  const names = new Set<string>();
  const visit = (tokens: ReturnType<typeof compileMessageOrThrow>) => {
    for (const token of tokens) {
      if (typeof token === 'string') continue;
      names.add(token[0]);
      const choices = token[2];
      if (choices && typeof choices === 'object')
        for (const [key, branch] of Object.entries(choices)) if (key !== 'offset' && Array.isArray(branch)) visit(branch);
    }
  };
  visit(compileMessageOrThrow(message));
  for (const tag of message.matchAll(/<\/?(\d+)\/?>/g)) names.add(`<${tag[1]}>`);
  return [...names].sort();
}

type Glossary = Record<string, string[] | string>;
const readGlossary = async (locale: string): Promise<Glossary> =>
  JSON.parse(await readFile(path.join(root, 'locales/glossary', `${locale}.json`), 'utf8')) as Glossary;
const englishTerms = Object.keys(await readGlossary('en')).filter((term) => !term.startsWith('$'));

describe.each(catalogs.map((catalog) => [path.relative(root, catalog.path), catalog] as const))(
  'the catalog %s',
  (_name, catalog) => {
    it('holds every message of the source, and no other, in English', async () => {
      const source = await catalog.collect();
      const english = (await catalog.read('en')) ?? {};
      const obsolete = Object.keys(english).filter((id) => english[id]!.obsolete);
      expect(obsolete, 'messages no longer in the code (npm run i18n:extract)').toEqual([]);
      expect(Object.keys(english).sort(), 'the English catalog is the code’s (npm run i18n:extract)').toEqual(
        Object.keys(source ?? {}).sort(),
      );
    });

    it('keeps every English placeholder a placeholder (an apostrophe before a brace quotes it in ICU)', async () => {
      const english = (await catalog.read('en')) ?? {};
      const quoted = Object.entries(english)
        .filter(([, entry]) => !entry.obsolete)
        .map(([id, entry]) => entry.message ?? entry.translation ?? id)
        .filter((message) => {
          const literal = (tokens: ReturnType<typeof compileMessageOrThrow>): boolean =>
            tokens.some((token) =>
              typeof token === 'string'
                ? /[{}]/.test(token)
                : Object.values((token[2] as Record<string, unknown>) ?? {}).some(
                    (branch) => Array.isArray(branch) && literal(branch as ReturnType<typeof compileMessageOrThrow>),
                  ),
            );
          return literal(compileMessageOrThrow(message));
        });
      expect(quoted, "write '' for an apostrophe beside a placeholder").toEqual([]);
    });

    it.each(translated)('has every message translated in %s, with the same placeholders', async (locale) => {
      const english = (await catalog.read('en')) ?? {};
      const messages = (await catalog.read(locale)) ?? {};
      const missing = Object.keys(english).filter((id) => !messages[id]?.translation?.trim());
      const extra = Object.keys(messages).filter((id) => !(id in english));
      expect(missing, `untranslated in ${locale}`).toEqual([]);
      expect(extra, `not in the source`).toEqual([]);
      const mismatched = Object.entries(messages)
        .filter(([id, entry]) => {
          const source = english[id]?.message ?? english[id]?.translation ?? id;
          try {
            return placeholders(entry.translation!).join() !== placeholders(source).join();
          } catch {
            return true; // not a valid ICU message
          }
        })
        .map(([id, entry]) => `${english[id]?.message ?? english[id]?.translation ?? id} → ${entry.translation}`);
      expect(mismatched, 'placeholders differ or the ICU does not parse').toEqual([]);
    });

    it.each(translated)('translates each glossary term the glossary’s way in %s', async (locale) => {
      const glossary = await readGlossary(locale);
      const english = (await catalog.read('en')) ?? {};
      const messages = (await catalog.read(locale)) ?? {};
      const departures: string[] = [];
      for (const [id, entry] of Object.entries(messages)) {
        const source = (english[id]?.message ?? english[id]?.translation ?? id).toLowerCase();
        const translation = entry.translation?.toLowerCase() ?? '';
        for (const term of englishTerms) {
          if (!new RegExp(`\\b${term.toLowerCase()}(s|es)?\\b`).test(source)) continue;
          const forms = [glossary[term] ?? []].flat().map((form) => form.toLowerCase());
          if (!forms.some((form) => translation.includes(form))) departures.push(`${term}: ${source} → ${translation}`);
        }
      }
      expect(departures).toEqual([]);
    });
  },
);
