import type { MessageDescriptor } from '@lingui/core';
import { caseStatusLabels, defaultLocale, type Locale } from '@portal/contract';
import { i18nFor } from '../i18n/index.ts';
import type { EmailTemplateName } from './mailer.ts';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

type Variables = Record<string, string>;
type Values = Record<string, string | number>;

/** Mail greets a person by their name; a mail queued before names were sent carries only the username. */
const nameOf = (v: Variables) => v.name || v.username || '';

/** The sign-in screen beside the reset page: the reset link is `{PUBLIC_URL}/reset-password?token=`. */
function signInUrlOf(resetUrl: string): string {
  try {
    return new URL('.', resetUrl).href;
  } catch {
    return '';
  }
}

/*
 * Every word of a mail is a message of the server's catalog (apps/server/src/locales, i18n/index.ts),
 * written as a descriptor with an explicit id that `lingui extract` finds by its /*i18n*\/ mark.
 * English is the spec's words, byte for byte (docs/decisions/languages.md § Mails and the server's messages).
 */
const common = {
  greeting: /*i18n*/ { id: 'mail.greeting', message: 'Dear {name},' },
  hello: /*i18n*/ { id: 'mail.hello', message: 'Hello,' },
  signature: /*i18n*/ { id: 'mail.signature', message: 'Aligner Portal' },
  openCase: /*i18n*/ { id: 'mail.openCase', message: 'Open the case' },
  thenSignIn: /*i18n*/ { id: 'mail.thenSignIn', message: 'Then sign in:' },
  oneHour: /*i18n*/ { id: 'mail.validFor.oneHour', message: 'one hour' },
  days: /*i18n*/ { id: 'mail.validFor.days', message: '{days, plural, one {# day} other {# days}}' },
  ignoreIfNotAsked: /*i18n*/ {
    id: 'mail.ignoreIfNotAsked',
    message: 'If you did not ask for one, you can ignore this e-mail: your password stays as it is.',
  },
} as const;

/** A case's status as the mail names it (the contract's labels are its English). */
const statusWords = {
  new: /*i18n*/ { id: 'mail.caseStatus.status.new', message: 'New' },
  inprogress: /*i18n*/ { id: 'mail.caseStatus.status.inprogress', message: 'In Progress' },
  dispatched: /*i18n*/ { id: 'mail.caseStatus.status.dispatched', message: 'Dispatched' },
  delivered: /*i18n*/ { id: 'mail.caseStatus.status.delivered', message: 'Delivered' },
} as const satisfies Record<keyof typeof caseStatusLabels, MessageDescriptor>;

/** The second-factor changes of services/second-factor/factor-mail.ts, by the key the mail carries. */
const factorChangeWords: Record<string, MessageDescriptor> = {
  totpAdded: /*i18n*/ {
    id: 'mail.secondFactorChanged.totpAdded',
    message: 'An authenticator app was added to your Aligner Portal account as a second factor.',
  },
  passkeyAdded: /*i18n*/ {
    id: 'mail.secondFactorChanged.passkeyAdded',
    message:
      'A passkey was added to your Aligner Portal account. A passkey signs in on its own, without your password.',
  },
  totpRemoved: /*i18n*/ {
    id: 'mail.secondFactorChanged.totpRemoved',
    message: 'The authenticator app was removed from your Aligner Portal account.',
  },
  passkeyRemoved: /*i18n*/ {
    id: 'mail.secondFactorChanged.passkeyRemoved',
    message: 'A passkey was removed from your Aligner Portal account.',
  },
  recoveryCodes: /*i18n*/ {
    id: 'mail.secondFactorChanged.recoveryCodes',
    message: 'New recovery codes were made for your Aligner Portal account; the earlier ones no longer work.',
  },
};

const factorWords = {
  none: /*i18n*/ { id: 'mail.factors.none', message: 'Your account has no second factor now.' },
  list: /*i18n*/ { id: 'mail.factors.list', message: 'Second factors on your account now: {listed}.' },
  totp: /*i18n*/ { id: 'mail.factors.totp', message: 'an authenticator app' },
  passkeys: /*i18n*/ { id: 'mail.factors.passkeys', message: '{count, plural, one {# passkey} other {# passkeys}}' },
  recoveryCodes: /*i18n*/ {
    id: 'mail.factors.recoveryCodes',
    message: '{count, plural, one {# recovery code} other {# recovery codes}}',
  },
} as const;

const progressWords = {
  allOnTrack: /*i18n*/ { id: 'mail.progress.allOnTrack', message: 'All {total} teeth on track' },
  allOffTrack: /*i18n*/ { id: 'mail.progress.allOffTrack', message: '{off} of {total} teeth off track: {named}' },
  someOffTrack: /*i18n*/ {
    id: 'mail.progress.someOffTrack',
    message: '{off} of {total} teeth off track: {named}; the rest on track',
  },
} as const;

/** How a mail in a language says the words and values its variables carry. */
interface Say {
  locale: Locale;
  /** A message with its values as they are (the text part, the subject). */
  t(descriptor: MessageDescriptor, values?: Values): string;
  /** A message for the HTML part: values escaped, `markup` values as given (already HTML). */
  h(descriptor: MessageDescriptor, values?: Values, markup?: Record<string, string>): string;
  /** What goes between two sentences: a space, none in Chinese. */
  gap: string;
  /** A count for a message: English keeps the variable's text; another language gets the number, for its plurals (`#` is written by Intl). */
  n(value: string | undefined): string | number;
}

function sayIn(locale: Locale): Say {
  const catalog = i18nFor(locale);
  return {
    locale,
    gap: locale === 'zh-CN' ? '' : ' ',
    t: (descriptor, values) => catalog._({ ...descriptor, values }),
    h: (descriptor, values = {}, markup = {}) =>
      catalog._({
        ...descriptor,
        values: {
          ...Object.fromEntries(
            Object.entries(values).map(([key, value]) => [key, typeof value === 'string' ? escapeHtml(value) : value]),
          ),
          ...markup,
        },
      }),
    n: (value) => (locale === defaultLocale || !/^\d+$/.test(value ?? '') ? `${value}` : Number(value)),
  };
}

const isEnglish = (say: Say) => say.locale === defaultLocale;

/**
 * A time a mail tells: English keeps the words the sender wrote (`text`, e.g. "2026-12-05 10:42
 * UTC"); another language writes the instant (`iso`) through Intl in the reader's locale and the
 * sender's time zone. A mail queued before the instant was sent keeps the text.
 */
function timeIn(say: Say, text: string | undefined, iso: string | undefined, timeZone: string | undefined): string {
  const at = iso ? new Date(iso) : undefined;
  if (isEnglish(say) || !at || Number.isNaN(at.getTime())) return `${text}`;
  try {
    return new Intl.DateTimeFormat(say.locale, {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: timeZone || 'UTC',
    })
      .format(at)
      .concat(` (${timeZone || 'UTC'})`);
  } catch {
    return `${text}`;
  }
}

/** How long a link opens, as services/password-reset.ts's linkLifetimeWords say it in English. */
function validForIn(say: Say, words: string): string {
  if (isEnglish(say)) return words;
  if (words === 'one hour') return say.t(common.oneHour);
  const days = /^(\d+) days?$/.exec(words);
  return days ? say.t(common.days, { days: Number(days[1]) }) : words;
}

/** What changed on the account (services/accounts.ts's notice): a select key for the messages. */
const changedKey = (changed: string | undefined) =>
  ({ password: 'password', 'e-mail address': 'email', 'password and e-mail address': 'both' })[changed ?? ''] ??
  'other';

/** The second factors left (password-reset.ts's mail): the sentence in the reader's language, from the counts. */
function factorsIn(say: Say, v: Variables): string {
  if (isEnglish(say) || v.factorTotp === undefined) return v.factors ?? '';
  const passkeys = Number(v.factorPasskeys || 0);
  const codes = Number(v.factorRecoveryCodes || 0);
  const parts = [
    ...(v.factorTotp === 'yes' ? [say.t(factorWords.totp)] : []),
    ...(passkeys > 0 ? [say.t(factorWords.passkeys, { count: passkeys })] : []),
  ];
  if (parts.length === 0) return say.t(factorWords.none);
  if (codes > 0) parts.push(say.t(factorWords.recoveryCodes, { count: codes }));
  return say.t(factorWords.list, { listed: new Intl.ListFormat(say.locale, { type: 'conjunction' }).format(parts) });
}

/** The device a change came from (lib/device-label.ts): "Chrome 120 on Windows", or "Unknown device". */
const deviceWords = {
  unknown: /*i18n*/ { id: 'mail.device.unknown', message: 'Unknown device' },
  on: /*i18n*/ { id: 'mail.device.on', message: '{browser} on {os}' },
} as const;
function deviceIn(say: Say, device: string | undefined): string {
  if (isEnglish(say) || !device) return `${device}`;
  if (device === 'Unknown device') return say.t(deviceWords.unknown);
  const at = device.lastIndexOf(' on ');
  return at > 0 ? say.t(deviceWords.on, { browser: device.slice(0, at), os: device.slice(at + 4) }) : device;
}

/** A case status's label (caseStatusLabels) in the reader's language. */
function statusIn(say: Say, label: string | undefined): string {
  const key = (Object.keys(caseStatusLabels) as (keyof typeof caseStatusLabels)[]).find(
    (status) => caseStatusLabels[status] === label,
  );
  return isEnglish(say) || !key ? `${label}` : say.t(statusWords[key]);
}

/** A progress scan's summary (the contract's summarizeProgress) from its counts; English keeps the sentence. */
function summaryIn(say: Say, v: Variables): string {
  if (isEnglish(say) || v.teethTotal === undefined) return `${v.summary}`;
  const total = Number(v.teethTotal);
  const off = Number(v.teethOffTrack || 0);
  const values = { total, off, named: v.offTrackTeeth ?? '' };
  if (off === 0) return say.t(progressWords.allOnTrack, values);
  return say.t(off === total ? progressWords.allOffTrack : progressWords.someOffTrack, values);
}

/**
 * Why a progress scan failed: English keeps the stored sentence; another language puts it
 * together from its code's template (the contract's `serverMessages`, in the server's catalogs
 * as `server.<code>`) and values, each word among them (an arch) translated too.
 */
function reasonIn(say: Say, v: Variables): string {
  const id = `server.${v.reasonCode}`;
  const { messages } = i18nFor(say.locale);
  if (isEnglish(say) || !v.reasonCode || !messages[id]) return `${v.reason}`;
  const params = JSON.parse(v.reasonParams ?? '{}') as Record<string, string | number>;
  // A word the catalogs hold ('upper') in the reader's language; any other value as it came.
  const words = Object.fromEntries(
    Object.entries(params).map(([name, value]) => [
      name,
      typeof value === 'string' && messages[value] ? say.t({ id: value }) : value,
    ]),
  );
  return say.t({ id }, words);
}

const templates: Record<EmailTemplateName, (v: Variables, say: Say) => RenderedMail> = {
  // Active first, with the password chosen at registration; the reset link only for a new one (docs/decisions/accounts.md § The activation mail).
  activation: (v, { t, h }) => {
    const m = {
      subject: /*i18n*/ { id: 'mail.activation.subject', message: 'Your Aligner Portal account is active' },
      activated: /*i18n*/ {
        id: 'mail.activation.activated',
        message: 'Your account has been activated. Sign in with the password you chose when you registered:',
      },
      signIn: /*i18n*/ { id: 'mail.activation.signIn', message: 'Sign in to Aligner Portal' },
      newPassword: /*i18n*/ {
        id: 'mail.activation.newPassword',
        message: 'To set a new password instead, use this link (valid for one hour):',
      },
    };
    const signInUrl = signInUrlOf(v.resetUrl ?? '');
    const name = nameOf(v);
    return {
      subject: t(m.subject),
      text: `${t(common.greeting, { name })}\n\n${t(m.activated)}\n${signInUrl}\n\n${t(m.newPassword)}\n${v.resetUrl}\n\n${t(common.signature)}`,
      html: `<p>${h(common.greeting, { name })}</p><p>${h(m.activated)}</p><p><a href="${escapeHtml(signInUrl)}">${h(m.signIn)}</a></p><p>${h(m.newPassword)}</p><p><a href="${escapeHtml(v.resetUrl ?? '')}">${escapeHtml(v.resetUrl ?? '')}</a></p><p>${h(common.signature)}</p>`,
    };
  },
  // To an assistant a doctor invited, new or already one of another doctor's: the reset link
  // sets a new account's password (docs/decisions/assistants.md § Assistants).
  assistantInvitation: (v, say) => {
    const { t, h, gap } = say;
    const m = {
      subject: /*i18n*/ {
        id: 'mail.assistantInvitation.subject',
        message: '{doctorName} added you as an assistant on Aligner Portal',
      },
      added: /*i18n*/ {
        id: 'mail.assistantInvitation.added',
        message:
          '{doctorName} added you as their assistant on Aligner Portal: you can submit and follow their cases. Your username is this e-mail address.',
      },
      setPassword: /*i18n*/ {
        id: 'mail.assistantInvitation.setPassword',
        message: 'To set your password (a new account needs one), use this link (valid for {validFor}):',
      },
    };
    const signInUrl = signInUrlOf(v.resetUrl ?? '');
    const name = nameOf(v);
    // eslint-disable-next-line lingui/no-unlocalized-strings -- the senders' English value, worded by validForIn
    const validFor = validForIn(say, v.validFor || 'one hour');
    return {
      subject: t(m.subject, { doctorName: `${v.doctorName}` }),
      text: `${t(common.greeting, { name })}\n\n${t(m.added, { doctorName: `${v.doctorName}` })}\n\n${t(m.setPassword, { validFor })}\n${v.resetUrl}\n\n${t(common.thenSignIn)}\n${signInUrl}\n\n${t(common.signature)}`,
      html: `<p>${h(common.greeting, { name })}</p><p>${h(m.added, { doctorName: v.doctorName ?? '' })}</p><p>${h(m.setPassword, { validFor })}</p><p><a href="${escapeHtml(v.resetUrl ?? '')}">${escapeHtml(v.resetUrl ?? '')}</a></p><p>${h(common.thenSignIn)}${gap}<a href="${escapeHtml(signInUrl)}">${h(common.signature)}</a></p><p>${h(common.signature)}</p>`,
    };
  },
  // To the address the account had, after its password or e-mail changed by any means (own
  // change, reset link, the administrator): what changed, nothing secret.
  // After a reset through a mailed link, `factors` tells which second factors still sign in
  // (a factor someone else added would outlive the new password).
  accountChanged: (v, say) => {
    const { t, h } = say;
    const m = {
      subject: /*i18n*/ {
        id: 'mail.accountChanged.subject',
        message:
          'Your Aligner Portal {changed, select, password {password} email {e-mail address} both {password and e-mail address} other {{words}}} was changed',
      },
      changed: /*i18n*/ {
        id: 'mail.accountChanged.changed',
        message:
          'The {changed, select, password {password} email {e-mail address} both {password and e-mail address} other {{words}}} of your Aligner Portal account was just changed. If you did this, or asked the lab to, nothing more is needed. If you did not, contact the lab at once: someone may be using your account.',
      },
      factors: /*i18n*/ {
        id: 'mail.accountChanged.factors',
        message:
          '{factors} If one of them is not yours, sign in and remove it on your Security page, or ask the lab to reset your second factor.',
      },
    };
    const changed = { changed: changedKey(v.changed), words: `${v.changed}` };
    const factors = v.factors ? t(m.factors, { factors: factorsIn(say, v) }) : '';
    const name = nameOf(v);
    return {
      subject: t(m.subject, changed),
      text: `${t(common.greeting, { name })}\n\n${t(m.changed, changed)}\n\n${factors ? `${factors}\n\n` : ''}${t(common.signature)}`,
      html: `<p>${h(common.greeting, { name })}</p><p>${h(m.changed, { ...changed, words: v.changed ?? '' })}</p>${factors ? `<p>${escapeHtml(factors)}</p>` : ''}<p>${h(common.signature)}</p>`,
    };
  },
  // To the owner once, when the second step locks after too many wrong answers: whoever gave
  // them got past the password, so the password is known (docs/decisions/second-step-lock-and-enrolment.md).
  secondStepLocked: (v, say) => {
    const { t, h, n, gap } = say;
    const m = {
      subject: /*i18n*/ {
        id: 'mail.secondStepLocked.subject',
        message: 'Someone who knows your Aligner Portal password was stopped',
      },
      locked: /*i18n*/ {
        id: 'mail.secondStepLocked.locked',
        message:
          'Someone signed in to your Aligner Portal account with the right password, then gave {failures} wrong codes for your second factor. The second step of signing in to your account is locked until {lockedUntil}.',
      },
      notYou: /*i18n*/ {
        id: 'mail.secondStepLocked.notYou',
        message: 'If this was not you, someone knows your password:',
      },
      changeIt: /*i18n*/ {
        id: 'mail.secondStepLocked.changeIt',
        message:
          'change it as soon as you can (sign in after the lock ends, or ask the lab for a link to set a new one). Your second factor kept them out.',
      },
      wasYou: /*i18n*/ {
        id: 'mail.secondStepLocked.wasYou',
        message:
          'If it was you, sign in again after {lockedUntil}, or ask the administrator to reset your second factor.',
      },
    };
    const lockedUntil = timeIn(say, v.lockedUntil, v.lockedUntilAt, v.timeZone);
    const locked = { failures: n(v.failures), lockedUntil };
    const name = nameOf(v);
    return {
      subject: t(m.subject),
      text: `${t(common.greeting, { name })}\n\n${t(m.locked, locked)}\n\n${t(m.notYou)}${gap}${t(m.changeIt)}\n\n${t(m.wasYou, { lockedUntil })}\n\n${t(common.signature)}`,
      html: `<p>${h(common.greeting, { name })}</p><p>${h(m.locked, { failures: v.failures === undefined ? '' : locked.failures, lockedUntil: v.lockedUntil === undefined ? '' : lockedUntil })}</p><p><b>${h(m.notYou)}</b>${gap}${h(m.changeIt)}</p><p>${h(m.wasYou, { lockedUntil: v.lockedUntil === undefined ? '' : lockedUntil })}</p><p>${h(common.signature)}</p>`,
    };
  },
  // To the owner at every change of their second factors (docs/decisions/second-factor-changes.md):
  // what changed, when, from which device and address, and what to do if it was not them.
  secondFactorChanged: (v, say) => {
    const { t, h } = say;
    const m = {
      subject: /*i18n*/ {
        id: 'mail.secondFactorChanged.subject',
        message: 'Your Aligner Portal second factor was changed',
      },
      when: /*i18n*/ { id: 'mail.secondFactorChanged.when', message: 'When: {when}' },
      device: /*i18n*/ { id: 'mail.secondFactorChanged.device', message: 'Device: {device}' },
      address: /*i18n*/ { id: 'mail.secondFactorChanged.address', message: 'Address: {address}' },
      notYou: /*i18n*/ {
        id: 'mail.secondFactorChanged.notYou',
        message:
          'If this was not you, someone has your session: set a new password now (ask the lab for a reset link if you cannot sign in) and ask the lab to reset your second factor.',
      },
    };
    const changeWords = v.changeKey ? factorChangeWords[v.changeKey] : undefined;
    const change = isEnglish(say) || !changeWords ? `${v.change}` : t(changeWords);
    const facts = [
      t(m.when, { when: timeIn(say, v.when, v.at, 'UTC') }),
      t(m.device, { device: deviceIn(say, v.device) }),
      t(m.address, { address: `${v.address}` }),
    ];
    const notYou = t(m.notYou);
    const name = nameOf(v);
    return {
      subject: t(m.subject),
      text: `${t(common.greeting, { name })}\n\n${change}\n\n${facts.join('\n')}\n\n${notYou}\n\n${t(common.signature)}`,
      html: `<p>${h(common.greeting, { name })}</p><p>${escapeHtml(v.change === undefined ? '' : change)}</p><p>${facts.map(escapeHtml).join('<br>')}</p><p>${escapeHtml(notYou)}</p><p>${h(common.signature)}</p>`,
    };
  },
  // The lab removed every factor of the account (an audited action of the Users page).
  secondFactorReset: (v, { t, h, gap }) => {
    const m = {
      subject: /*i18n*/ {
        id: 'mail.secondFactorReset.subject',
        message: 'Your Aligner Portal second factor was reset',
      },
      reset: /*i18n*/ {
        id: 'mail.secondFactorReset.reset',
        message:
          'The lab reset the second factor of your Aligner Portal account: your authenticator app, passkeys and recovery codes were removed, and you were signed out everywhere.',
      },
      mustEnrol: /*i18n*/ {
        id: 'mail.secondFactorReset.mustEnrol',
        message: 'At your next sign-in you will be asked to set up a second factor again.',
      },
      mayEnrol: /*i18n*/ {
        id: 'mail.secondFactorReset.mayEnrol',
        message: 'You can set up a second factor again on your Security page.',
      },
      notAsked: /*i18n*/ {
        id: 'mail.secondFactorReset.notAsked',
        message: 'If you did not ask for this, contact the lab at once.',
      },
    };
    const next = v.mustEnrol === 'yes' ? t(m.mustEnrol) : t(m.mayEnrol);
    const body = [t(m.reset), next, t(m.notAsked)].join(gap);
    const name = nameOf(v);
    return {
      subject: t(m.subject),
      text: `${t(common.greeting, { name })}\n\n${body}\n\n${t(common.signature)}`,
      html: `<p>${h(common.greeting, { name })}</p><p>${escapeHtml(body)}</p><p>${h(common.signature)}</p>`,
    };
  },
  // Only ever to the account's own address: staff ask for it, they never see the link.
  passwordReset: (v, { t, h }) => {
    const m = {
      subject: /*i18n*/ { id: 'mail.passwordReset.subject', message: 'Set a new Aligner Portal password' },
      link: /*i18n*/ {
        id: 'mail.passwordReset.link',
        message:
          'The lab has sent you a link to set a new password for your Aligner Portal account (valid for one hour):',
      },
    };
    const name = nameOf(v);
    return {
      subject: t(m.subject),
      text: `${t(common.greeting, { name })}\n\n${t(m.link)}\n${v.resetUrl}\n\n${t(common.ignoreIfNotAsked)}\n\n${t(common.signature)}`,
      html: `<p>${h(common.greeting, { name })}</p><p>${h(m.link)}</p><p><a href="${escapeHtml(v.resetUrl ?? '')}">${escapeHtml(v.resetUrl ?? '')}</a></p><p>${h(common.ignoreIfNotAsked)}</p><p>${h(common.signature)}</p>`,
    };
  },
  // To lab staff the Users screen added without a password: they set their own through the
  // invitation link (docs/decisions/accounts.md § Lab staff invited by e-mail).
  staffInvitation: (v, say) => {
    const { t, h, gap } = say;
    const m = {
      subject: /*i18n*/ { id: 'mail.staffInvitation.subject', message: 'You are invited to Aligner Portal' },
      added: /*i18n*/ {
        id: 'mail.staffInvitation.added',
        message: "{inviterName} added you to the lab's Aligner Portal. Your username is {username}.",
      },
      setPassword: /*i18n*/ {
        id: 'mail.staffInvitation.setPassword',
        message: 'To set your password, use this link (valid for {validFor}):',
      },
    };
    const signInUrl = signInUrlOf(v.resetUrl ?? '');
    const name = nameOf(v);
    const validFor = validForIn(say, `${v.validFor}`);
    return {
      subject: t(m.subject),
      text: `${t(common.greeting, { name })}\n\n${t(m.added, { inviterName: `${v.inviterName}`, username: `${v.username}` })}\n\n${t(m.setPassword, { validFor })}\n${v.resetUrl}\n\n${t(common.thenSignIn)}\n${signInUrl}\n\n${t(common.signature)}`,
      html: `<p>${h(common.greeting, { name })}</p><p>${h(m.added, { inviterName: v.inviterName ?? '', username: v.username ?? '' })}</p><p>${h(m.setPassword, { validFor: v.validFor === undefined ? '' : validFor })}</p><p><a href="${escapeHtml(v.resetUrl ?? '')}">${escapeHtml(v.resetUrl ?? '')}</a></p><p>${h(common.thenSignIn)}${gap}<a href="${escapeHtml(signInUrl)}">${h(common.signature)}</a></p><p>${h(common.signature)}</p>`,
    };
  },
  // Asked for on the sign-in page ("Forgot password?"): names the username, as one address may
  // hold several accounts (docs/decisions/accounts.md § Forgot password).
  passwordForgotten: (v, { t, h, gap }) => {
    const m = {
      subject: /*i18n*/ { id: 'mail.passwordReset.subject', message: 'Set a new Aligner Portal password' },
      asked: /*i18n*/ {
        id: 'mail.passwordForgotten.asked',
        message:
          'Someone asked on the sign-in page for a new password for your Aligner Portal account (username {username}). To set one, use this link (valid for one hour):',
      },
      secondFactor: /*i18n*/ {
        id: 'mail.passwordForgotten.secondFactor',
        message: 'A second factor you set up is still asked for when you sign in.',
      },
    };
    const name = nameOf(v);
    return {
      subject: t(m.subject),
      text: `${t(common.greeting, { name })}\n\n${t(m.asked, { username: `${v.username}` })}\n${v.resetUrl}\n\n${t(common.ignoreIfNotAsked)}${gap}${t(m.secondFactor)}\n\n${t(common.signature)}`,
      html: `<p>${h(common.greeting, { name })}</p><p>${h(m.asked, { username: v.username ?? '' })}</p><p><a href="${escapeHtml(v.resetUrl ?? '')}">${escapeHtml(v.resetUrl ?? '')}</a></p><p>${h(common.ignoreIfNotAsked)}${gap}${h(m.secondFactor)}</p><p>${h(common.signature)}</p>`,
    };
  },
  // Registration answers the same whether the username was free or taken; the outcome comes by
  // e-mail (docs/decisions/accounts.md § Registration tells nothing about usernames).
  registrationReceived: (v, { t, h }) => {
    const m = {
      subject: /*i18n*/ {
        id: 'mail.registrationReceived.subject',
        message: 'Your Aligner Portal registration was received',
      },
      received: /*i18n*/ {
        id: 'mail.registrationReceived.received',
        message:
          'We received your registration with the username {username}. The lab reviews it, and you will get another e-mail when your account is active.',
      },
    };
    return {
      subject: t(m.subject),
      text: `${t(common.greeting, { name: `${v.name}` })}\n\n${t(m.received, { username: `${v.username}` })}\n\n${t(common.signature)}`,
      html: `<p>${h(common.greeting, { name: v.name ?? '' })}</p><p>${h(m.received, { username: v.username ?? '' })}</p><p>${h(common.signature)}</p>`,
    };
  },
  registrationNotCompleted: (v, { t, h }) => {
    const m = {
      subject: /*i18n*/ {
        id: 'mail.registrationNotCompleted.subject',
        message: 'Your Aligner Portal registration was not completed',
      },
      taken: /*i18n*/ {
        id: 'mail.registrationNotCompleted.taken',
        message:
          'The username {username} is not available, so no account was made. Please register again with another username. If this username is already yours, sign in with it, or ask the lab for a link to set a new password.',
      },
    };
    return {
      subject: t(m.subject),
      text: `${t(common.greeting, { name: `${v.name}` })}\n\n${t(m.taken, { username: `${v.username}` })}\n\n${t(common.signature)}`,
      html: `<p>${h(common.greeting, { name: v.name ?? '' })}</p><p>${h(m.taken, { username: v.username ?? '' })}</p><p>${h(common.signature)}</p>`,
    };
  },
  usernameRegistrationAttempt: (v, { t, h }) => {
    const m = {
      subject: /*i18n*/ {
        id: 'mail.usernameRegistrationAttempt.subject',
        message: 'Someone tried to register your Aligner Portal username',
      },
      tried: /*i18n*/ {
        id: 'mail.usernameRegistrationAttempt.tried',
        message:
          'Someone just tried to register a new Aligner Portal account with your username, {username}. No account was made and yours is unchanged. If it was you, sign in with your password as usual; otherwise nothing is needed.',
      },
    };
    const name = nameOf(v);
    return {
      subject: t(m.subject),
      text: `${t(common.greeting, { name })}\n\n${t(m.tried, { username: `${v.username}` })}\n\n${t(common.signature)}`,
      html: `<p>${h(common.greeting, { name })}</p><p>${h(m.tried, { username: v.username ?? '' })}</p><p>${h(common.signature)}</p>`,
    };
  },
  // A dispatched case's mail names the courier and its tracking number, so the doctor can follow the parcel.
  caseStatus: (v, say) => {
    const { t, h } = say;
    const m = {
      subject: /*i18n*/ { id: 'mail.caseStatus.subject', message: 'Case {trackingNo} is now {status}' },
      changed: /*i18n*/ {
        id: 'mail.caseStatus.changed',
        message: 'The status of case {trackingNo} changed to {status}.',
      },
      courier: /*i18n*/ { id: 'mail.caseStatus.courier', message: 'Courier: {courier}' },
      trackingNumber: /*i18n*/ { id: 'mail.caseStatus.trackingNumber', message: 'Tracking number: {number}' },
    };
    const status = statusIn(say, v.status);
    const shipment = v.courier
      ? [t(m.courier, { courier: v.courier }), t(m.trackingNumber, { number: v.courierTrackingNumber ?? '' })]
      : [];
    return {
      subject: t(m.subject, { trackingNo: `${v.trackingNo}`, status }),
      text: `${t(common.greeting, { name: `${v.doctorName}` })}\n\n${t(m.changed, { trackingNo: `${v.trackingNo}`, status })}\n${shipment.map((line) => `${line}\n`).join('')}${v.caseUrl}\n\n${t(common.signature)}`,
      html: `<p>${h(common.greeting, { name: v.doctorName ?? '' })}</p><p>${h(m.changed, { trackingNo: v.trackingNo ?? '' }, { status: `<b>${escapeHtml(v.status === undefined ? '' : status)}</b>` })}</p>${shipment.length > 0 ? `<p>${shipment.map(escapeHtml).join('<br>')}</p>` : ''}<p><a href="${escapeHtml(v.caseUrl ?? '')}">${h(common.openCase)}</a></p><p>${h(common.signature)}</p>`,
    };
  },
  // To the lab's staff: the tracking number, the doctor and the link, no patient data (docs/decisions/mail.md § Mail for the lab).
  caseSubmitted: (v, { t, h }) => {
    const m = {
      subject: /*i18n*/ { id: 'mail.caseSubmitted.subject', message: 'New case {trackingNo} from {doctorName}' },
      waiting: /*i18n*/ {
        id: 'mail.caseSubmitted.waiting',
        message: '{doctorName} has a new case, {trackingNo}, waiting for the lab.',
      },
    };
    const name = nameOf(v);
    const values = { trackingNo: `${v.trackingNo}`, doctorName: `${v.doctorName}` };
    return {
      subject: t(m.subject, values),
      text: `${t(common.greeting, { name })}\n\n${t(m.waiting, values)}\n${v.caseUrl}\n\n${t(common.signature)}`,
      html: `<p>${h(common.greeting, { name })}</p><p>${h(m.waiting, { trackingNo: v.trackingNo ?? '', doctorName: v.doctorName ?? '' })}</p><p><a href="${escapeHtml(v.caseUrl ?? '')}">${h(common.openCase)}</a></p><p>${h(common.signature)}</p>`,
    };
  },
  // Only the tracking number and the link: no message text or patient name in e-mail (docs/decisions/messages.md § Messages).
  caseMessage: (v, { t, h }) => {
    const m = {
      subject: /*i18n*/ { id: 'mail.caseMessage.subject', message: 'New message about case {trackingNo}' },
      newMessage: /*i18n*/ {
        id: 'mail.caseMessage.newMessage',
        message: 'You have a new message about case {trackingNo}.',
      },
    };
    return {
      subject: t(m.subject, { trackingNo: `${v.trackingNo}` }),
      text: `${t(m.newMessage, { trackingNo: `${v.trackingNo}` })}\n${v.caseUrl}\n\n${t(common.signature)}`,
      html: `<p>${h(m.newMessage, { trackingNo: v.trackingNo ?? '' })}</p><p><a href="${escapeHtml(v.caseUrl ?? '')}">${h(common.openCase)}</a></p><p>${h(common.signature)}</p>`,
    };
  },
  // The day's case mails of the kinds the user chose as a digest, each told by its own mail's subject (docs/decisions/mail.md § E-mail preferences).
  digest: (v, { t, h, n }) => {
    const m = {
      subject: /*i18n*/ { id: 'mail.digest.subject', message: 'Your Aligner Portal digest: {count} updates' },
      since: /*i18n*/ { id: 'mail.digest.since', message: 'What happened on your cases since your last digest:' },
      more: /*i18n*/ { id: 'mail.digest.more', message: 'And {more} more in the portal.' },
      inbox: /*i18n*/ { id: 'mail.digest.inbox', message: 'Your inbox: {inboxUrl}' },
      openInbox: /*i18n*/ { id: 'mail.digest.openInbox', message: 'Open your inbox' },
    };
    const lines = (v.items ?? '').split('\n').filter(Boolean);
    const more = Number(v.more) > 0 ? t(m.more, { more: n(v.more) }) : '';
    const name = nameOf(v);
    return {
      subject: t(m.subject, { count: lines.length + Number(v.more || 0) }),
      text: `${t(common.greeting, { name })}\n\n${t(m.since)}\n${lines.map((line) => `- ${line}\n`).join('')}${more ? `${more}\n` : ''}\n${t(m.inbox, { inboxUrl: `${v.inboxUrl}` })}\n\n${t(common.signature)}`,
      html: `<p>${h(common.greeting, { name })}</p><p>${h(m.since)}</p><ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>${more ? `<p>${escapeHtml(more)}</p>` : ''}<p><a href="${escapeHtml(v.inboxUrl ?? '')}">${h(m.openInbox)}</a></p><p>${h(common.signature)}</p>`,
    };
  },
  // To the address a doctor typed for their patient: the link and how long it opens, nothing of the case
  // (docs/decisions/plans.md § Patient links by e-mail and QR code).
  planShareLink: (v, { t, h, n }) => {
    const m = {
      subject: /*i18n*/ { id: 'mail.planShareLink.subject', message: '{doctorName} shared your treatment plan' },
      shared: /*i18n*/ {
        id: 'mail.planShareLink.shared',
        message:
          '{doctorName} shared your aligner treatment plan with you. Open this link to see it in 3D, stage by stage (open for {days} days):',
      },
      personal: /*i18n*/ {
        id: 'mail.planShareLink.personal',
        message: 'The link is personal: please do not forward it.',
      },
    };
    return {
      subject: t(m.subject, { doctorName: `${v.doctorName}` }),
      text: `${t(common.hello)}\n\n${t(m.shared, { doctorName: `${v.doctorName}`, days: n(v.days) })}\n${v.url}\n\n${t(m.personal)}\n\n${t(common.signature)}`,
      html: `<p>${h(common.hello)}</p><p>${h(m.shared, { doctorName: v.doctorName ?? '', days: v.days === undefined ? '' : n(v.days) })}</p><p><a href="${escapeHtml(v.url ?? '')}">${escapeHtml(v.url ?? '')}</a></p><p>${h(m.personal)}</p><p>${h(common.signature)}</p>`,
    };
  },
  planReady: (v, { t, h, n }) => {
    const m = {
      subject: /*i18n*/ {
        id: 'mail.planReady.subject',
        message: 'A treatment plan is ready for your review (case {trackingNo})',
      },
      ready: /*i18n*/ {
        id: 'mail.planReady.ready',
        message: 'A treatment plan is ready for your review: version {version} of case {trackingNo}.',
      },
    };
    return {
      subject: t(m.subject, { trackingNo: `${v.trackingNo}` }),
      text: `${t(common.greeting, { name: `${v.doctorName}` })}\n\n${t(m.ready, { version: n(v.version), trackingNo: `${v.trackingNo}` })}\n${v.caseUrl}\n\n${t(common.signature)}`,
      html: `<p>${h(common.greeting, { name: v.doctorName ?? '' })}</p><p>${h(m.ready, { version: v.version === undefined ? '' : n(v.version), trackingNo: v.trackingNo ?? '' })}</p><p><a href="${escapeHtml(v.caseUrl ?? '')}">${h(common.openCase)}</a></p><p>${h(common.signature)}</p>`,
    };
  },
  // To the lab (progress-outcome.ts): the case, the doctor, the aligner worn and the summary's
  // sentence (teeth in the case's numbering), nothing of the patient (docs/decisions/progress-scans.md § The lab's mail).
  progressScanDone: (v, say) => {
    const { t, h, n } = say;
    const m = {
      subject: /*i18n*/ {
        id: 'mail.progressScanDone.subject',
        message: 'Progress scan of case {trackingNo} at aligner {stage}: {summary}',
      },
      compared: /*i18n*/ {
        id: 'mail.progressScanDone.compared',
        message:
          "The progress scan of {doctorName}'s case {trackingNo}, at aligner {stage}, is compared with the plan: {summary}.",
      },
    };
    const summary = summaryIn(say, v);
    const values = { trackingNo: `${v.trackingNo}`, stage: n(v.stage), doctorName: `${v.doctorName}`, summary };
    const name = nameOf(v);
    return {
      subject: t(m.subject, values),
      text: `${t(common.greeting, { name })}\n\n${t(m.compared, values)}\n${v.caseUrl}\n\n${t(common.signature)}`,
      html: `<p>${h(common.greeting, { name })}</p><p>${h(m.compared, { doctorName: v.doctorName ?? '', trackingNo: v.trackingNo ?? '', stage: v.stage === undefined ? '' : values.stage }, { summary: `<b>${escapeHtml(v.summary === undefined ? '' : summary)}</b>` })}</p><p><a href="${escapeHtml(v.caseUrl ?? '')}">${h(common.openCase)}</a></p><p>${h(common.signature)}</p>`,
    };
  },
  progressScanFailed: (v, say) => {
    const { t, h, n } = say;
    const m = {
      subject: /*i18n*/ {
        id: 'mail.progressScanFailed.subject',
        message: 'Progress scan of case {trackingNo} at aligner {stage} could not be compared',
      },
      failed: /*i18n*/ {
        id: 'mail.progressScanFailed.failed',
        message:
          "The progress scan of {doctorName}'s case {trackingNo}, at aligner {stage}, could not be compared with the plan: {reason}.",
      },
    };
    const values = {
      trackingNo: `${v.trackingNo}`,
      stage: n(v.stage),
      doctorName: `${v.doctorName}`,
      reason: reasonIn(say, v),
    };
    const name = nameOf(v);
    return {
      subject: t(m.subject, values),
      text: `${t(common.greeting, { name })}\n\n${t(m.failed, values)}\n${v.caseUrl}\n\n${t(common.signature)}`,
      html: `<p>${h(common.greeting, { name })}</p><p>${h(m.failed, { doctorName: v.doctorName ?? '', trackingNo: v.trackingNo ?? '', stage: v.stage === undefined ? '' : values.stage, reason: v.reason === undefined ? '' : values.reason })}</p><p><a href="${escapeHtml(v.caseUrl ?? '')}">${h(common.openCase)}</a></p><p>${h(common.signature)}</p>`,
    };
  },
};

/**
 * A mail in its reader's language (English when none is given). Subjects come from the
 * templates only: no caller writes the portal's words (issue 20).
 */
export function renderTemplate(
  name: EmailTemplateName,
  variables: Variables,
  locale: Locale = defaultLocale,
): RenderedMail {
  return templates[name](variables, sayIn(locale));
}
