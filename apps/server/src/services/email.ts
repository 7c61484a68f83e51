import { noActiveDoctorAtAddress, type SendEmailRequest } from '@portal/contract';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { doctors, users } from '../db/schema.ts';
import { badRequest } from '../lib/errors.ts';
import type { MailOutbox } from '../mail/outbox.ts';
import { personName } from './accounts.ts';
import { createResetLink } from './password-reset.ts';

/**
 * Staff (re)send the activation mail to an active doctor's own address. Nothing in the mail
 * is the caller's: the name is the account's, the link a fresh one under PUBLIC_URL, the
 * subject the template's, so the portal's name cannot carry someone else's link (issue 20).
 * Returns whether it went out now; otherwise it stays queued for retry.
 */
export async function sendTemplateMail(
  deps: { db: Database; outbox: MailOutbox; publicUrl: string },
  input: SendEmailRequest,
): Promise<boolean> {
  const mailIds = await deps.db.transaction(async (tx) => {
    const recipients = await tx
      .select({ userId: users.userId, firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(users)
      .innerJoin(doctors, eq(doctors.userId, users.userId))
      .where(and(sql`lower(${users.email}) = lower(${input.to})`, eq(users.isActive, true), isNull(users.deletedAt)))
      .orderBy(asc(users.userId));
    if (recipients.length === 0) throw badRequest(noActiveDoctorAtAddress, { to: noActiveDoctorAtAddress });
    // Two doctors may share an address: each gets the mail for their own account.
    const ids: number[] = [];
    for (const recipient of recipients) {
      const resetUrl = await createResetLink(tx, recipient.userId, deps.publicUrl);
      ids.push(
        await deps.outbox.enqueue(tx, {
          to: recipient.email,
          userId: recipient.userId,
          template: input.templateName,
          variables: { name: personName(recipient), resetUrl },
        }),
      );
    }
    return ids;
  });
  await deps.outbox.deliverDue();
  for (const mailId of mailIds) if (!(await deps.outbox.isSent(mailId))) return false;
  return true;
}
