import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { extractFromFileWithBabel } from '@lingui/cli/api/extractors/babel';
import { makeConfig } from '@lingui/conf';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { defaultLocale, renderServerMessage, supportedLocales, type Locale } from '@portal/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import linguiConfig from '../../../lingui.config.ts';
import { contractMessages } from '../../../lingui/contract-messages.ts';
import { mailOutbox, users } from '../src/db/schema.ts';
import { readCatalog } from '../src/i18n/index.ts';
import type { EmailTemplateName } from '../src/mail/mailer.ts';
import { renderTemplate } from '../src/mail/templates.ts';
import { sameAsEnglish } from '../src/services/prescription/pdf-messages.ts';
import { repoRoot, serverRoot } from '../src/server-root.ts';
import { sendDueDigests } from '../src/mail/digest.ts';
import { caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import { createStaff, doctorFields, firstCityOf, formData } from './helpers/factories.ts';
import { startSmtp, type SmtpPeer } from './helpers/smtp-peer.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * Every mail in every language (issue 43, docs/decisions/languages.md § Mails and the server's
 * messages): the catalogs hold exactly the source's messages (`lingui compile --strict`'s
 * check), each mail is translated through and through, and its reader's language travels
 * through the outbox to the SMTP peer in a Content-Language header.
 */

const translated = supportedLocales.filter((locale) => locale !== defaultLocale);

const templateNames = [
  'activation',
  'assistantInvitation',
  'caseStatus',
  'caseSubmitted',
  'caseMessage',
  'planReady',
  'progressScanDone',
  'progressScanFailed',
  'digest',
  'accountChanged',
  'secondStepLocked',
  'passwordReset',
  'passwordForgotten',
  'staffInvitation',
  'registrationReceived',
  'registrationNotCompleted',
  'usernameRegistrationAttempt',
  'secondFactorChanged',
  'secondFactorReset',
  'planShareLink',
] as const satisfies readonly EmailTemplateName[];

/** Every variable any template reads, as their senders write them (values no language translates). */
const variables: Record<string, string> = {
  name: 'Ann Lee',
  username: 'annlee',
  resetUrl: 'http://portal.test/reset-password?token=abc',
  doctorName: 'Ann Lee',
  inviterName: 'Sam Staff',
  validFor: '7 days',
  changed: 'password and e-mail address',
  factors: 'Second factors on your account now: an authenticator app, 2 passkeys and 8 recovery codes.',
  factorTotp: 'yes',
  factorPasskeys: '2',
  factorRecoveryCodes: '8',
  failures: '10',
  lockedUntil: '2026-12-06 10:42 Europe/Berlin',
  lockedUntilAt: '2026-12-06T09:42:00.000Z',
  timeZone: 'Europe/Berlin',
  change: 'A passkey was added to your Aligner Portal account. A passkey signs in on its own, without your password.',
  changeKey: 'passkeyAdded',
  when: '2026-12-05 10:42 UTC',
  at: '2026-12-05T10:42:00.000Z',
  device: 'Chrome 120 on Windows',
  address: '192.0.2.7',
  mustEnrol: 'yes',
  trackingNo: 'AP-1042',
  status: 'Dispatched',
  courier: 'DHL',
  courierTrackingNumber: 'JD0142',
  caseUrl: 'http://portal.test/cases/7',
  more: '2',
  inboxUrl: 'http://portal.test/inbox',
  days: '30',
  url: 'http://portal.test/shared/xyz',
  version: '2',
  stage: '4',
  summary: '2 of 28 teeth off track: 3, 14; the rest on track',
  teethTotal: '28',
  teethOffTrack: '2',
  offTrackTeeth: '3, 14',
  reason: 'E_FIT',
};

/** The digest lists other mails' subjects: in the reader's language, as mail/digest.ts renders them. */
const variablesIn = (locale: Locale): Record<string, string> => ({
  ...variables,
  items: [
    renderTemplate('caseStatus', variables, locale).subject,
    renderTemplate('caseMessage', variables, locale).subject,
  ].join('\n'),
});

/** The English sentences of a text (three words or more): none may be left in a translation. */
const englishSentences = (text: string) =>
  text
    .split(/\n|(?<=[.:;!?])\s+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.split(/\s+/).length >= 3 && !sentence.includes('://'))
    // The variables' own values (the digest's items are checked in their own language).
    .filter((sentence) => !Object.values(variables).includes(sentence) && !sentence.startsWith('- '));

/** The messages of the server catalog's source files, as `lingui extract` finds them. */
async function sourceMessages(): Promise<Map<string, string>> {
  const catalog = linguiConfig.catalogs!.find((entry) => entry.path.includes('apps/server/src/locales'));
  expect(catalog, 'lingui.config.ts has the server catalog').toBeDefined();
  const config = makeConfig(
    { rootDir: repoRoot, sourceLocale: defaultLocale, locales: [...supportedLocales] },
    {
      skipValidation: true,
    },
  );
  const messages = new Map<string, string>();
  for (const include of catalog!.include) {
    const file = include.replace('<rootDir>', repoRoot);
    // The contract's refusals (server-messages.ts) through the portal's own extractor, as `lingui extract` does.
    if (contractMessages.match(file)) {
      await contractMessages.extract(
        file,
        await readFile(file, 'utf8'),
        (message) => messages.set(message.id, message.message ?? ''),
        { linguiConfig: config },
      );
      continue;
    }
    await extractFromFileWithBabel(
      file,
      await readFile(file, 'utf8'),
      (message) => messages.set(message.id, message.message ?? ''),
      { linguiConfig: config },
      { plugins: ['typescript'] },
    );
  }
  return messages;
}

/** The placeholders of an ICU message (`{name}`, plural and select arguments), from Lingui's compiled form. */
function placeholdersOf(message: string): string[] {
  const names = new Set<string>();
  // Text is a string; a placeholder an array: its name, its kind, and a plural's or select's branches.
  const walk = (content: unknown): void => {
    for (const part of Array.isArray(content) ? content : [content]) {
      if (!Array.isArray(part)) continue;
      names.add(String(part[0]));
      if (part[2] && typeof part[2] === 'object') Object.values(part[2] as object).forEach(walk);
    }
  };
  walk(compileMessage(message));
  return [...names].sort();
}

describe('the server catalogs (lingui compile --strict)', () => {
  it('English holds exactly the source files’ messages, in their words', async () => {
    const source = await sourceMessages();
    expect(source.size).toBeGreaterThan(50);
    expect(Object.fromEntries(Object.entries(readCatalog('en')).sort())).toEqual(
      Object.fromEntries([...source].sort()),
    );
  });

  it.each(translated)(
    '%s has every message of the source, translated, with its placeholders, and no other',
    async (locale) => {
      const source = await sourceMessages();
      const catalog = readCatalog(locale);
      expect(Object.keys(catalog).sort()).toEqual([...source.keys()].sort());
      for (const [id, english] of source) {
        expect(catalog[id]?.trim(), `${locale} ${id}`).toBeTruthy();
        expect(placeholdersOf(catalog[id]!), `${locale} ${id}`).toEqual(placeholdersOf(english));
        // Only the product's name reads the same in every language, and some of the PDF's words in some;
        // a word the refusals name ('Link', 'Doctor') may be the same word in another language, and
        // a template of placeholders alone ('{file}: {reason}') has no words.
        const isSentence = /^(mail|pdf|server)\./.test(id) && /[A-Za-z]/.test(english.replace(/\{\w+\}/g, ''));
        if (isSentence && id !== 'mail.signature' && !sameAsEnglish[locale]?.includes(id))
          expect(catalog[id], `${locale} ${id} is still English`).not.toBe(english);
      }
    },
  );

  it('the PO files are where the built server reads them, beside its source', () => {
    expect(path.relative(serverRoot, path.join(serverRoot, 'src/locales'))).toBe(path.join('src', 'locales'));
  });
});

describe('each mail in each language', () => {
  it('English is the spec’s words (the existing mail tests check them); a language the catalogs lack is English', () => {
    for (const name of templateNames) {
      expect(renderTemplate(name, variablesIn('en'))).toEqual(renderTemplate(name, variablesIn('en'), 'en'));
    }
  });

  it.each(translated)('%s: every template, subject included, with no English sentence left', (locale) => {
    for (const name of templateNames) {
      const english = renderTemplate(name, variablesIn('en'), 'en');
      const mail = renderTemplate(name, variablesIn(locale), locale);
      expect(mail.subject, `${locale} ${name} subject`).not.toBe(english.subject);
      for (const sentence of englishSentences(english.subject)) expect(mail.subject).not.toContain(sentence);
      for (const sentence of englishSentences(english.text)) {
        expect(mail.text, `${locale} ${name}: "${sentence}"`).not.toContain(sentence);
        expect(mail.html, `${locale} ${name}: "${sentence}"`).not.toContain(sentence);
      }
      // The values are all there, links and names as they were sent.
      for (const value of [variables.resetUrl, variables.caseUrl, variables.trackingNo, variables.url]) {
        if (english.text.includes(value!)) expect(mail.text).toContain(value);
      }
      expect(mail.html).not.toMatch(/\{\w+\}/);
      expect(mail.text).not.toMatch(/\{\w+\}/);
    }
  });

  it('Chinese runs its sentences together, with no space after a full stop', () => {
    for (const name of templateNames) {
      const mail = renderTemplate(name, variablesIn('zh-CN'), 'zh-CN');
      expect(mail.text, name).not.toMatch(/[。：] /);
      expect(mail.html, name).not.toMatch(/[。：] /);
    }
  });

  it('dates are written by Intl in the reader’s locale and the sender’s time zone; English keeps the sender’s text', () => {
    expect(renderTemplate('secondStepLocked', variables, 'en').text).toContain(
      'locked until 2026-12-06 10:42 Europe/Berlin.',
    );
    const at = new Date(variables.lockedUntilAt!);
    for (const locale of translated) {
      const written = new Intl.DateTimeFormat(locale, {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone: 'Europe/Berlin',
      }).format(at);
      expect(renderTemplate('secondStepLocked', variables, locale).text, locale).toContain(written);
    }
    expect(renderTemplate('secondStepLocked', variables, 'de').text).toContain('06.12.2026, 10:42 (Europe/Berlin)');
  });

  it("tells a failed progress scan's reason in the reader's language, from its code and values", () => {
    const params = { arch: 'upper', found: 5, teeth: 14, needed: 8 };
    const failed = {
      ...variables,
      reason: renderServerMessage('progressScanDoesNotFit', params),
      reasonCode: 'progressScanDoesNotFit',
      reasonParams: JSON.stringify(params),
    };
    expect(renderTemplate('progressScanFailed', failed, 'en').text).toContain(`with the plan: ${failed.reason}.`);
    const german = renderTemplate('progressScanFailed', failed, 'de');
    expect(german.text).toContain(
      'Der Oberkiefer-Scan passt nicht zum Behandlungsplan: Der Scan passt nicht zum Oberkiefer dieses Plans: 5 seiner 14 Zähne',
    );
    expect(german.html).toContain('mindestens 8 sind nötig');
    for (const locale of translated) {
      expect(renderTemplate('progressScanFailed', failed, locale).text, locale).not.toContain(failed.reason);
    }
    // Stored before reasons had codes: the stored English, as it was.
    expect(renderTemplate('progressScanFailed', { ...variables, reason: 'the fit failed' }, 'de').text).toContain(
      'the fit failed',
    );
  });

  it('a mail queued before the counts and keys were sent keeps their English words, and says the rest in the language', () => {
    const { factorTotp, factorPasskeys, factorRecoveryCodes, changeKey, lockedUntilAt, ...older } = variables;
    void [factorTotp, factorPasskeys, factorRecoveryCodes, changeKey, lockedUntilAt];
    const mail = renderTemplate('accountChanged', older, 'fr');
    expect(mail.text).toContain(variables.factors);
    expect(mail.text).toContain('Bonjour Ann Lee,');
  });
});

describe('the reader’s language through the outbox to the SMTP peer', () => {
  let smtp: SmtpPeer;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${smtp.port}` });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  /** An encoded-word header (RFC 2047) as a reader sees it. */
  const decodeHeader = (value: string) =>
    value
      .replace(/\?=\s+=\?/g, '?==?')
      .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, encoding: string, text: string) =>
        encoding.toLowerCase() === 'b'
          ? Buffer.from(text, 'base64').toString('utf8')
          : Buffer.from(
              text
                .replace(/_/g, ' ')
                .replace(/=([0-9A-F]{2})/gi, (__, hex: string) => String.fromCharCode(parseInt(hex, 16))),
              'latin1',
            ).toString('utf8'),
      );
  const headerOf = (raw: string, name: string) => {
    const match = new RegExp(`^${name}:((?:.*)(?:\\r?\\n[ \\t].*)*)`, 'im').exec(raw);
    return match ? decodeHeader(match[1]!.replace(/\r?\n[ \t]/g, ' ').trim()) : undefined;
  };
  /** The peer's readable text undoes quoted-printable byte by byte: read those bytes as UTF-8. */
  const utf8Text = (text: string) =>
    [...text].some((char) => char.codePointAt(0)! > 0xff) ? text : Buffer.from(text, 'latin1').toString('utf8');
  const receivedBy = (email: string) =>
    smtp.received.filter((mail) => mail.to.some((to) => to.toLowerCase() === email.toLowerCase()));

  it('each template to a user of each language: its words, its subject and Content-Language; no account: English', async () => {
    const reader = await createStaff(t, []);
    const [account] = await t.app.db.select({ email: users.email }).from(users).where(eq(users.userId, reader.userId));
    for (const locale of supportedLocales) {
      await t.app.db.update(users).set({ locale }).where(eq(users.userId, reader.userId));
      for (const template of templateNames) {
        await t.app.outbox.enqueue(t.app.db, {
          to: account!.email,
          userId: reader.userId,
          template,
          variables: variablesIn(locale),
        });
      }
      await t.app.outbox.deliverDue();
      const mails = receivedBy(account!.email).slice(-templateNames.length);
      expect(mails).toHaveLength(templateNames.length);
      templateNames.forEach((template, index) => {
        const expected = renderTemplate(template, variablesIn(locale), locale);
        expect(headerOf(mails[index]!.raw, 'Content-Language'), `${locale} ${template}`).toBe(locale);
        expect(headerOf(mails[index]!.raw, 'Subject'), `${locale} ${template}`).toBe(expected.subject);
      });
    }
    // By the address alone (no account named): the account's language; an address no account has: English.
    await t.app.db.update(users).set({ locale: 'zh-CN' }).where(eq(users.userId, reader.userId));
    await t.app.outbox.enqueue(t.app.db, { to: account!.email.toUpperCase(), template: 'planShareLink', variables });
    await t.app.outbox.enqueue(t.app.db, { to: 'patient@example.test', template: 'planShareLink', variables });
    await t.app.outbox.deliverDue();
    const [byAddress] = receivedBy(account!.email).slice(-1);
    expect(headerOf(byAddress!.raw, 'Content-Language')).toBe('zh-CN');
    expect(headerOf(byAddress!.raw, 'Subject')).toBe('Ann Lee 与您分享了治疗方案');
    const [patient] = receivedBy('patient@example.test');
    expect(headerOf(patient!.raw, 'Content-Language')).toBe('en');
    expect(headerOf(patient!.raw, 'Subject')).toBe('Ann Lee shared your treatment plan');
  });

  it('the language is the one the mail was queued in: a change after it, or a mail queued before languages, keeps it', async () => {
    const reader = await createStaff(t, []);
    const [account] = await t.app.db.select({ email: users.email }).from(users).where(eq(users.userId, reader.userId));
    await t.app.db.update(users).set({ locale: 'ar' }).where(eq(users.userId, reader.userId));
    const mailId = await t.app.outbox.enqueue(t.app.db, {
      to: account!.email,
      userId: reader.userId,
      template: 'caseMessage',
      variables,
    });
    const [queued] = await t.app.db
      .select({ locale: mailOutbox.locale })
      .from(mailOutbox)
      .where(eq(mailOutbox.mailId, mailId));
    expect(queued!.locale).toBe('ar');
    await t.app.db.update(users).set({ locale: 'pl' }).where(eq(users.userId, reader.userId));
    await t.app.outbox.deliverDue();
    const [mail] = receivedBy(account!.email).slice(-1);
    expect(headerOf(mail!.raw, 'Content-Language')).toBe('ar');
    expect(headerOf(mail!.raw, 'Subject')).toBe('رسالة جديدة بشأن الحالة AP-1042');
  });

  it('a registration’s receipt comes in the language it chose, or its browser’s; a taken name’s answer too', async () => {
    const cityId = await firstCityOf(t);
    const clinicList = JSON.stringify([
      { clinicId: 0, clinicName: 'Smile Clinic', countryId: 1, cityId, contactNo: '123456', address: '1 Main St' },
    ]);
    const chosen = doctorFields({ clinicList, locale: 'fr' });
    const register = (fields: Record<string, string | number | boolean>, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: '/api/doctor/add', payload: formData(fields), headers });
    expect((await register(chosen)).statusCode).toBe(200);
    const byBrowser = doctorFields({ clinicList });
    expect((await register(byBrowser, { 'accept-language': 'es-MX,es;q=0.9,en;q=0.5' })).statusCode).toBe(200);
    // The same username again, from another address, in Polish: not made, and told so in Polish.
    const taken = { ...doctorFields({ clinicList, locale: 'pl' }), username: chosen.username };
    expect((await register(taken)).statusCode).toBe(200);
    await t.app.outbox.deliverDue();
    const [french] = receivedBy(String(chosen.email));
    expect(headerOf(french!.raw, 'Content-Language')).toBe('fr');
    expect(headerOf(french!.raw, 'Subject')).toBe('Votre inscription à Aligner Portal a bien été reçue');
    const [spanish] = receivedBy(String(byBrowser.email));
    expect(headerOf(spanish!.raw, 'Content-Language')).toBe('es');
    const [polish] = receivedBy(String(taken.email));
    expect(headerOf(polish!.raw, 'Content-Language')).toBe('pl');
    expect(headerOf(polish!.raw, 'Subject')).toBe('Rejestracja w Aligner Portal nie została ukończona');
  });

  it('the daily digest in its reader’s language, each item told by its own mail’s subject in that language', async () => {
    const doctor = await createCaseDoctor(t);
    const lab = await createStaff(t, [1]);
    await t.app.db.update(users).set({ locale: 'it' }).where(eq(users.userId, doctor.userId));
    const saved = await t.as(doctor.token, {
      method: 'PUT',
      url: '/api/account/mail-preferences',
      payload: { messages: 'digest', plans: 'digest', status: 'digest', progress: 'digest' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const submitted = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId)));
    expect(submitted.statusCode, submitted.body).toBe(200);
    const { CaseId, TrackingNo } = submitted.json<{ CaseId: number; TrackingNo: string }>();
    for (const status of ['inprogress', 'dispatched']) {
      const payload = status === 'dispatched' ? { status, courier: 'DHL', trackingNumber: 'JD1' } : { status };
      const moved = await t.as(lab.token, { method: 'PUT', url: `/api/case/status/${CaseId}`, payload });
      if (moved.statusCode !== 200) break; // dispatching may need an approved plan: one item is enough
    }
    const tomorrow = { now: new Date(Date.now() + 86_400_000), hourUtc: new Date().getUTCHours() };
    expect(await sendDueDigests({ db: t.app.db, outbox: t.app.outbox, publicUrl: t.config.publicUrl }, tomorrow)).toBe(
      1,
    );
    await t.app.outbox.deliverDue();
    const [digest] = receivedBy(doctor.email).filter((mail) => mail.raw.includes('Content-Language: it'));
    expect(digest).toBeDefined();
    expect(headerOf(digest!.raw, 'Subject')).toMatch(/^Il Suo riepilogo Aligner Portal: \d+ aggiornament[oi]$/);
    expect(utf8Text(digest!.text)).toContain(`- Caso ${TrackingNo}: nuovo stato «In lavorazione»`);
    expect(utf8Text(digest!.text)).toContain('Gentile ');
    expect(digest!.text).not.toContain('What happened on your cases');
  });

  it('a forgotten password, asked for on the sign-in page, comes in the account’s language', async () => {
    const reader = await createStaff(t, []);
    await t.app.db.update(users).set({ locale: 'de' }).where(eq(users.userId, reader.userId));
    const [account] = await t.app.db.select({ email: users.email }).from(users).where(eq(users.userId, reader.userId));
    const asked = await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot_password',
      payload: { username: reader.username },
    });
    expect(asked.statusCode).toBeLessThan(300);
    // The lookup runs after the answer (docs/decisions/accounts.md § Forgot password): wait for the mail.
    await expect
      .poll(async () => {
        await t.app.outbox.deliverDue();
        return receivedBy(account!.email).length;
      })
      .toBeGreaterThan(0);
    const [mail] = receivedBy(account!.email).slice(-1);
    expect(headerOf(mail!.raw, 'Content-Language')).toBe('de');
    expect(headerOf(mail!.raw, 'Subject')).toBe('Neues Passwort für das Aligner Portal festlegen');
    expect(utf8Text(mail!.text)).toContain('Guten Tag Sam Staff,');
    expect(utf8Text(mail!.text)).toContain(`(Benutzername ${reader.username})`);
  });
});
