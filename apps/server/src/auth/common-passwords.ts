import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * zxcvbn-ts's list of the ~49,000 passwords seen most often in leaked password sets (MIT,
 * bundled with the package, no network). Read on first use (about 90 ms and 10 MB): by the
 * first password chosen, or at start when ADMIN_PASSWORD is set.
 */
let commonPasswords: Set<string> | undefined;
function loadCommonPasswords(): Set<string> {
  commonPasswords ??= new Set(
    (require('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common')).dictionary[
      'passwords-common'
    ],
  );
  return commonPasswords;
}

/** Digits, spaces and punctuation added around a word to pass a rule (`Password2024!`). */
const padding = /^[\d\s\p{P}\p{S}]+|[\d\s\p{P}\p{S}]+$/gu;

/**
 * Whether a password is a common or leaked one, ignoring case and the digits and symbols
 * padded around it: `Qwertyuiop123`, `iloveyou2024!` and `123456789012` all are.
 */
export function isCommonPassword(password: string): boolean {
  const common = loadCommonPasswords();
  const lower = password.toLowerCase();
  const word = lower.replace(padding, '');
  return common.has(lower) || (word.length >= 4 && common.has(word));
}
