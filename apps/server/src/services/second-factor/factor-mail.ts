import { eq } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { deviceLabel } from '../../lib/device-label.ts';
import type { MailOutbox } from '../../mail/outbox.ts';
import { personName } from '../accounts.ts';
import { secondFactorState, type SecondFactorState } from './factors.ts';

/** What changed, as the owner's mail tells it. */
export const factorChanges = {
  totpAdded: 'An authenticator app was added to your Aligner Portal account as a second factor.',
  passkeyAdded:
    'A passkey was added to your Aligner Portal account. A passkey signs in on its own, without your password.',
  totpRemoved: 'The authenticator app was removed from your Aligner Portal account.',
  passkeyRemoved: 'A passkey was removed from your Aligner Portal account.',
  recoveryCodes: 'New recovery codes were made for your Aligner Portal account; the earlier ones no longer work.',
} as const;

/** "2026-12-05 10:42 UTC": a time anyone reads the same. */
const mailTime = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * Queues the mail that tells the owner their second factors changed: which, when, and from
 * which device and address the request came (docs/decisions/second-factor-changes.md).
 */
export async function mailFactorChange(
  db: Database | Transaction,
  outbox: MailOutbox,
  userId: number,
  change: string,
  client: { ip: string; userAgent: string | undefined },
): Promise<void> {
  const [owner] = await db
    .select({ email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.userId, userId));
  if (!owner) return;
  const at = new Date();
  // The change's key and the instant too: another language says both its own way (mail/templates.ts).
  const changeKey = Object.entries(factorChanges).find(([, words]) => words === change)?.[0];
  await outbox.enqueue(db, {
    to: owner.email,
    userId,
    template: 'secondFactorChanged',
    variables: {
      name: personName(owner),
      change,
      ...(changeKey ? { changeKey } : {}),
      when: mailTime(at),
      at: at.toISOString(),
      device: deviceLabel(client.userAgent ?? ''),
      address: client.ip,
    },
  });
}

const counted = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** "Second factors on your account now: an authenticator app, 2 passkeys and 8 recovery codes." */
export function describeFactors(state: SecondFactorState): string {
  const parts = [
    ...(state.hasTotp ? ['an authenticator app'] : []),
    ...(state.passkeys > 0 ? [counted(state.passkeys, 'passkey', 'passkeys')] : []),
  ];
  if (parts.length === 0) return 'Your account has no second factor now.';
  if (state.recoveryCodesLeft > 0) parts.push(counted(state.recoveryCodesLeft, 'recovery code', 'recovery codes'));
  const listed = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  return `Second factors on your account now: ${listed}.`;
}

/**
 * The user's factors as the password-reset mail lists them: the English sentence, and the
 * counts another language writes its own sentence from (mail/templates.ts).
 */
export async function remainingFactorsOf(db: Database | Transaction, userId: number) {
  const state = await secondFactorState(db, userId);
  return {
    factors: describeFactors(state),
    factorTotp: state.hasTotp ? 'yes' : 'no',
    factorPasskeys: String(state.passkeys),
    factorRecoveryCodes: String(state.recoveryCodesLeft),
  };
}
