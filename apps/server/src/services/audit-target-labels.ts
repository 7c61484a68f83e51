import { caseFileTypeLabel } from '@portal/contract';
import { eq, inArray, sql, type SQLWrapper } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import {
  caseAttachments,
  caseDrafts,
  caseMessageFiles,
  cases,
  doctors,
  pages,
  passkeys,
  planComments,
  planShares,
  planStageFiles,
  roles,
  treatmentPlans,
  users,
} from '../db/schema.ts';
import { fullNameOf } from '../db/user-names.ts';

/** The kinds of record an audit target names (`case:12/plan:3`, `user:5`, ...), as the routes write them. */
const recordKinds = [
  'case',
  'attachment',
  'plan',
  'plan_file',
  'comment',
  'share',
  'message_file',
  'user',
  'doctor',
  'role',
  'page',
  'passkey',
  'draft',
] as const;
type RecordKind = (typeof recordKinds)[number];

type Segment = { kind: RecordKind; id: number } | { kind: 'files.zip' };

const maxInteger = 2 ** 31 - 1;

/**
 * A target's parts, or null when it names no record (a refused request's path, a count of
 * refusals). An id past the integer columns' range names nothing, so it is not looked up.
 */
function segmentsOf(target: string): Segment[] | null {
  const segments: Segment[] = [];
  for (const part of target.split('/')) {
    if (part === 'files.zip') {
      segments.push({ kind: 'files.zip' });
      continue;
    }
    const match = /^([a-z_]+):(-?\d{1,10})$/.exec(part);
    if (!match || !(recordKinds as readonly string[]).includes(match[1]!)) return null;
    segments.push({ kind: match[1] as RecordKind, id: Number(match[2]) });
  }
  return segments;
}

/** What one record contributes to a label; one shape for every kind, so all kinds come back in one query. */
interface RecordFacts {
  kind: string;
  id: number;
  caseId: number | null;
  planId: number | null;
  trackingNo: string | null;
  name: string | null;
  detail: string | null;
  isDeleted: boolean;
}

type FactColumns = { id: SQLWrapper } & Partial<
  Record<'caseId' | 'planId' | 'trackingNo' | 'name' | 'detail' | 'isDeleted', SQLWrapper>
>;

const noInteger = sql<number | null>`null::integer`;
const noText = sql<string | null>`null::text`;
const fullName = fullNameOf();
const isUserDeleted = sql<boolean>`${users.deletedAt} is not null`;

/** The select of one kind's records by id, every column cast so that the branches line up. */
function factsOf(db: Database, kind: RecordKind, ids: number[]) {
  const facts = (columns: FactColumns) => ({
    kind: sql<string>`${kind}::text`,
    id: sql<number>`${columns.id}::integer`,
    caseId: columns.caseId === undefined ? noInteger : sql<number | null>`${columns.caseId}::integer`,
    planId: columns.planId === undefined ? noInteger : sql<number | null>`${columns.planId}::integer`,
    trackingNo: columns.trackingNo === undefined ? noText : sql<string | null>`${columns.trackingNo}::text`,
    name: columns.name === undefined ? noText : sql<string | null>`${columns.name}::text`,
    detail: columns.detail === undefined ? noText : sql<string | null>`${columns.detail}::text`,
    isDeleted: columns.isDeleted === undefined ? sql<boolean>`false` : sql<boolean>`${columns.isDeleted}`,
  });
  const ofCase = { caseId: cases.caseId, trackingNo: cases.trackingNo };
  const ofPlan = { ...ofCase, planId: treatmentPlans.planId, name: treatmentPlans.version };
  switch (kind) {
    case 'case':
      return db
        .select(facts({ id: cases.caseId, ...ofCase }))
        .from(cases)
        .where(inArray(cases.caseId, ids));
    case 'attachment':
      return db
        .select(facts({ id: caseAttachments.attachmentId, ...ofCase, name: caseAttachments.fileType }))
        .from(caseAttachments)
        .innerJoin(cases, eq(cases.caseId, caseAttachments.caseId))
        .where(inArray(caseAttachments.attachmentId, ids));
    case 'plan':
      return db
        .select(facts({ id: treatmentPlans.planId, ...ofPlan }))
        .from(treatmentPlans)
        .innerJoin(cases, eq(cases.caseId, treatmentPlans.caseId))
        .where(inArray(treatmentPlans.planId, ids));
    case 'plan_file':
      return db
        .select(
          facts({
            id: planStageFiles.stageFileId,
            ...ofPlan,
            detail: sql`${planStageFiles.arch} || ' stage ' || ${planStageFiles.stage}`,
          }),
        )
        .from(planStageFiles)
        .innerJoin(treatmentPlans, eq(treatmentPlans.planId, planStageFiles.planId))
        .innerJoin(cases, eq(cases.caseId, treatmentPlans.caseId))
        .where(inArray(planStageFiles.stageFileId, ids));
    case 'comment':
      return db
        .select(facts({ id: planComments.commentId, ...ofPlan }))
        .from(planComments)
        .innerJoin(treatmentPlans, eq(treatmentPlans.planId, planComments.planId))
        .innerJoin(cases, eq(cases.caseId, treatmentPlans.caseId))
        .where(inArray(planComments.commentId, ids));
    case 'share':
      return db
        .select(facts({ id: planShares.shareId, ...ofPlan }))
        .from(planShares)
        .innerJoin(treatmentPlans, eq(treatmentPlans.planId, planShares.planId))
        .innerJoin(cases, eq(cases.caseId, treatmentPlans.caseId))
        .where(inArray(planShares.shareId, ids));
    case 'message_file':
      return db
        .select(facts({ id: caseMessageFiles.fileId, ...ofCase }))
        .from(caseMessageFiles)
        .innerJoin(cases, eq(cases.caseId, caseMessageFiles.caseId))
        .where(inArray(caseMessageFiles.fileId, ids));
    case 'user':
      return db
        .select(facts({ id: users.userId, name: users.userName, detail: fullName, isDeleted: isUserDeleted }))
        .from(users)
        .where(inArray(users.userId, ids));
    case 'doctor':
      return db
        .select(facts({ id: doctors.doctorId, name: users.userName, detail: fullName, isDeleted: isUserDeleted }))
        .from(doctors)
        .innerJoin(users, eq(users.userId, doctors.userId))
        .where(inArray(doctors.doctorId, ids));
    case 'role':
      return db
        .select(facts({ id: roles.roleId, name: roles.roleName }))
        .from(roles)
        .where(inArray(roles.roleId, ids));
    case 'page':
      return db
        .select(facts({ id: pages.pageId, name: pages.pageName }))
        .from(pages)
        .where(inArray(pages.pageId, ids));
    case 'passkey':
      return db
        .select(facts({ id: passkeys.passkeyId, name: passkeys.name, detail: users.userName }))
        .from(passkeys)
        .innerJoin(users, eq(users.userId, passkeys.userId))
        .where(inArray(passkeys.passkeyId, ids));
    case 'draft':
      return db
        .select(facts({ id: caseDrafts.draftId, detail: users.userName }))
        .from(caseDrafts)
        .innerJoin(users, eq(users.userId, caseDrafts.ownerUserId))
        .where(inArray(caseDrafts.draftId, ids));
  }
}

/** Every record the targets name, read in one statement (a branch per kind present). */
async function findRecordFacts(db: Database, targets: Segment[][]): Promise<Map<string, RecordFacts>> {
  const idsByKind = new Map<RecordKind, Set<number>>();
  for (const segment of targets.flat()) {
    if (segment.kind === 'files.zip' || Math.abs(segment.id) > maxInteger) continue;
    idsByKind.set(segment.kind, (idsByKind.get(segment.kind) ?? new Set()).add(segment.id));
  }
  const [first, ...rest] = [...idsByKind].map(([kind, ids]) => factsOf(db, kind, [...ids]));
  if (!first) return new Map();
  const rows: RecordFacts[] = await rest.reduce<ReturnType<typeof factsOf>>(
    (query, next) => query.unionAll(next) as unknown as ReturnType<typeof factsOf>,
    first,
  );
  return new Map(rows.map((row) => [`${row.kind}:${row.id}`, row]));
}

/** How one part reads; a case itself reads as the label's first part, "Case <tracking number>". */
function describe(segment: Segment, facts: RecordFacts | undefined): string | null {
  if (segment.kind === 'files.zip') return 'all files (ZIP)';
  const { name, detail } = facts!;
  const text = {
    case: null,
    attachment: `file ${caseFileTypeLabel(name ?? '')}`,
    plan: `plan v${name}`,
    plan_file: `plan v${name} › ${detail}`,
    comment: `comment ${segment.id}`,
    share: `patient link ${segment.id}`,
    message_file: `message file ${segment.id}`,
    user: `User ${name} (${detail})`,
    doctor: `Doctor ${name} (${detail})`,
    role: `Role '${name}'`,
    page: `page '${name}'`,
    passkey: `Passkey '${name}' of ${detail}`,
    draft: `Draft ${segment.id} of ${detail}`,
  }[segment.kind];
  return text !== null && facts!.isDeleted ? `${text} (deleted)` : text;
}

/**
 * A target's label from the records it names, or null when it names none. A record that is
 * gone, or that is not where the target puts it (a plan of another case), reads as the raw
 * target with "(deleted)".
 */
function labelOf(target: string, segments: Segment[], records: Map<string, RecordFacts>): string {
  const factsOfSegment = (segment: Segment) =>
    segment.kind === 'files.zip' ? undefined : records.get(`${segment.kind}:${segment.id}`);
  const idOf = (kind: RecordKind) => segments.flatMap((segment) => (segment.kind === kind ? [segment.id] : [])).at(0);
  const caseId = idOf('case');
  const planId = idOf('plan');
  const isWhereTargetSays = (segment: Segment) => {
    if (segment.kind === 'files.zip') return true;
    const facts = factsOfSegment(segment);
    return (
      facts !== undefined &&
      (caseId === undefined || facts.caseId === null || facts.caseId === caseId) &&
      (planId === undefined || facts.planId === null || facts.planId === planId)
    );
  };
  if (!segments.every(isWhereTargetSays)) return `${target} (deleted)`;
  const trackingNo = segments.map(factsOfSegment).find((facts) => facts?.trackingNo)?.trackingNo;
  const parts = segments.map((segment) => describe(segment, factsOfSegment(segment)));
  return [trackingNo ? `Case ${trackingNo}` : null, ...parts].filter((part) => part !== null).join(' › ');
}

/**
 * Labels for a page of audit targets, as the records read now (docs/decisions/audit.md § Audit target labels):
 * no patient names, only tracking numbers, file kinds, plan versions and staff's own names.
 */
export async function labelAuditTargets(db: Database, targets: (string | null)[]): Promise<(string | null)[]> {
  const parsed = targets.map((target) => (target ? segmentsOf(target) : null));
  const records = await findRecordFacts(
    db,
    parsed.filter((segments) => segments !== null),
  );
  return targets.map((target, index) => {
    const segments = parsed[index];
    return target && segments ? labelOf(target, segments, records) : null;
  });
}
