import { z } from 'zod';

/** The spec's generic message for a required field (docs/spec.md section 5). */
export const requiredMessage = (label: string) => `${label} is required`;

const blankToUndefined = (value: unknown) =>
  value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value;

/** Required text: whitespace-only counts as empty; trimmed before use. */
export const requiredText = (label: string, max = 200) =>
  z
    .string({ error: requiredMessage(label) })
    .trim()
    .min(1, requiredMessage(label))
    .max(max, `${label} must be at most ${max} characters`);

/**
 * Line breaks, other control characters (C0, DEL, C1), line and paragraph separators, and
 * bidirectional overrides and isolates: a name is one line of text that goes into mails'
 * subjects and bodies, where a CR/LF starts a line the sender chose (issue 40).
 */
const controlCharacter = /[\p{Cc}\p{Zl}\p{Zp}\u202a-\u202e\u2066-\u2069]/u;

export const controlCharactersMessage = (label: string) =>
  `${label} must not contain line breaks or control characters`;

/** Whether text stays on one line, with no control character: the refinement every name shares. */
export const isOneLine = (value: string) => !controlCharacter.test(value);

/** A person's or clinic's name as typed in a form: required, trimmed, one line. */
export const nameText = (label: string, max = 100) =>
  requiredText(label, max).refine(isOneLine, controlCharactersMessage(label));

/** Optional text: missing, null and blank all become an empty string. */
export const optionalText = (label: string, max = 500) =>
  z.preprocess(
    (value) => blankToUndefined(value) ?? '',
    z
      .string({ error: `${label} is not valid` })
      .trim()
      .max(max, `${label} must be at most ${max} characters`),
  );

/** A required whole-number id; multipart sends numbers as strings. Ids past int4 are `invalid`. */
export const requiredId = (message: string, invalid = message) =>
  z.preprocess(
    (value) => {
      const present = blankToUndefined(value);
      return typeof present === 'string' ? Number(present) : present;
    },
    z.number({ error: message }).int(message).min(-2147483648, invalid).max(2147483647, invalid),
  );

/** Booleans in multipart bodies accept true/false/1/0 (docs/decisions/api.md § Booleans in forms). */
export const booleanField = (label: string) =>
  z.preprocess(
    (value) => {
      if (value === 'true' || value === '1' || value === 1) return true;
      if (value === 'false' || value === '0' || value === 0) return false;
      return blankToUndefined(value);
    },
    z.boolean({ error: requiredMessage(label) }),
  );

/** Compatibility forms become one (NFKC: fullwidth `ａｄｍｉｎ` is `admin`), then trimmed. */
export const normalizeUsername = (value: string) => value.normalize('NFKC').trim();

export const usernameMessages = {
  invisible: 'Username must not contain invisible or control characters',
  mixedScripts: 'Username must not mix alphabets (such as Latin with Cyrillic or Greek)',
} as const;

/** Zero-width, bidirectional and other format (Cf) or control (Cc) characters, and line or paragraph separators. */
const invisibleCharacter = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u115f\u1160\u3164\uffa0]/u;

/** Scripts a letter may belong to; Japanese and Korean mix Han with their own, which stays allowed. */
const scripts = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Armenian',
  'Georgian',
  'Hebrew',
  'Arabic',
  'Devanagari',
  'Thai',
  'Hangul',
  'Hiragana',
  'Katakana',
  'Han',
] as const;
const scriptPatterns = scripts.map((name) => ({ name, pattern: new RegExp(`\\p{Script=${name}}`, 'u') }));
const allowedMixes = [new Set(['Han', 'Hiragana', 'Katakana']), new Set(['Han', 'Hangul'])];

/** Whether the letters come from more than one script (look-alikes such as Cyrillic `ѕ` in `ѕecadmin`). */
export function mixesScripts(value: string): boolean {
  const seen = new Set<string>();
  for (const character of value) {
    if (!/\p{L}/u.test(character)) continue;
    seen.add(scriptPatterns.find(({ pattern }) => pattern.test(character))?.name ?? 'Other');
  }
  if (seen.size <= 1) return false;
  return !allowedMixes.some((allowed) => [...seen].every((script) => allowed.has(script)));
}

/**
 * A username as stored (registration, Users screen): NFKC-normalised, no invisible
 * characters, one alphabet (docs/decisions/accounts.md § Usernames).
 */
export const username = requiredText('Username', 50)
  .overwrite(normalizeUsername)
  .min(3, 'Username must be at least 3 characters')
  .max(50, 'Username must be at most 50 characters')
  .refine((value) => !invisibleCharacter.test(value), usernameMessages.invisible)
  .refine((value) => !mixesScripts(value), usernameMessages.mixedScripts);

export const email = requiredText('Email', 254).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Email is not valid');

/** The length rule for every password chosen (OWASP ASVS 2.1.1 asks at least 12); checked again for ADMIN_PASSWORD. */
export const minPasswordLength = 12;
export const maxPasswordLength = 128;

export const passwordMessages = {
  tooShort: `Password must be at least ${minPasswordLength} characters`,
  tooLong: `Password must be at most ${maxPasswordLength} characters`,
  /** Checked on the server against a bundled list of leaked and common passwords (ASVS 2.1.7). */
  common: 'This password is on lists of common or leaked passwords: choose another',
} as const;

/**
 * A password being set (registration, user and doctor forms, reset, own change). Passwords
 * are never trimmed, but whitespace-only counts as empty. Sign-in takes any stored password.
 */
export const password = z
  .string({ error: requiredMessage('Password') })
  .refine((value) => value.trim().length > 0, requiredMessage('Password'))
  .refine((value) => value.length >= minPasswordLength, passwordMessages.tooShort)
  .refine((value) => value.length <= maxPasswordLength, passwordMessages.tooLong);

/** In edit forms an empty password leaves the stored one as it is. */
export const optionalPassword = z.preprocess(
  (value) => (value === undefined || value === null ? '' : value),
  z.union([z.literal(''), password]),
);

export const passwordsMatchMessage = 'Passwords do not match';

/**
 * The account's current password, asked when one changes one's own password or e-mail
 * (docs/decisions/sign-in-and-sessions.md § Changing one's own password or e-mail); blank counts as missing.
 */
export const currentPassword = z.preprocess(
  (value) => (value === undefined || value === null ? '' : value),
  z.string({ error: 'Current Password is not valid' }).max(1024, 'Current Password is too long'),
);

export const ownChangeMessages = {
  currentPasswordRequired: 'Enter your current password to change your password or e-mail',
  currentPasswordWrong: 'Current password is not correct',
} as const;

export const gender = z.enum(['Male', 'Female', 'Other'], { error: 'Gender is required' });
export const genderOptions = gender.options;

export const userType = z.enum(['Web', 'Doctor', 'Assistant']);
export type UserType = z.infer<typeof userType>;
