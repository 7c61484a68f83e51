import type { MailKind } from '@portal/contract';
import type { Transaction } from '../db/client.ts';
import { mailDigestItems } from '../db/schema.ts';
import { getMailPreferences } from '../services/mail-preferences.ts';
import type { EmailTemplateName, MailMessage } from './mailer.ts';
import type { MailOutbox } from './outbox.ts';

/**
 * Each case mail's kind, as e-mail preferences name it (docs/decisions/mail.md § E-mail
 * preferences); a new case tells the lab of a status (new). Every other template is about
 * the account itself and always goes out.
 */
const caseMailKinds = {
  caseMessage: 'messages',
  planReady: 'plans',
  caseStatus: 'status',
  caseSubmitted: 'status',
  progressScanDone: 'progress',
  progressScanFailed: 'progress',
} as const satisfies Partial<Record<EmailTemplateName, MailKind>>;
export type CaseMailTemplate = keyof typeof caseMailKinds;

export interface CaseMail extends MailMessage {
  template: CaseMailTemplate;
  /** The recipient's account: whose preferences decide. */
  userId: number;
  caseId: number;
}

/**
 * A case mail as its recipient chose, inside the caller's transaction: queued in the outbox
 * (immediate), kept for the daily digest (mail/digest.ts), or not at all (off).
 */
export async function enqueueCaseMail(
  tx: Transaction,
  outbox: MailOutbox,
  mail: CaseMail,
  options: { sendAfterSeconds?: number } = {},
): Promise<void> {
  const kind = caseMailKinds[mail.template];
  const delivery = (await getMailPreferences(tx, mail.userId))[kind];
  if (delivery === 'off') return;
  if (delivery === 'digest') {
    await tx.insert(mailDigestItems).values({
      userId: mail.userId,
      caseId: mail.caseId,
      kind,
      template: mail.template,
      variables: mail.variables,
    });
    return;
  }
  await outbox.enqueue(
    tx,
    { to: mail.to, userId: mail.userId, template: mail.template, variables: mail.variables },
    options,
  );
}
