import { and, eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { jobs } from '../db/schema.ts';

/**
 * Background jobs in the database, in the mail outbox's shape
 * (docs/decisions/operations.md § Background jobs): queued in the caller's transaction, so a job exists exactly when what it works on
 * was committed; claimed with `for update skip locked`, so each runs in one process at a time;
 * a claim holds a lease that the running process renews, so the job of a process that died
 * is claimed again once its lease has run out; a failure is retried with a growing delay up to
 * `maxAttempts`, then kept as `failed` with its reason.
 *
 * Jobs are claimed in turns by owner (the doctor whose case the work is for): the next job
 * is the oldest due one of the owner whose last claim is least recent, owners never claimed
 * first. One doctor who queues many files, or a file made to be slow, then holds another's
 * job back by at most one job per slot, each bounded by its time limit, not by the whole queue
 * (docs/decisions/weld-and-fair-queue.md).
 */

type Writer = Pick<Database, 'insert'>;
/** What a job that failed its last attempt leaves to record (the viewer's fallback), with the reason. */
export type GiveUpHandler = (payload: Record<string, unknown>, reason: string) => Promise<void>;
/** Does a job's work; a throw is a failed attempt. */
export type JobHandler = (payload: Record<string, unknown>, job: RunningJob) => Promise<void>;

/** The job a handler runs. */
export interface RunningJob {
  jobId: number;
  attempts: number;
  /** Whose work it is: the owner of the jobs it queues in turn. */
  ownerUserId: number | null;
  /**
   * For the handler between the steps of its work: resolves once the process is not busy
   * (`isBusy`: an upload coming in), or at once when the job has waited `maxYieldMs` in all.
   * A fast upload (a plan's 440 MB on a local network: about 2 s) is then not slowed by a
   * conversion's reading and copying, and a stream of uploads delays a job by no more than that.
   */
  yieldToRequests(): Promise<void>;
}

export interface JobQueueOptions {
  /** Jobs running at once in this process. */
  concurrency: number;
  /** How long a claim holds before another process may take the job; renewed at a third of it. */
  leaseSeconds: number;
  /** Attempts before a job is kept as failed. */
  maxAttempts: number;
  /** Delay before retry n (1-based), in seconds. */
  retryDelaySeconds?: (attempt: number) => number;
  /** How often to look for due jobs besides the kick after each enqueue. */
  pollMs?: number;
  /** Whether the process is serving work that comes first (an upload being received): jobs wait between steps meanwhile. */
  isBusy?: () => boolean;
  /** The longest a job waits for that, all its steps together, so that a stream of uploads never holds it back for long. */
  maxYieldMs?: number;
  /** Told of each job kept as failed after its last attempt (metrics). */
  onJobFailed?: (kind: string) => void;
}

/** The queue of a process: JOB_CONCURRENCY jobs at once, a two-minute lease, five attempts. */
export function jobQueueOptions(config: Pick<Config, 'jobConcurrency' | 'jobLeaseSeconds'>): JobQueueOptions {
  return { concurrency: config.jobConcurrency, leaseSeconds: config.jobLeaseSeconds, maxAttempts: 5 };
}

const secondsFromNow = (seconds: number) => sql`now() + make_interval(secs => ${seconds})`;

const defaultRetryDelay = (attempt: number) => Math.min(3600, 10 * 4 ** (attempt - 1));

export class JobQueue {
  private readonly handlers = new Map<string, { work: JobHandler; onGiveUp?: GiveUpHandler }>();
  private readonly active = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  /** The claims being made: one look at a time in a process. */
  private claims: Promise<unknown> = Promise.resolve();
  /** Whether this process runs jobs by itself (start): until then only `runDue` runs them. */
  private started = false;
  private stopped = false;

  private readonly db: Database;
  private readonly log: FastifyBaseLogger;
  private readonly options: Required<JobQueueOptions>;

  constructor(db: Database, log: FastifyBaseLogger, options: JobQueueOptions) {
    this.db = db;
    this.log = log;
    this.options = {
      retryDelaySeconds: defaultRetryDelay,
      pollMs: 5000,
      isBusy: () => false,
      maxYieldMs: 3000,
      onJobFailed: () => {},
      ...options,
    };
  }

  /** A job's `yieldToRequests`, with its own budget of `maxYieldMs`. */
  private yielder(): () => Promise<void> {
    let budgetMs = this.options.maxYieldMs;
    return async () => {
      while (this.options.isBusy() && budgetMs > 0 && !this.stopped) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        budgetMs -= 50;
      }
    };
  }

  /** Runs `kind`'s jobs in this process; `onGiveUp` records what a job that failed its last attempt leaves undone. */
  handle(kind: string, work: JobHandler, options: { onGiveUp?: GiveUpHandler } = {}): void {
    this.handlers.set(kind, { work, onGiveUp: options.onGiveUp });
  }

  /**
   * Queues a job in the caller's transaction (or at once with the database); `kick()` after
   * commit. `ownerUserId`: whose turn it takes (the case's doctor), null for no one's.
   */
  async enqueue(
    writer: Writer,
    kind: string,
    payload: Record<string, unknown>,
    ownerUserId: number | null = null,
  ): Promise<number> {
    const [queued] = await writer.insert(jobs).values({ kind, payload, ownerUserId }).returning({ jobId: jobs.jobId });
    return queued!.jobId;
  }

  /** Starts looking for due jobs now and every `pollMs`. */
  start(): void {
    this.started = true;
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), this.options.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Looks for due jobs now, in the background, never failing the caller; nothing before `start`. */
  kick(): void {
    if (!this.started) return;
    this.runDue().catch((error: unknown) => this.log.error({ err: error }, 'jobs: looking for due jobs failed'));
  }

  /**
   * Runs what is due until nothing is: claims jobs while there is room, waits for them, and
   * looks again while it found some or ran out of room. Claims are made one look at a time
   * in a process; a call during another's look waits for it.
   */
  async runDue(): Promise<void> {
    for (;;) {
      const look = this.claims.then(() => this.claimWhileRoom());
      this.claims = look.catch(() => {});
      const { claimed, full } = await look;
      await this.settled();
      if (this.stopped || (claimed === 0 && !full)) return;
    }
  }

  /** Stops claiming; waits for the running jobs to finish (a bounded shutdown cuts them off, and their leases run out). */
  async stop(): Promise<void> {
    this.started = false;
    this.stopped = true;
    clearInterval(this.timer);
    await this.claims;
    await this.settled();
  }

  private async settled(): Promise<void> {
    while (this.active.size > 0) await Promise.allSettled([...this.active]);
  }

  /** Claims due jobs while fewer than `concurrency` run: how many, and whether it stopped for lack of room. */
  private async claimWhileRoom(): Promise<{ claimed: number; full: boolean }> {
    let claimed = 0;
    for (;;) {
      if (this.stopped) return { claimed, full: false };
      if (this.active.size >= this.options.concurrency) return { claimed, full: true };
      const job = await this.claim();
      if (!job) return { claimed, full: false };
      claimed += 1;
      const running = this.run(job)
        // Its outcome not recorded (the database gone meanwhile): its lease runs out and it is tried again.
        .catch((error: unknown) =>
          this.log.error({ err: error, jobId: job.jobId }, "jobs: a job's outcome not recorded"),
        )
        .finally(() => {
          this.active.delete(running);
          // A slot is free: there may be more due.
          this.kick();
        });
      this.active.add(running);
    }
  }

  /**
   * One due job of a kind this process handles, its attempt counted and its lease taken: the
   * oldest of the owner whose last claim is least recent (never: first; no owner: a turn of its
   * own, before the others). Each owner's last claim is one backward read of
   * jobs_owner_claimed_idx. Processes claiming at once each skip the other's locked row, so
   * two may take one owner's jobs in a round: the bound is then one job per slot.
   */
  private async claim() {
    const kinds = [...this.handlers.keys()];
    if (kinds.length === 0) return undefined;
    const [job] = await this.db
      .update(jobs)
      .set({
        state: 'running',
        attempts: sql`${jobs.attempts} + 1`,
        runAt: secondsFromNow(this.options.leaseSeconds),
        claimedAt: sql`now()`,
      })
      .where(
        eq(
          jobs.jobId,
          sql`(select due.job_id from ${jobs} due
                where due.state in ('queued', 'running') and due.run_at <= now()
                  and due.kind in ${kinds}
                order by (select max(turn.claimed_at) from ${jobs} turn
                           where turn.owner_user_id = due.owner_user_id) asc nulls first,
                         due.run_at, due.job_id
                limit 1
                for update of due skip locked)`,
        ),
      )
      .returning();
    return job;
  }

  private async run(job: typeof jobs.$inferSelect): Promise<void> {
    const handler = this.handlers.get(job.kind)!;
    const renew = setInterval(
      () => {
        this.db
          .update(jobs)
          .set({ runAt: secondsFromNow(this.options.leaseSeconds) })
          .where(and(eq(jobs.jobId, job.jobId), eq(jobs.attempts, job.attempts), eq(jobs.state, 'running')))
          .catch((error: unknown) => this.log.warn({ err: error, jobId: job.jobId }, 'jobs: lease not renewed'));
      },
      (this.options.leaseSeconds * 1000) / 3,
    );
    renew.unref();
    this.log.info({ jobId: job.jobId, kind: job.kind, attempts: job.attempts }, 'job started');
    try {
      await handler.work(job.payload, {
        jobId: job.jobId,
        attempts: job.attempts,
        ownerUserId: job.ownerUserId,
        yieldToRequests: this.yielder(),
      });
      await this.finish(job, { state: 'done', finishedAt: sql`now()`, lastError: null });
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      const givesUp = job.attempts >= this.options.maxAttempts;
      this.log.error({ jobId: job.jobId, kind: job.kind, attempts: job.attempts, reason, givesUp }, 'job failed');
      await this.finish(
        job,
        givesUp
          ? { state: 'failed', finishedAt: sql`now()`, lastError: reason }
          : {
              state: 'queued',
              lastError: reason,
              runAt: secondsFromNow(this.options.retryDelaySeconds(job.attempts)),
            },
      );
      if (givesUp) {
        this.options.onJobFailed(job.kind);
        await handler.onGiveUp?.(job.payload, reason).catch((failure: unknown) => {
          this.log.error({ err: failure, jobId: job.jobId }, 'jobs: recording a failed job failed');
        });
      }
    } finally {
      clearInterval(renew);
    }
  }

  /** Records the outcome, unless another process has taken the job since (this one's lease ran out). */
  private async finish(job: typeof jobs.$inferSelect, values: PgUpdateSetSource<typeof jobs>) {
    await this.db
      .update(jobs)
      .set(values)
      .where(and(eq(jobs.jobId, job.jobId), eq(jobs.attempts, job.attempts)));
  }
}
