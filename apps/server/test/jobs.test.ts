import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { jobs } from '../src/db/schema.ts';
import { JobQueue, type JobQueueOptions } from '../src/jobs/job-queue.ts';
import { silentLogger } from './helpers/constants.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

/** docs/quality/faults.md, Background jobs: the database queue (jobs/job-queue.ts) on PGlite and PostgreSQL. */

let t: TestApp;
const queues: JobQueue[] = [];
beforeAll(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await Promise.all(queues.splice(0).map((queue) => queue.stop()));
  await t.app.db.delete(jobs);
});
afterAll(() => t?.close());

function queue(options: Partial<JobQueueOptions> = {}): JobQueue {
  const made = new JobQueue(t.app.db, silentLogger, {
    concurrency: 1,
    leaseSeconds: 60,
    maxAttempts: 3,
    retryDelaySeconds: () => 0,
    ...options,
  });
  queues.push(made);
  return made;
}

/** vi.waitFor waits 1 s by default: a bound on a loaded machine, not the pace the queue keeps. */
const eventually = { timeout: scaled(30_000) };

const rowOf = async (jobId: number) => (await t.app.db.select().from(jobs).where(eq(jobs.jobId, jobId)))[0]!;

/** A promise the test resolves when it chooses. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('background jobs', () => {
  it('a job queued in a transaction that rolls back does not exist', async () => {
    const jobsQueue = queue();
    await expect(
      t.app.db.transaction(async (tx) => {
        await jobsQueue.enqueue(tx, 'test.work', { n: 1 });
        throw new Error('the request failed');
      }),
    ).rejects.toThrow('the request failed');
    expect(await t.app.db.select().from(jobs)).toEqual([]);
  });

  it('runs a queued job once with its payload, and records it done', async () => {
    const jobsQueue = queue();
    const seen: unknown[] = [];
    jobsQueue.handle('test.work', async (payload) => {
      seen.push(payload);
    });
    const jobId = await jobsQueue.enqueue(t.app.db, 'test.work', { storageKey: 'cases/1/a.stl' });
    await jobsQueue.runDue();
    await jobsQueue.runDue();
    expect(seen).toEqual([{ storageKey: 'cases/1/a.stl' }]);
    expect(await rowOf(jobId)).toMatchObject({ state: 'done', attempts: 1, lastError: null });
    expect((await rowOf(jobId)).finishedAt).toBeInstanceOf(Date);
  });

  it('retries a failing job, then keeps it failed with its reason after the last attempt', async () => {
    const jobsQueue = queue({ maxAttempts: 3 });
    let calls = 0;
    const givenUp: unknown[] = [];
    jobsQueue.handle(
      'test.work',
      async () => {
        calls += 1;
        throw new Error(`broken mesh (call ${calls})`);
      },
      { onGiveUp: async (payload, reason) => void givenUp.push({ payload, reason }) },
    );
    const jobId = await jobsQueue.enqueue(t.app.db, 'test.work', { n: 7 });
    // Retried at once (no delay here) until the last attempt, within one run.
    await jobsQueue.runDue();
    expect(await rowOf(jobId)).toMatchObject({ state: 'failed', attempts: 3, lastError: 'broken mesh (call 3)' });
    await jobsQueue.runDue();
    expect(calls).toBe(3);
    expect(givenUp).toEqual([{ payload: { n: 7 }, reason: 'broken mesh (call 3)' }]);
  });

  it('keeps a failed attempt queued for its retry delay, with the reason', async () => {
    const jobsQueue = queue({ retryDelaySeconds: () => 3600 });
    let calls = 0;
    jobsQueue.handle('test.work', async () => {
      calls += 1;
      throw new Error('not yet');
    });
    const jobId = await jobsQueue.enqueue(t.app.db, 'test.work', {});
    await jobsQueue.runDue();
    await jobsQueue.runDue();
    expect(calls).toBe(1);
    const row = await rowOf(jobId);
    expect(row).toMatchObject({ state: 'queued', attempts: 1, lastError: 'not yet' });
    expect(row.runAt.getTime() - Date.now()).toBeGreaterThan(3000 * 1000);
  });

  it('runs at most `concurrency` jobs at once', async () => {
    const jobsQueue = queue({ concurrency: 2 });
    const release = gate();
    let running = 0;
    let most = 0;
    jobsQueue.handle('test.work', async () => {
      running += 1;
      most = Math.max(most, running);
      await release.opened;
      running -= 1;
    });
    for (let n = 0; n < 5; n += 1) await jobsQueue.enqueue(t.app.db, 'test.work', { n });
    const done = jobsQueue.runDue();
    await vi.waitFor(() => expect(running).toBe(2), eventually);
    release.open();
    await done;
    expect((await t.app.db.select().from(jobs).where(eq(jobs.state, 'done'))).length).toBe(5);
    expect(most).toBe(2);
  });

  it('two processes on one database run each job exactly once', async () => {
    const first = queue({ concurrency: 3 });
    const second = queue({ concurrency: 3 });
    const runs: number[] = [];
    for (const jobsQueue of [first, second])
      jobsQueue.handle('test.work', async (payload) => {
        runs.push(payload.n as number);
        await new Promise((resolve) => setImmediate(resolve));
      });
    for (let n = 0; n < 30; n += 1) await first.enqueue(t.app.db, 'test.work', { n });
    while ((await t.app.db.select().from(jobs).where(eq(jobs.state, 'done'))).length < 30)
      await Promise.all([first.runDue(), second.runDue()]);
    expect(runs.toSorted((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, n) => n));
  });

  it('takes up the job of a process that died mid-job once its lease has run out', async () => {
    const jobsQueue = queue();
    const jobId = await jobsQueue.enqueue(t.app.db, 'test.work', { n: 1 });
    // What a process killed while running it leaves: claimed, its lease ended.
    await t.app.db
      .update(jobs)
      .set({ state: 'running', attempts: 1, runAt: sql`now() - interval '1 second'` })
      .where(eq(jobs.jobId, jobId));
    const seen: unknown[] = [];
    jobsQueue.handle('test.work', async (payload) => {
      seen.push(payload);
    });
    await jobsQueue.runDue();
    expect(seen).toEqual([{ n: 1 }]);
    expect(await rowOf(jobId)).toMatchObject({ state: 'done', attempts: 2 });
  });

  it('leaves a running job alone while its process renews the lease', async () => {
    const owner = queue({ leaseSeconds: 3 });
    const other = queue({ leaseSeconds: 3 });
    const release = gate();
    let ownerRuns = 0;
    let otherRuns = 0;
    owner.handle('test.work', async () => {
      ownerRuns += 1;
      await release.opened;
    });
    other.handle('test.work', async () => {
      otherRuns += 1;
    });
    const jobId = await owner.enqueue(t.app.db, 'test.work', {});
    const done = owner.runDue();
    await vi.waitFor(() => expect(ownerRuns).toBe(1), eventually);
    const claimedUntil = (await rowOf(jobId)).runAt;
    // The lease moves on while the job runs (renewed every second).
    await vi.waitFor(
      async () => expect((await rowOf(jobId)).runAt.getTime()).toBeGreaterThan(claimedUntil.getTime()),
      eventually,
    );
    await other.runDue();
    expect(otherRuns).toBe(0);
    release.open();
    await done;
    expect(await rowOf(jobId)).toMatchObject({ state: 'done', attempts: 1 });
  });

  it('once started, runs what is queued by itself (the kick after a commit, then the poll)', async () => {
    const jobsQueue = queue();
    const seen: unknown[] = [];
    jobsQueue.handle('test.work', async (payload) => {
      seen.push(payload);
    });
    jobsQueue.start();
    await jobsQueue.enqueue(t.app.db, 'test.work', { n: 1 });
    jobsQueue.kick();
    await vi.waitFor(() => expect(seen).toEqual([{ n: 1 }]), eventually);
  });

  it('holds a job between its steps while the process is busy (an upload coming in), and at most maxYieldMs in all', async () => {
    let isBusy = true;
    const jobsQueue = queue({ isBusy: () => isBusy, maxYieldMs: 600_000 });
    const steps: string[] = [];
    jobsQueue.handle('test.work', async (_payload, job) => {
      steps.push('first');
      await job.yieldToRequests();
      steps.push('second');
    });
    await jobsQueue.enqueue(t.app.db, 'test.work', {});
    const running = jobsQueue.runDue();
    await vi.waitFor(() => expect(steps).toEqual(['first']), eventually);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(steps).toEqual(['first']);
    isBusy = false;
    await running;
    expect(steps).toEqual(['first', 'second']);

    // Always busy: the job's budget is spent once, across its steps.
    const alwaysBusy = queue({ isBusy: () => true, maxYieldMs: 300 });
    const waits: number[] = [];
    alwaysBusy.handle('test.steps', async (_payload, job) => {
      for (let step = 0; step < 3; step++) {
        const started = performance.now();
        await job.yieldToRequests();
        waits.push(performance.now() - started);
      }
    });
    await alwaysBusy.enqueue(t.app.db, 'test.steps', {});
    await alwaysBusy.runDue();
    expect(waits[0]).toBeGreaterThanOrEqual(250);
    expect(waits.slice(1).every((wait) => wait < 250)).toBe(true);
  });

  it("claims in turns by owner: one owner's many jobs hold another's back by one job, not all of them (issue 40)", async () => {
    const jobsQueue = queue({ concurrency: 1 });
    const order: string[] = [];
    const owners: [number | null, unknown][] = [];
    jobsQueue.handle('test.work', async (payload, job) => {
      order.push(`${payload.who as string}${payload.n as number}`);
      owners.push([job.ownerUserId, payload.owner]);
    });
    const queueFor = async (who: string, owner: number, count: number) => {
      for (let n = 0; n < count; n += 1) await jobsQueue.enqueue(t.app.db, 'test.work', { who, n, owner }, owner);
    };
    // A doctor queues ten files, then two others queue theirs.
    await queueFor('a', 101, 10);
    await queueFor('b', 102, 1);
    await queueFor('c', 103, 2);
    await jobsQueue.runDue();
    // Each owner's oldest first, the owner claimed least recently first; then a's alone.
    expect(order).toEqual(['a0', 'b0', 'c0', 'a1', 'c1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9']);
    // The running job knows its owner (the jobs it queues take the same turn).
    expect(owners.every(([owner, queuedFor]) => owner === queuedFor)).toBe(true);
    // The next round remembers the last: b, whose last claim is older than a's, comes first.
    order.length = 0;
    await queueFor('a', 101, 1);
    await queueFor('b', 102, 1);
    await jobsQueue.runDue();
    expect(order).toEqual(['b0', 'a0']);
  });

  it("claims in turns across processes: another owner's job waits for at most one job per slot", async () => {
    const processes = [queue({ concurrency: 1 }), queue({ concurrency: 1 })];
    // Each job's round: in a round each process claims once, both at the same time.
    const started: { who: string; round: number }[] = [];
    let round = 0;
    for (const jobsQueue of processes)
      jobsQueue.handle('test.work', async (payload) => {
        started.push({ who: payload.who as string, round });
        await new Promise((resolve) => setTimeout(resolve, 20));
      });
    for (let n = 0; n < 8; n += 1) await processes[0]!.enqueue(t.app.db, 'test.work', { who: 'a' }, 101);
    await processes[0]!.enqueue(t.app.db, 'test.work', { who: 'b' }, 102);
    for (; (await t.app.db.select().from(jobs).where(eq(jobs.state, 'done'))).length < 9; round += 1)
      await Promise.all(processes.map((jobsQueue) => jobsQueue.runDue()));
    expect(started).toHaveLength(9);
    // Two slots in all: b's job waits at most one job per slot, so it runs in the first round
    // or the second. Two claims at once on PostgreSQL both see a's turn as not yet taken (the
    // other's claim is not committed), so both can take one of a's first; which of the second
    // round's two jobs starts first is a race, so the round is compared, not the place.
    expect(started.find((job) => job.who === 'b')?.round).toBeLessThanOrEqual(1);
  });

  it('claims only the kinds this process handles', async () => {
    const jobsQueue = queue();
    jobsQueue.handle('test.work', async () => {});
    const other = await jobsQueue.enqueue(t.app.db, 'test.other', {});
    await jobsQueue.runDue();
    expect(await rowOf(other)).toMatchObject({ state: 'queued', attempts: 0 });
  });
});
