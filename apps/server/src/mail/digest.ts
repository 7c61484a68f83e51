import { and, asc, eq, inArray, isNull, lte } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { isAllowed, type SignedInUser } from '../auth/policy.ts';
import type { Database, Transaction } from '../db/client.ts';
import { caseMessageReads, caseMessages, cases, doctors, mailDigestItems, users } from '../db/schema.ts';
import { visibleCasesCondition } from '../services/cases/case-access.ts';
import { readLabSettings } from '../services/lab-settings.ts';
import { readMarkOf, unreadBy } from '../services/messages/unread-messages.ts';
import type { EmailTemplateName } from './mailer.ts';
import type { MailOutbox } from './outbox.ts';
import { pagesOfUser, signedInUserColumns } from '../plugins/auth.ts';
import { renderTemplate } from './templates.ts';

/** One digest lists at most this many of its items; it says how many more wait in the portal. */
const maxDigestLines = 50;
/** Users whose digests one query finds; the run goes on until none is left. */
const usersPerRound = 50;
const checkEverySeconds = 300;

interface DigestDeps {
  db: Database;
  outbox: MailOutbox;
  publicUrl: string;
}

/** The latest digest hour at or before `now` (UTC): items kept until then go out in its digest. */
export function digestCutoff(now: Date, hourUtc: number): Date {
  const cutoff = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hourUtc));
  if (cutoff > now) cutoff.setUTCDate(cutoff.getUTCDate() - 1);
  return cutoff;
}

/** The digest's recipient as the portal would see them signed in: active, not deleted, with their role's pages. */
async function findRecipient(tx: Transaction, userId: number) {
  const [row] = await tx
    .select({
      ...signedInUserColumns,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      locale: users.locale,
      pages: pagesOfUser,
    })
    .from(users)
    .leftJoin(doctors, eq(doctors.userId, users.userId))
    .where(and(eq(users.userId, userId), eq(users.isActive, true), isNull(users.deletedAt)));
  if (!row) return undefined;
  const actor: SignedInUser = { ...row, pages: new Set(row.pages), jti: '', exp: 0 };
  return { actor, email: row.email, name: `${row.firstName} ${row.lastName}`, locale: row.locale };
}

/** Of these cases, those the user still reaches (the lists' reach; staff only with the Dashboard). */
async function findReachableCases(tx: Transaction, actor: SignedInUser, caseIds: number[]): Promise<Set<number>> {
  if (!isAllowed(actor, { pages: ['/dashboard'], doctors: true, assistants: true })) return new Set();
  const rows = await tx
    .select({ caseId: cases.caseId })
    .from(cases)
    .where(and(inArray(cases.caseId, caseIds), visibleCasesCondition(actor)));
  return new Set(rows.map((row) => row.caseId));
}

/** Of these cases, those with a message of the other side the user has not read yet. */
async function findUnreadCases(tx: Transaction, actor: SignedInUser, caseIds: number[]): Promise<Set<number>> {
  if (caseIds.length === 0) return new Set();
  const rows = await tx
    .selectDistinct({ caseId: caseMessages.caseId })
    .from(caseMessages)
    .leftJoin(caseMessageReads, readMarkOf(actor))
    .where(and(inArray(caseMessages.caseId, caseIds), unreadBy(actor)));
  return new Set(rows.map((row) => row.caseId));
}

/**
 * One user's digest, in one transaction: their items kept until the cutoff are deleted and
 * the digest queued in the outbox together, so a process that dies mid-way leaves both or
 * neither, and a second process deleting the same items finds none (the row locks make it
 * wait, then see them gone): never two digests for the same items. Items about cases the
 * user no longer reaches, and messages they have read since, are dropped.
 */
async function sendDigestOf(deps: DigestDeps, userId: number, cutoff: Date): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const items = await tx
      .delete(mailDigestItems)
      .where(and(eq(mailDigestItems.userId, userId), lte(mailDigestItems.createdAt, cutoff)))
      .returning();
    if (items.length === 0) return false;
    const recipient = await findRecipient(tx, userId);
    if (!recipient) return false;
    const caseIds = [...new Set(items.map((item) => item.caseId))];
    const reachable = await findReachableCases(tx, recipient.actor, caseIds);
    const messageCases = caseIds.filter((caseId) =>
      items.some((item) => item.caseId === caseId && item.kind === 'messages'),
    );
    const unread = await findUnreadCases(
      tx,
      recipient.actor,
      messageCases.filter((id) => reachable.has(id)),
    );
    const kept = items
      .filter((item) => reachable.has(item.caseId) && (item.kind !== 'messages' || unread.has(item.caseId)))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.itemId - b.itemId);
    // Each item is told in its own mail's subject, in the reader's language; the same words twice (two messages on a case) once.
    const lines = [
      ...new Set(
        kept.map(
          (item) => renderTemplate(item.template as EmailTemplateName, item.variables, recipient.locale).subject,
        ),
      ),
    ];
    if (lines.length === 0) return false;
    const shown = lines.slice(0, maxDigestLines);
    await deps.outbox.enqueue(tx, {
      to: recipient.email,
      locale: recipient.locale,
      template: 'digest',
      variables: {
        name: recipient.name,
        items: shown.join('\n'),
        more: String(lines.length - shown.length),
        inboxUrl: `${deps.publicUrl}/inbox`,
      },
    });
    return true;
  });
}

/**
 * The digests due at `now` (docs/decisions/mail.md § E-mail preferences): every user with items
 * kept until the latest digest hour gets one mail listing them. Items kept after that hour
 * wait for the next day's. Returns how many digests were queued. The clock is the caller's:
 * the scheduler passes the time, a test any other.
 */
export async function sendDueDigests(deps: DigestDeps, options: { now: Date; hourUtc: number }): Promise<number> {
  const cutoff = digestCutoff(options.now, options.hourUtc);
  let queued = 0;
  for (;;) {
    const due = await deps.db
      .selectDistinct({ userId: mailDigestItems.userId })
      .from(mailDigestItems)
      .where(lte(mailDigestItems.createdAt, cutoff))
      .orderBy(asc(mailDigestItems.userId))
      .limit(usersPerRound);
    if (due.length === 0) break;
    for (const { userId } of due) if (await sendDigestOf(deps, userId, cutoff)) queued += 1;
  }
  if (queued > 0) deps.outbox.kick();
  return queued;
}

/** The digests due at `now` by the hour the lab's settings give at that moment (the Settings screen's digest hour). */
export async function sendDigestsDueAtLabHour(deps: DigestDeps, now: Date): Promise<number> {
  const { digestHourUtc } = await readLabSettings(deps.db);
  return sendDueDigests(deps, { now, hourUtc: digestHourUtc });
}

/**
 * Checks for due digests at start and every few minutes, in each process (the deletes keep them
 * single); each check reads the digest hour anew, so a change on the Settings screen holds from the next.
 */
export function startMailDigests(deps: DigestDeps & { log: FastifyBaseLogger }): { stop(): void } {
  let running: Promise<void> | undefined;
  const check = () => {
    running ??= sendDigestsDueAtLabHour(deps, new Date())
      .then(
        (queued) => {
          if (queued > 0) deps.log.info({ queued }, 'mail digests queued');
        },
        (error: unknown) => deps.log.error({ err: error }, 'mail digests could not be sent'),
      )
      .finally(() => {
        running = undefined;
      });
  };
  check();
  const timer = setInterval(check, checkEverySeconds * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
