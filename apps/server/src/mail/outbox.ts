import { defaultLocale, type Locale } from '@portal/contract';
import { and, asc, desc, eq, isNull, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.ts';
import { mailOutbox, users } from '../db/schema.ts';
import { serverLocale } from '../i18n/index.ts';
import { isMessageMailWanted } from '../services/messages/message-mail.ts';
import type { EmailTemplateName, MailMessage, Mailer } from './mailer.ts';

/** Anything that can run a query: the database or an open transaction. */
type Writer = Pick<Database, 'insert' | 'select'>;

const maxAttempts = 10;
const retryDelaySeconds = (attempts: number) => Math.min(3600, 30 * 2 ** (attempts - 1));

/**
 * Asked just before a mail goes out; false drops it, as what it tells was seen meanwhile
 * (a message read while its mail waited, docs/decisions/messages.md § Messages).
 */
type StillWanted = (db: Database, variables: Record<string, string>) => Promise<boolean>;
const checksBeforeSending: Partial<Record<EmailTemplateName, StillWanted>> = { caseMessage: isMessageMailWanted };

/**
 * The language a mail is written in: its reader's (docs/decisions/languages.md § Mails and the
 * server's messages). The language the sender gave (`locale`), else the account the mail is
 * for (`userId`), else the account at the recipient address (active first, then the oldest, as
 * an address may hold several); English for an address no account has (a patient's).
 */
export async function readerLocale(writer: Writer, message: MailMessage): Promise<Locale> {
  if (message.locale) return message.locale;
  const [reader] = await writer
    .select({ locale: users.locale })
    .from(users)
    .where(
      message.userId !== undefined
        ? eq(users.userId, message.userId)
        : and(sql`lower(${users.email}) = lower(${message.to})`, isNull(users.deletedAt)),
    )
    .orderBy(desc(users.isActive), asc(users.userId))
    .limit(1);
  return reader ? serverLocale(reader.locale) : defaultLocale;
}

export class MailOutbox {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private rerun: Promise<number> | undefined;

  private readonly db: Database;
  private readonly mailer: Mailer;
  private readonly log: FastifyBaseLogger;

  constructor(db: Database, mailer: Mailer, log: FastifyBaseLogger) {
    this.db = db;
    this.mailer = mailer;
    this.log = log;
  }

  /** Queue a message inside the caller's transaction; it is sent after commit, or `sendAfterSeconds` later. */
  async enqueue(writer: Writer, message: MailMessage, options: { sendAfterSeconds?: number } = {}): Promise<number> {
    const { sendAfterSeconds } = options;
    const [queued] = await writer
      .insert(mailOutbox)
      .values({
        recipient: message.to,
        template: message.template,
        variables: message.variables,
        locale: await readerLocale(writer, message),
        ...(sendAfterSeconds ? { nextAttemptAt: sql`now() + make_interval(secs => ${sendAfterSeconds})` } : {}),
      })
      .returning({ mailId: mailOutbox.mailId });
    return queued!.mailId;
  }

  async isSent(mailId: number): Promise<boolean> {
    const [state] = await this.db
      .select({ sentAt: mailOutbox.sentAt })
      .from(mailOutbox)
      .where(eq(mailOutbox.mailId, mailId));
    return state?.sentAt != null;
  }

  /**
   * Send what is due now; returns how many the run sent. One run at a time per process. A
   * call during a run may come after that run last looked for due mail, so it gets one more
   * run afterwards: mail queued just before the call is never left for the next interval.
   */
  deliverDue(): Promise<number> {
    if (this.running) {
      this.rerun ??= this.running
        .catch(() => 0)
        .then(() => {
          this.rerun = undefined;
          return this.deliverDue();
        });
      return this.rerun;
    }
    this.running = this.deliver().finally(() => (this.running = undefined));
    return this.running;
  }

  private async deliver(): Promise<number> {
    let sent = 0;
    for (;;) {
      const due = await this.db
        .select()
        .from(mailOutbox)
        .where(and(isNull(mailOutbox.sentAt), lte(mailOutbox.nextAttemptAt, sql`now()`)))
        .orderBy(asc(mailOutbox.mailId))
        .limit(20);
      if (due.length === 0) return sent;
      for (const mail of due) {
        // Claim the row so a second process does not send it too.
        const claimed = await this.db
          .update(mailOutbox)
          .set({
            attempts: mail.attempts + 1,
            nextAttemptAt: sql`now() + make_interval(secs => ${retryDelaySeconds(mail.attempts + 1)})`,
          })
          .where(and(eq(mailOutbox.mailId, mail.mailId), eq(mailOutbox.attempts, mail.attempts)))
          .returning({ mailId: mailOutbox.mailId });
        if (claimed.length === 0) continue;
        try {
          const check = checksBeforeSending[mail.template as EmailTemplateName];
          if (check && !(await check(this.db, mail.variables))) {
            await this.db.delete(mailOutbox).where(eq(mailOutbox.mailId, mail.mailId));
            this.log.info({ mailId: mail.mailId, template: mail.template }, 'mail dropped: seen before it was sent');
            continue;
          }
          await this.mailer.send({
            to: mail.recipient,
            template: mail.template as MailMessage['template'],
            variables: mail.variables,
            locale: serverLocale(mail.locale),
          });
          await this.db
            .update(mailOutbox)
            .set({ sentAt: sql`now()`, variables: {}, lastError: null })
            .where(eq(mailOutbox.mailId, mail.mailId));
          sent += 1;
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          const givesUp = mail.attempts + 1 >= maxAttempts;
          this.log.error({ mailId: mail.mailId, attempts: mail.attempts + 1, reason, givesUp }, 'mail not sent');
          await this.db
            .update(mailOutbox)
            .set({
              lastError: reason.slice(0, 500),
              ...(givesUp ? { nextAttemptAt: sql`'infinity'::timestamptz` } : {}),
            })
            .where(eq(mailOutbox.mailId, mail.mailId));
        }
      }
    }
  }

  /** Deliver now in the background (after a commit), never failing the caller. */
  kick(): void {
    this.deliverDue().catch((error: unknown) => this.log.error({ err: error }, 'mail dispatcher failed'));
  }

  start(intervalMs = 30_000): void {
    this.timer = setInterval(() => this.kick(), intervalMs);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    while (this.running || this.rerun) await (this.rerun ?? this.running)!.catch(() => {});
  }
}
