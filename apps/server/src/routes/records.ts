import { recordKinds, type Endpoint, type RecordKind, type NotFoundSubject } from '@portal/contract';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import {
  assertCaseDoctor,
  assertMayReadMenu,
  assertOwnRecordIfDoctor,
  caseOwnerScope,
  isDoctorSide,
  type SignedInUser,
} from '../auth/policy.ts';
import {
  caseDrafts,
  passkeys,
  planComments,
  planShares,
  progressScans,
  sessions,
  treatmentPlans,
} from '../db/schema.ts';
import { notFound } from '../lib/errors.ts';
import { findOwnAssistant } from '../services/assistants.ts';
import { findVisibleCase, type VisibleCase } from '../services/cases/case-access.ts';
import { findCaseFile, type CaseFileDownload } from '../services/cases/case-files.ts';

/**
 * The records a route acts on (`record` in its endpoint row, `recordKinds` in the contract),
 * resolved in the caller's reach before the handler runs: a record out of reach answers as
 * it always did (404 "<Record> not found", or 403 where `reach` says), and the handler gets
 * the record as `request.record`. See docs/decisions/access.md § Records by construction.
 */
export interface RecordTypes {
  case: VisibleCase;
  caseStaff: VisibleCase;
  /** The case, its doctor the caller; the plan version itself is read with the decision. */
  casePlan: VisibleCase & { planId: number };
  planVersion: VisibleCase & { planId: number };
  planComment: VisibleCase & { planId: number; commentId: number };
  progressScan: VisibleCase & { progressScanId: number };
  casePlanComment: VisibleCase & { planId: number; commentId: number };
  casePlanShare: VisibleCase & { planId: number; shareId: number };
  caseOwner: { doctorUserIds: readonly number[] | null };
  caseFile: CaseFileDownload;
  messageFile: CaseFileDownload;
  planFile: CaseFileDownload;
  draft: { draftId: number };
  doctor: { doctorId: number };
  doctorUser: { userId: number };
  picture: { userId: number };
  session: { sessionId: string };
  passkey: { passkeyId: number };
  assistant: { assistantUserId: number };
  roleMenu: { roleId: number };
}

/** `request.record` of a row: the resolved record, or nothing for a row without one. */
export type RecordOf<E extends Endpoint> = E['record'] extends RecordKind ? RecordTypes[E['record']] : undefined;

/** The path parameters of a kind, as the row's params schema parsed them. */
type Params = Record<string, unknown>;
type Resolver<K extends RecordKind> = (
  app: FastifyInstance,
  user: SignedInUser,
  params: Params,
) => Promise<RecordTypes[K]> | RecordTypes[K];

const id = (params: Params, name: string) => params[name] as number;

/** A row that hangs from a plan version of the caller's own case (a comment, a link): 404 `what` when it does not. */
async function ownCasePlanRow<Row extends { planId: number }>(
  app: FastifyInstance,
  user: SignedInUser,
  params: Params,
  what: NotFoundSubject,
  findRow: (caseId: number) => Promise<Row[]>,
): Promise<VisibleCase & Row> {
  const found = await findVisibleCase(app.db, user, id(params, 'caseId'));
  assertCaseDoctor(user, found.doctorUserId);
  const [row] = await findRow(found.caseId);
  if (!row) throw notFound(what);
  return { ...found, ...row };
}

/** The comment `:commentId` on version `:planId` of the case, if it is there (none of another case's). */
const commentOnCase = (app: FastifyInstance, params: Params, caseId: number) =>
  app.db
    .select({ planId: planComments.planId, commentId: planComments.commentId })
    .from(planComments)
    .innerJoin(treatmentPlans, eq(treatmentPlans.planId, planComments.planId))
    .where(
      and(
        eq(planComments.commentId, id(params, 'commentId')),
        eq(planComments.planId, id(params, 'planId')),
        eq(treatmentPlans.caseId, caseId),
      ),
    );

const resolvers: { [K in RecordKind]: Resolver<K> } = {
  case: (app, user, params) => findVisibleCase(app.db, user, id(params, 'caseId')),
  caseStaff(app, user, params) {
    // What staff alone read: to a doctor or an assistant, even the case's own, it does not exist.
    if (isDoctorSide(user)) throw notFound('Case');
    return findVisibleCase(app.db, user, id(params, 'caseId'));
  },
  async casePlan(app, user, params) {
    const found = await findVisibleCase(app.db, user, id(params, 'caseId'));
    assertCaseDoctor(user, found.doctorUserId);
    return { ...found, planId: id(params, 'planId') };
  },
  casePlanComment: (app, user, params) =>
    ownCasePlanRow(app, user, params, 'Comment', (caseId) => commentOnCase(app, params, caseId)),
  casePlanShare: (app, user, params) =>
    ownCasePlanRow(app, user, params, 'Link', (caseId) =>
      app.db
        .select({ planId: planShares.planId, shareId: planShares.shareId })
        .from(planShares)
        .innerJoin(treatmentPlans, eq(treatmentPlans.planId, planShares.planId))
        .where(
          and(
            eq(planShares.shareId, id(params, 'shareId')),
            eq(planShares.planId, id(params, 'planId')),
            eq(treatmentPlans.caseId, caseId),
          ),
        ),
    ),
  async planVersion(app, user, params) {
    const found = await findVisibleCase(app.db, user, id(params, 'caseId'));
    const [plan] = await app.db
      .select({ planId: treatmentPlans.planId })
      .from(treatmentPlans)
      .where(and(eq(treatmentPlans.planId, id(params, 'planId')), eq(treatmentPlans.caseId, found.caseId)));
    if (!plan) throw notFound('Plan');
    return { ...found, planId: plan.planId };
  },
  async progressScan(app, user, params) {
    const found = await findVisibleCase(app.db, user, id(params, 'caseId'));
    const [scan] = await app.db
      .select({ progressScanId: progressScans.progressScanId })
      .from(progressScans)
      .where(
        and(eq(progressScans.progressScanId, id(params, 'progressScanId')), eq(progressScans.caseId, found.caseId)),
      );
    if (!scan) throw notFound('Progress scan');
    return { ...found, progressScanId: scan.progressScanId };
  },
  async planComment(app, user, params) {
    const found = await findVisibleCase(app.db, user, id(params, 'caseId'));
    const [comment] = await commentOnCase(app, params, found.caseId);
    if (!comment) throw notFound('Comment');
    return { ...found, ...comment };
  },
  caseOwner: (_app, user, params) => ({ doctorUserIds: caseOwnerScope(user, id(params, 'userId')) }),
  caseFile: (app, user, params) => findCaseFile(app, user, 'attachment', id(params, 'attachmentId')),
  messageFile: (app, user, params) => findCaseFile(app, user, 'message', id(params, 'fileId')),
  planFile: (app, user, params) => findCaseFile(app, user, 'planStage', id(params, 'stageFileId')),
  async draft(app, user, params) {
    const [found] = await app.db
      .select({ draftId: caseDrafts.draftId })
      .from(caseDrafts)
      .where(and(eq(caseDrafts.draftId, id(params, 'draftId')), eq(caseDrafts.ownerUserId, user.userId)));
    if (!found) throw notFound('Draft');
    return found;
  },
  doctor(_app, user, params) {
    assertOwnRecordIfDoctor(user, { doctorId: id(params, 'id') });
    return { doctorId: id(params, 'id') };
  },
  doctorUser(_app, user, params) {
    assertOwnRecordIfDoctor(user, { userId: id(params, 'id') });
    return { userId: id(params, 'id') };
  },
  picture(_app, user, params) {
    assertOwnRecordIfDoctor(user, { userId: id(params, 'userId') }, 'Picture');
    return { userId: id(params, 'userId') };
  },
  async session(app, user, params) {
    const [found] = await app.db
      .select({ sessionId: sessions.sessionId })
      .from(sessions)
      .where(and(eq(sessions.sessionId, params.sessionId as string), eq(sessions.userId, user.userId)));
    if (!found) throw notFound('Session');
    return found;
  },
  async passkey(app, user, params) {
    const [found] = await app.db
      .select({ passkeyId: passkeys.passkeyId })
      .from(passkeys)
      .where(and(eq(passkeys.passkeyId, id(params, 'id')), eq(passkeys.userId, user.userId)));
    if (!found) throw notFound('Passkey');
    return found;
  },
  assistant: (app, user, params) => findOwnAssistant(app.db, user.userId, id(params, 'assistantUserId')),
  roleMenu(_app, user, params) {
    assertMayReadMenu(user, id(params, 'roleId'));
    return { roleId: id(params, 'roleId') };
  },
};

declare module 'fastify' {
  interface FastifyRequest {
    /** The record the route's endpoint row names, resolved in the caller's reach (routes/records.ts). */
    record: unknown;
  }
}

/**
 * The preHandler that resolves a row's record: after the caller is known (plugins/auth.ts)
 * and the params are parsed, before the handler and before a streamed body is read. A row
 * must name its record's params and cannot be public (a record is in someone's reach).
 */
export function recordResolver(endpoint: Endpoint): preHandlerAsyncHookHandler | undefined {
  const kind = endpoint.record;
  if (!kind) return undefined;
  const paramNames = Object.keys(endpoint.params?.shape ?? {});
  const missing = recordKinds[kind].params.filter((name) => !paramNames.includes(name));
  if (endpoint.access === 'public' || missing.length > 0) {
    throw new Error(`${endpoint.method} ${endpoint.path}: record '${kind}' needs a caller and the params ${missing}`);
  }
  const resolve = resolvers[kind] as Resolver<RecordKind>;
  return async function resolveRecord(request) {
    request.record = await resolve(request.server, request.user!, request.params as Params);
  };
}
