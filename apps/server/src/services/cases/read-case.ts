import type { CaseAttachment, CaseDetail, CaseRow } from '@portal/contract';
import { asc, eq } from 'drizzle-orm';
import type { SignedInUser } from '../../auth/policy.ts';
import type { Database } from '../../db/client.ts';
import { caseAttachments, cases, users } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import type { VisibleCase } from './case-access.ts';
import { caseColumns } from './case-rows.ts';
import { findOrderParent, listCaseOrders } from './case-orders.ts';

/**
 * One case as the list rows show it, for its own page, with its newest plan version's state
 * (null before the first), the case it was ordered from and the orders made from it.
 */
export async function getCase(db: Database, actor: SignedInUser, { caseId }: VisibleCase): Promise<CaseDetail> {
  const [found] = await db
    .select({ ...caseColumns, planState: cases.planState })
    .from(cases)
    .innerJoin(users, eq(users.userId, cases.doctorUserId))
    .where(eq(cases.caseId, caseId));
  if (!found) throw notFound('Case');
  const [parent, orders] = await Promise.all([findOrderParent(db, caseId), listCaseOrders(db, actor, caseId)]);
  return {
    ...(found as unknown as CaseRow),
    planState: found.planState,
    parentCaseId: parent?.caseId ?? null,
    parentTrackingNo: parent?.trackingNo ?? null,
    orderType: parent?.orderType ?? null,
    orders: orders.map(({ caseId, trackingNo, orderType, createdAt }) => ({
      caseId,
      trackingNo,
      orderType,
      createdAt,
    })),
  };
}

/** A case's files as listed: the attachment id stands where the answer has its download address. */
export type CaseAttachmentRow = Omit<CaseAttachment, 'FilePath'> & { attachmentId: number };

export async function listCaseAttachments(db: Database, { caseId }: VisibleCase): Promise<CaseAttachmentRow[]> {
  const rows = await db
    .select({
      attachmentId: caseAttachments.attachmentId,
      FileName: caseAttachments.fileName,
      FileType: caseAttachments.fileType,
      FileSize: caseAttachments.fileSize,
      Sha256: caseAttachments.sha256,
    })
    .from(caseAttachments)
    .where(eq(caseAttachments.caseId, caseId))
    .orderBy(asc(caseAttachments.attachmentId));
  return rows.map((row) => ({ ...row, FileType: row.FileType as CaseAttachment['FileType'] }));
}
