import { defaultLocale, matchLocale, type Locale } from '@portal/contract';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema.ts';

/** Each user's language on their account (docs/decisions/languages.md § The user's language on the server). */
export async function readUserLocale(db: Database, userId: number): Promise<Locale> {
  const [row] = await db.select({ locale: users.locale }).from(users).where(eq(users.userId, userId));
  return row?.locale ?? defaultLocale;
}

/** Sets the user's language; answers it as stored and what it was, for the audit row. */
export async function saveUserLocale(
  db: Database,
  userId: number,
  locale: Locale,
): Promise<{ before: Locale | null; after: Locale }> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ locale: users.locale }).from(users).where(eq(users.userId, userId)).for('update');
    const [saved] = await tx
      .update(users)
      .set({ locale })
      .where(eq(users.userId, userId))
      .returning({ locale: users.locale });
    return { before: row?.locale ?? null, after: saved?.locale ?? locale };
  });
}

/** Tags read from one Accept-Language header at most: a longer one is a client's mistake or an attack. */
const maxAcceptedTags = 32;

/**
 * The supported language an Accept-Language header prefers most: its tags by weight (`q`,
 * ties in the header's order; `q=0` and `*` dropped), then `matchLocale`'s exact tag or
 * language alone; English when none fits or there is no header.
 */
export function localeOfAcceptLanguage(header: string | undefined): Locale {
  if (!header) return matchLocale([]);
  const tags = header
    .split(',')
    .slice(0, maxAcceptedTags)
    .map((part, index) => {
      const [tag = '', ...parameters] = part.split(';').map((piece) => piece.trim());
      const weight = parameters.find((parameter) => /^q\s*=/i.test(parameter));
      const q = weight === undefined ? 1 : Number(weight.replace(/^q\s*=\s*/i, ''));
      return { tag, q: Number.isFinite(q) ? q : 0, index };
    })
    .filter(({ tag, q }) => q > 0 && /^[a-z]{1,8}(?:-[a-z0-9]{1,8})*$/i.test(tag))
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map(({ tag }) => tag);
  return matchLocale(tags);
}
