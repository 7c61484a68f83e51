import type { Options } from '@node-rs/argon2';

// argon2id (the library's default algorithm) with OWASP's second recommended profile.
const options: Options = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

// The native argon2 module is loaded by the first sign-in or new password, not at start: an idle
// process that nobody signs in to does not hold it (docs/decisions.md § Start command and compiled output).
let argon2: Promise<typeof import('@node-rs/argon2')> | undefined;
const loadArgon2 = () => (argon2 ??= import('@node-rs/argon2'));

export const hashPassword = async (password: string) => (await loadArgon2()).hash(password, options);

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
