import type { MailPreferences } from '@portal/contract';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { mailPreferences } from '../db/schema.ts';

/** Before any save every kind is immediate: as mail went out before preferences existed. */
export const defaultMailPreferences: MailPreferences = {
  messages: 'immediate',
  plans: 'immediate',
  status: 'immediate',
};

/** The user's choices for case mails (docs/decisions/mail.md § E-mail preferences). */
export async function getMailPreferences(db: Pick<Database, 'select'>, userId: number): Promise<MailPreferences> {
  const [saved] = await db
    .select({ messages: mailPreferences.messages, plans: mailPreferences.plans, status: mailPreferences.status })
    .from(mailPreferences)
    .where(eq(mailPreferences.userId, userId));
  return saved ?? defaultMailPreferences;
}

/** Replaces the user's choices with these (checked by the contract's schema). */
export async function saveMailPreferences(db: Database, userId: number, choices: MailPreferences): Promise<void> {
  const { messages, plans, status } = choices;
  await db
    .insert(mailPreferences)
    .values({ userId, messages, plans, status })
    .onConflictDoUpdate({ target: mailPreferences.userId, set: { messages, plans, status, updatedAt: new Date() } });
}
