import type { MailChoices, MailPreferences } from '@portal/contract';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { mailPreferences } from '../db/schema.ts';

/** Before any save every kind is immediate: as mail went out before preferences existed. */
export const defaultMailPreferences: MailChoices = {
  messages: 'immediate',
  plans: 'immediate',
  status: 'immediate',
  progress: 'immediate',
};

/** The user's choices for case mails (docs/decisions/mail.md § E-mail preferences). */
export async function getMailPreferences(db: Pick<Database, 'select'>, userId: number): Promise<MailChoices> {
  const [saved] = await db
    .select({
      messages: mailPreferences.messages,
      plans: mailPreferences.plans,
      status: mailPreferences.status,
      progress: mailPreferences.progress,
    })
    .from(mailPreferences)
    .where(eq(mailPreferences.userId, userId));
  return saved ?? defaultMailPreferences;
}

/** Replaces the user's choices with these (checked by the contract's schema); a kind left out stays as it was. */
export async function saveMailPreferences(db: Database, userId: number, choices: MailPreferences): Promise<void> {
  const { messages, plans, status, progress } = choices;
  const given = { messages, plans, status, ...(progress && { progress }) };
  await db
    .insert(mailPreferences)
    .values({ userId, ...given })
    .onConflictDoUpdate({ target: mailPreferences.userId, set: { ...given, updatedAt: new Date() } });
}
