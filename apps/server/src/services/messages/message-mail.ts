import type { MessageSide } from '@portal/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.ts';
import { caseMessageMails, users } from '../../db/schema.ts';
import { findLabStaff } from '../../mail/lab-staff.ts';
import type { MailOutbox } from '../../mail/outbox.ts';

/** At most one e-mail per case per person in this window, however many messages (docs/decisions.md § Messages). */
const messageMailWindowMinutes = 10;

/** Who hears of a message by e-mail: the case's doctor for the lab's, the lab's staff for the doctor's. */
async function findRecipients(
  tx: Transaction,
  side: MessageSide,
  doctorUserId: number,
): Promise<{ userId: number; email: string }[]> {
  if (side === 'lab') {
    return tx
      .select({ userId: users.userId, email: users.email })
      .from(users)
      .where(and(eq(users.userId, doctorUserId), isNull(users.deletedAt)));
  }
  return findLabStaff(tx);
}

/**
 * Queues "a new message about case <trackingNo>" for the other side, inside the message's
 * transaction. The throttle is one upsert: a person is mailed only when their row is new or
 * older than the window, and the row lock it takes makes a concurrent message wait and then
 * see the fresh time, so two messages never send two mails. No text or patient data in the mail.
 */
export async function mailOtherSide(
  tx: Transaction,
  outbox: MailOutbox,
  message: { caseId: number; trackingNo: string; side: MessageSide; doctorUserId: number; caseUrl: string },
): Promise<number> {
  const recipients = await findRecipients(tx, message.side, message.doctorUserId);
  if (recipients.length === 0) return 0;
  const due = await tx
    .insert(caseMessageMails)
    .values(recipients.map(({ userId }) => ({ caseId: message.caseId, userId, lastMailedAt: sql`now()` })))
    .onConflictDoUpdate({
      target: [caseMessageMails.caseId, caseMessageMails.userId],
      set: { lastMailedAt: sql`now()` },
      setWhere: sql`${caseMessageMails.lastMailedAt} <= now() - make_interval(mins => ${messageMailWindowMinutes})`,
    })
    .returning({ userId: caseMessageMails.userId });
  const dueIds = new Set(due.map((row) => row.userId));
  for (const recipient of recipients.filter(({ userId }) => dueIds.has(userId))) {
    await outbox.enqueue(tx, {
      to: recipient.email,
      template: 'caseMessage',
      variables: { trackingNo: message.trackingNo, caseUrl: message.caseUrl },
    });
  }
  return dueIds.size;
}
