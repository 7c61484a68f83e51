import type { MessageSide } from '@portal/contract';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { caseMessageMails, caseMessageReads, caseMessages, users } from '../../db/schema.ts';
import { findLabStaff } from '../../mail/lab-staff.ts';
import { enqueueCaseMail } from '../../mail/case-mail.ts';
import type { MailOutbox } from '../../mail/outbox.ts';

/** At most one e-mail per case per person in this window, however many messages (docs/decisions/messages.md § Messages). */
const messageMailWindowMinutes = 10;
/**
 * A message's mail waits this long, and is dropped if its reader has read the conversation
 * by then: someone with the case open sees the message arrive and needs no mail about it.
 */
const messageMailDelaySeconds = 120;

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
 * The mail waits `messageMailDelaySeconds` for `isMessageMailWanted`.
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
    await enqueueCaseMail(
      tx,
      outbox,
      {
        to: recipient.email,
        userId: recipient.userId,
        caseId: message.caseId,
        template: 'caseMessage',
        variables: {
          trackingNo: message.trackingNo,
          caseUrl: message.caseUrl,
          // For the check before sending; the template uses none of them.
          caseId: String(message.caseId),
          userId: String(recipient.userId),
          side: message.side,
        },
      },
      { sendAfterSeconds: messageMailDelaySeconds },
    );
  }
  return dueIds.size;
}

/**
 * Just before a message's mail goes out: has its reader left any message of that side
 * unread? If not, they read it while the mail waited: it is dropped, and their throttle row
 * with it, so the next message mails them again. The row is locked first, so a message
 * written meanwhile is either seen here as unread or, waiting on the row, finds it gone and
 * queues its own mail.
 */
export async function isMessageMailWanted(db: Database, variables: Record<string, string>): Promise<boolean> {
  const caseId = Number(variables.caseId);
  const userId = Number(variables.userId);
  const { side } = variables;
  // A mail queued before this check carries no ids: it goes out as it would have.
  if (!caseId || !userId || (side !== 'doctor' && side !== 'lab')) return true;
  const throttleRow = and(eq(caseMessageMails.caseId, caseId), eq(caseMessageMails.userId, userId));
  return db.transaction(async (tx) => {
    await tx.select({ caseId: caseMessageMails.caseId }).from(caseMessageMails).where(throttleRow).for('update');
    const [unread] = await tx
      .select({ messageId: caseMessages.messageId })
      .from(caseMessages)
      .leftJoin(caseMessageReads, and(eq(caseMessageReads.caseId, caseId), eq(caseMessageReads.userId, userId)))
      .where(
        and(
          eq(caseMessages.caseId, caseId),
          eq(caseMessages.side, side),
          gt(caseMessages.messageId, sql`coalesce(${caseMessageReads.lastReadMessageId}, 0)`),
        ),
      )
      .limit(1);
    if (unread) return true;
    await tx.delete(caseMessageMails).where(throttleRow);
    return false;
  });
}
