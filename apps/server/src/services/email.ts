import type { SendEmailRequest } from '@portal/contract';
import { and, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { badRequest } from '../lib/errors.ts';
import type { MailOutbox } from '../mail/outbox.ts';

/**
 * Staff send a template to a registered user (never to any address: the portal is no
 * open relay). Returns whether it went out now; otherwise it stays queued for retry.
 */
export async function sendTemplateMail(db: Database, outbox: MailOutbox, input: SendEmailRequest): Promise<boolean> {
  const [recipient] = await db
    .select({ userId: users.userId })
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${input.to})`, isNull(users.deletedAt)));
  if (!recipient)
    throw badRequest('No user is registered with this e-mail address', {
      to: 'No user is registered with this e-mail address',
    });
  const mailId = await outbox.enqueue(db, {
    to: input.to,
    template: input.templateName,
    subject: input.subject,
    variables: input.variables,
  });
  await outbox.deliverDue();
  return outbox.isSent(mailId);
}
