import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { recoveryCodes } from '../../db/schema.ts';

const codesPerSet = 10;
const base32Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** 80 random bits as 16 base32 letters; too many to guess, so a fast hash keeps them safe at rest. */
function newCode(): string {
  const bytes = randomBytes(10);
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let code = '';
  for (let shift = 75n; shift >= 0n; shift -= 5n) code += base32Alphabet[Number((bits >> shift) & 31n)];
  return code;
}

/** The code as the contract normalises it (upper case, no dashes), hashed as stored. */
const hashRecoveryCode = (code: string) => createHash('sha256').update(code).digest('hex');

/** `ABCDEFGHJKMNPQRS` shown as `ABCD-EFGH-JKMN-PQRS`. */
const shown = (code: string) => code.match(/.{4}/g)!.join('-');

/** Ten new codes replace any earlier ones; answered once, as shown, and kept only as hashes. */
export async function replaceRecoveryCodes(db: Database | Transaction, userId: number): Promise<string[]> {
  const codes = Array.from({ length: codesPerSet }, newCode);
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.insert(recoveryCodes).values(codes.map((code) => ({ userId, codeHash: hashRecoveryCode(code) })));
  return codes.map(shown);
}

/** Marks the code used, if it is one of the user's unused codes; one statement, so two uses cannot both pass. */
export async function useRecoveryCode(db: Database, userId: number, code: string): Promise<boolean> {
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, hashRecoveryCode(code)),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ codeId: recoveryCodes.codeId });
  return used.length > 0;
}
