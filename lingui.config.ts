import babel from '@lingui/cli/api/extractors/babel';
import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';
import { contractMessages } from './lingui/contract-messages.ts';
import { serverAnswersExtractor } from './lingui/server-answers.ts';
import { supportedLocales } from './packages/contract/src/locales.ts';

/**
 * One message source for the portal (docs/decisions/languages.md): the web app's catalogs
 * and the server's (mails, the prescription PDF, the server's messages), each a PO file per
 * language. `npm run i18n:extract` adds new messages to every catalog; English is the source.
 */
export default defineConfig({
  sourceLocale: 'en',
  // The pseudo-locale is made from English in the browser (apps/web/src/lib/pseudo-locale.ts).
  locales: [...supportedLocales],
  fallbackLocales: { default: 'en' },
  // Each message names the files it is in, without line numbers: an edit elsewhere leaves the catalogs alone.
  format: formatter({ lineNumbers: false }),
  // The first that matches a file reads it: the server's answers' extractor leaves the server
  // catalog's two files (its mails, the PDF) to babel.
  extractors: [contractMessages, serverAnswersExtractor, babel],
  catalogs: [
    {
      path: '<rootDir>/apps/web/src/locales/{locale}',
      // The contract's English too: the web app shows what the server sends (lingui/contract-messages.ts),
      // and the server's own fixed answers (lingui/server-answers.ts), not its own catalog's words.
      include: ['<rootDir>/apps/web/src', '<rootDir>/packages/contract/src', '<rootDir>/apps/server/src'],
      exclude: [
        '**/*.test.ts',
        '**/*.test.tsx',
        '**/testing/**',
        '<rootDir>/apps/server/src/mail/templates.ts',
        '<rootDir>/apps/server/src/services/prescription/pdf-messages.ts',
      ],
    },
    {
      // The server's: every mail's words (docs/decisions/languages.md § Mails and the server's messages)
      // and the prescription PDF's (§ The prescription PDF in every script).
      path: '<rootDir>/apps/server/src/locales/{locale}',
      include: [
        '<rootDir>/apps/server/src/mail/templates.ts',
        '<rootDir>/apps/server/src/services/prescription/pdf-messages.ts',
        // The refusals' templates (`server.<code>`), for a mail that tells one: a failed progress scan's reason.
        '<rootDir>/packages/contract/src/server-messages.ts',
      ],
    },
  ],
});
