import type { Options } from '@node-rs/argon2';
import { passwordMessages } from '@portal/contract';
import { badRequest } from '../lib/errors.ts';
import { isCommonPassword } from './common-passwords.ts';

/** argon2id's cost (the library's default algorithm): PASSWORD_HASH_MEMORY_KIB, _TIME_COST, _PARALLELISM. */
export type PasswordHashing = Required<Pick<Options, 'memoryCost' | 'timeCost' | 'parallelism'>>;

// The native argon2 module is loaded by the first sign-in or new password, not at start: an idle
// process that nobody signs in to does not hold it (docs/decisions/build-and-runtime.md § Start command and compiled output).
let argon2: Promise<typeof import('@node-rs/argon2')> | undefined;
const loadArgon2 = () => (argon2 ??= import('@node-rs/argon2'));

/**
 * Hashes new passwords at the configured cost. A stored hash carries its own parameters, so
 * it verifies whatever the cost is now.
 */
export class PasswordHasher {
  /** A hash of nothing, verified against for unknown users so timing gives nothing away. */
  private decoyHash: Promise<string> | undefined;
  private readonly options: PasswordHashing;

  constructor(options: PasswordHashing) {
    this.options = options;
  }

  async hash(password: string): Promise<string> {
    return (await loadArgon2()).hash(password, this.options);
  }

  /**
   * The hash of a password being set, refused (400 on `field`) when it is a common or leaked
   * one. Only set passwords are checked: a stored one still signs in, so no one is locked out.
   */
  async hashNew(password: string, field = 'password'): Promise<string> {
    if (isCommonPassword(password)) throw badRequest(passwordMessages.common, { [field]: passwordMessages.common });
    return this.hash(password);
  }

  async verify(storedHash: string | undefined, password: string): Promise<boolean> {
    const { verify } = await loadArgon2();
    if (!storedHash) {
      this.decoyHash ??= this.hash('decoy password for unknown users');
      await verify(await this.decoyHash, password).catch(() => false);
      return false;
    }
    return verify(storedHash, password).catch(() => false);
  }
}
