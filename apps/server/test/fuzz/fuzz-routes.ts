import { ADMIN_ROLE_ID, endpoints, isStreamAnswer, type Endpoint } from '@portal/contract';
import { and, asc, eq, getTableColumns, isNotNull, isNull, or, sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { doctorAssistants, liveRoleId, users } from '../../src/db/schema.ts';
import { startSession } from '../../src/services/sessions.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { changedParts, fingerprint, type Fingerprint } from './fingerprint.ts';
import type { OtherDoctor } from './isolation.ts';
import { requestArbitrary, type Actor, type FuzzRequest } from './requests.ts';
import { examples, type Example, type Fixture } from './route-examples.ts';

export interface FuzzRoute {
  key: string;
  method: string;
  /** The path as registered, with `:param` and `*`. */
  pattern: string;
  example: Example;
}

/** How long one route is fuzzed: a number of runs (`npm run fuzz`), or a time budget (`npm test`). */
export type FuzzBudget = { runs: number } | { ms: number };

export interface FuzzStats {
  requests: number;
  statuses: Record<string, number>;
  serverErrors: number;
  stackTraces: number;
  refusedWrites: number;
  malformedRefusals: number;
  /** 2xx answers to the doctor that named another doctor's records, or requests that changed them. */
  otherDoctorLeaks: number;
  /** 2xx answers checked for the other doctor's records. */
  otherDoctorChecked: number;
}

const streamPaths = new Set(
  (Object.values(endpoints) as Endpoint[]).filter((row) => isStreamAnswer(row.answer)).map((row) => row.path),
);

/**
 * Every route Fastify registered under /api, and the docs routes it has (registered before
 * the auth plugin records routes), each with its example; `missing` names routes without one.
 */
export function routesToFuzz(t: TestApp, fixture: Fixture): { routes: FuzzRoute[]; missing: string[] } {
  const docs = Object.keys(examples)
    .filter((key) => key.startsWith('GET /api/docs'))
    .flatMap((key) => ['GET', 'HEAD'].map((method) => ({ method, url: key.slice(4) })))
    .filter((route) => t.app.hasRoute(route));
  const routes: FuzzRoute[] = [];
  const missing: string[] = [];
  for (const { method, url } of [...t.app.apiRoutes, ...docs]) {
    const key = `${method} ${url}`;
    const build = examples[key] ?? examples[`GET ${url}`];
    // An event stream's GET stays open once allowed: its HEAD runs the same checks and parsing.
    const sendAs = method === 'GET' && streamPaths.has(url) ? 'HEAD' : method;
    if (build) routes.push({ key, method: sendAs, pattern: url, example: build(fixture) });
    else missing.push(`${key} has no example in test/fuzz/route-examples.ts`);
  }
  return { routes, missing };
}

/** Tokens live an hour (the test config's TTL); a long fuzz run issues new ones well before. */
const tokenReuseMs = 10 * 60_000;

/** A stack frame (`at fn (/path/file.ts:1:2)`), a source position, or a dependency path. */
export const hasStackTrace = (text: string) =>
  /\bat (?:async )?(?:\S+ )?\(?(?:file:\/\/|node:|\/)\S*:\d+:\d+|\.(?:ts|js|mjs|cjs):\d+:\d+|node_modules/.test(text);
const isText = (response: LightMyRequestResponse) =>
  response.statusCode >= 400 || /json|text|html|yaml/.test(String(response.headers['content-type'] ?? ''));

function isErrorAnswer(response: LightMyRequestResponse): boolean {
  try {
    const body = response.json<{ message?: unknown }>();
    return typeof body.message === 'string' && body.message.length > 0;
  } catch {
    return false;
  }
}

/**
 * Sends fuzzed requests and checks each answer. Tokens are issued for whoever holds the
 * role now, again after every write: fuzzing may log out, re-password, demote, deactivate
 * or delete anyone.
 */
export class RouteFuzzer {
  readonly stats: FuzzStats = {
    requests: 0,
    statuses: {},
    serverErrors: 0,
    stackTraces: 0,
    refusedWrites: 0,
    malformedRefusals: 0,
    otherDoctorLeaks: 0,
    otherDoctorChecked: 0,
  };
  /** The state after the last request, which is the state before the next one. */
  private lastState: Fingerprint | undefined;
  /** The other doctor's rows after the last request that wrote anything. */
  private lastOther: string | undefined;

  private readonly t: TestApp;
  private readonly fixture: Fixture;
  private readonly other: OtherDoctor | undefined;

  /**
   * With `other`, every answer to the doctor (always the fixture's, restored when fuzzing
   * removed it) is also checked never to name `other`'s records in a 2xx, nor change them.
   */
  constructor(t: TestApp, fixture: Fixture, other?: OtherDoctor) {
    this.t = t;
    this.fixture = fixture;
    this.other = other;
  }

  /** Tokens issued since the last write: any write may have made them invalid. */
  private readonly tokens = new Map<Actor, { token: string; issuedAt: number }>();

  private async tokenOf(actor: Actor): Promise<string | undefined> {
    if (actor === 'anonymous') return undefined;
    const cached = this.tokens.get(actor);
    if (cached && performance.now() - cached.issuedAt < tokenReuseMs) return cached.token;
    if (actor === 'assistant') await this.restoreAssistantsReach();
    const user = (await this.holderOf(actor)) ?? (await this.restoreDoctor(actor));
    if (!user) throw new Error(`no active ${actor} is left`);
    const { token } = await startSession(this.t.app.db, this.t.app.tokens, user, {
      ip: '127.0.0.1',
      userAgent: 'fuzz',
    });
    // Signing in writes a session row: the next request's "before" is read after it.
    this.lastState = undefined;
    this.tokens.set(actor, { token, issuedAt: performance.now() });
    return token;
  }

  private async holderOf(actor: Exclude<Actor, 'anonymous'>) {
    const holder =
      actor === 'admin'
        ? eq(users.roleId, ADMIN_ROLE_ID)
        : actor === 'assistant'
          ? eq(users.userId, this.fixture.assistant.userId)
          : this.other
            ? eq(users.userId, this.fixture.doctor.userId)
            : eq(users.userType, 'Doctor');
    const [user] = await this.t.app.db
      .select({ ...getTableColumns(users), roleId: liveRoleId })
      .from(users)
      .where(and(holder, eq(users.isActive, true), isNull(users.deletedAt)))
      .orderBy(asc(users.userId))
      .limit(1);
    return user;
  }

  /** Fuzzing deleted or deactivated every doctor (or the assistant): the fixture's comes back for the next runs. */
  private async restoreDoctor(actor: Exclude<Actor, 'anonymous'>) {
    if (actor !== 'doctor' && actor !== 'assistant') return undefined;
    await this.t.app.db
      .update(users)
      .set({ isActive: true, deletedAt: null, userName: sql`${users.userName} || '-restored'` })
      .where(eq(users.userId, actor === 'doctor' ? this.fixture.doctor.userId : this.fixture.assistant.userId));
    this.lastState = undefined;
    return this.holderOf(actor);
  }

  /**
   * The assistant acts with the reach of an assistant: the doctor's revoke, deactivation or
   * deletion by earlier requests is undone before their next token (only when it happened).
   */
  private async restoreAssistantsReach() {
    const { db } = this.t.app;
    const doctor = await db
      .update(users)
      .set({ isActive: true, deletedAt: null, userName: sql`${users.userName} || '-restored'` })
      .where(
        and(eq(users.userId, this.fixture.doctor.userId), or(eq(users.isActive, false), isNotNull(users.deletedAt))),
      )
      .returning({ userId: users.userId });
    const link = await db
      .update(doctorAssistants)
      .set({ revokedAt: null })
      .where(
        and(
          eq(doctorAssistants.doctorUserId, this.fixture.doctor.userId),
          eq(doctorAssistants.assistantUserId, this.fixture.assistant.userId),
          isNotNull(doctorAssistants.revokedAt),
        ),
      )
      .returning({ assistantUserId: doctorAssistants.assistantUserId });
    if (doctor.length > 0 || link.length > 0) this.lastState = undefined;
  }

  async send(route: FuzzRoute, request: FuzzRequest): Promise<string[]> {
    const token = await this.tokenOf(request.actor);
    const before = this.lastState ?? (await fingerprint(this.t));
    const isWatched = this.other !== undefined && (request.actor === 'doctor' || request.actor === 'assistant');
    const otherBefore = isWatched ? (this.lastOther ??= await this.other!.rows()) : undefined;
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (request.body.contentType !== undefined) headers['content-type'] = request.body.contentType;
    const response = await this.t.app.inject({
      method: route.method as 'GET',
      url: request.query ? `${request.path}?${request.query}` : request.path,
      headers,
      payload: request.body.payload,
    });
    const after = await fingerprint(this.t);
    this.lastState = after;
    const changed = changedParts(before, after);
    if (changed.length > 0) this.tokens.clear();
    const problems = this.check(route, response, changed);
    // The admin's writes may change the other doctor's rows: read them again before the doctor's next request.
    if (changed.length > 0 && !isWatched) this.lastOther = undefined;
    if (isWatched) problems.push(...(await this.checkOther(response, changed, otherBefore!)));
    return problems;
  }

  /** The doctor's 2xx names none of the other doctor's records, and no answer to the doctor changed them. */
  private async checkOther(response: LightMyRequestResponse, changed: string[], otherBefore: string) {
    const problems: string[] = [];
    if (response.statusCode >= 200 && response.statusCode < 300) {
      this.stats.otherDoctorChecked++;
      const found = this.other!.findIn(response.body);
      if (found !== undefined) {
        this.stats.otherDoctorLeaks++;
        problems.push(
          `answered ${response.statusCode} with the other doctor's ${found}: ${response.body.slice(0, 500)}`,
        );
      }
    }
    // Not only after `changed`: messages, plans, drafts and preferences are not among the counted tables.
    this.lastOther = await this.other!.rows();
    if (this.lastOther !== otherBefore) {
      this.stats.otherDoctorLeaks++;
      problems.push(
        `answered ${response.statusCode} and changed the other doctor's rows (${changed.join(', ') || 'uncounted tables'})`,
      );
    }
    return problems;
  }

  private check(route: FuzzRoute, response: LightMyRequestResponse, changed: string[]) {
    const { statusCode: status } = response;
    const statusClass = `${Math.floor(status / 100)}xx`;
    this.stats.requests++;
    this.stats.statuses[statusClass] = (this.stats.statuses[statusClass] ?? 0) + 1;
    const problems: string[] = [];
    const excerpt = response.body.slice(0, 500);
    if (status >= 500) {
      this.stats.serverErrors++;
      problems.push(`answered ${status}: ${excerpt}`);
    }
    if (isText(response) && hasStackTrace(response.body)) {
      this.stats.stackTraces++;
      problems.push(`a stack trace in the answer (${status}): ${excerpt}`);
    }
    if (status >= 400 && status < 500) {
      if (changed.length > 0) {
        this.stats.refusedWrites++;
        problems.push(`refused with ${status} but changed ${changed.join(', ')}`);
      }
      if (route.method !== 'HEAD' && !isErrorAnswer(response)) {
        this.stats.malformedRefusals++;
        problems.push(`refused with ${status} without { message }: ${excerpt}`);
      }
    }
    return problems;
  }

  /**
   * Requests for one route, `runs` of them, or as many as `budgetMs` allows (a pass that
   * depends on no machine's speed); fast-check reports the seed, path and (shrunk)
   * counterexample, which replay the failure either way.
   */
  async fuzz(
    route: FuzzRoute,
    options: { budget: FuzzBudget; seed: number; path?: string; actor?: Actor; ids?: readonly string[] },
  ): Promise<void> {
    const requests = requestArbitrary(this.t, route, this.fixture, { actor: options.actor, ids: options.ids });
    const { budget } = options;
    // fast-check's time limit races the run in progress and returns without waiting for it:
    // the last request is awaited here, so the next route starts from the state it left.
    let last: { request: FuzzRequest; sent: Promise<string[]> } | undefined;
    const property = fc.asyncProperty(requests, async (request) => {
      last = { request, sent: this.send(route, request) };
      const problems = await last.sent;
      if (problems.length > 0) throw new Error(`${route.key}: ${problems.join('; ')}`);
    });
    const details = await fc.check(property, {
      seed: options.seed,
      path: options.path,
      includeErrorInReport: true,
      ...('runs' in budget
        ? { numRuns: budget.runs }
        : { numRuns: Number.MAX_SAFE_INTEGER, interruptAfterTimeLimit: budget.ms, markInterruptAsFailure: false }),
    });
    const problems = await last?.sent;
    // fast-check fails a time limit that came before its first run ended ("interrupted after 0
    // tests"): on a loaded machine that is the machine's speed, not a finding. The run it cut
    // is awaited and checked here, and a route whose time ran out before any run gets one.
    const isCutInFirstRun = details.interrupted && details.numRuns === 0 && details.counterexample === null;
    if (details.failed && !isCutInFirstRun) throw new Error(await fc.asyncDefaultReportMessage(details));
    if (problems?.length) {
      throw new Error(
        `${route.key}: ${problems.join('; ')} (the run the time limit cut: ${JSON.stringify(last!.request)})`,
      );
    }
    if (last === undefined) await fc.assert(property, { seed: options.seed, numRuns: 1, includeErrorInReport: true });
  }
}
