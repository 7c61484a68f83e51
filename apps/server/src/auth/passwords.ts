import type { Options } from '@node-rs/argon2';
import { passwordMessages } from '@portal/contract';
import { badRequest } from '../lib/errors.ts';
import { isCommonPassword } from './common-passwords.ts';

// argon2id (the library's default algorithm) with OWASP's second recommended profile.
const options: Options = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

// The native argon2 module is loaded by the first sign-in or new password, not at start: an idle
// process that nobody signs in to does not hold it (docs/decisions.md § Start command and compiled output).
let argon2: Promise<typeof import('@node-rs/argon2')> | undefined;
const loadArgon2 = () => (argon2 ??= import('@node-rs/argon2'));

export const hashPassword = async (password: string) => (await loadArgon2()).hash(password, options);

/**
 * The hash of a password being set, refused (400 on `field`) when it is a common or leaked
 * one. Only set passwords are checked: a stored one still signs in, so no one is locked out.
 */
export async function hashNewPassword(password: string, field = 'password'): Promise<string> {
  if (isCommonPassword(password)) throw badRequest(passwordMessages.common, { [field]: passwordMessages.common });
  return hashPassword(password);
}

/** A hash of nothing, verified against for unknown users so timing gives nothing away. */
let decoyHash: Promise<string> | undefined;

export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  const { verify } = await loadArgon2();
  if (!storedHash) {
    decoyHash ??= hashPassword('decoy password for unknown users');
    await verify(await decoyHash, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}
