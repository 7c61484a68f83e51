import {
  progressScanArch,
  summarizeProgress,
  toothLabel,
  type NumberingSystem,
  type ProgressScanArch,
  type ServerMessageCode,
  type ServerMessageParams,
} from '@portal/contract';
import { and, desc, eq } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { cases, progressScans, users } from '../../db/schema.ts';
import { enqueueCaseMail } from '../../mail/case-mail.ts';
import { findLabStaff } from '../../mail/lab-staff.ts';
import type { MailOutbox } from '../../mail/outbox.ts';
import { personName } from '../accounts.ts';
import { readUserToothNotation } from '../user-tooth-notation.ts';

/**
 * How a progress scan's fit ends (docs/decisions/progress-scans.md): the scan's row, the case's
 * "Off track" mark for the lists and the lab's mail, in one transaction, so a mail never tells
 * of a result that was rolled back and a result is never stored without its mail; the outbox
 * sends after the commit.
 */

export interface ProgressOutcomeDeps {
  db: Database;
  outbox: MailOutbox;
  publicUrl: string;
}

type ViewColumns = 'upperViewKey' | 'upperViewBytes' | 'lowerViewKey' | 'lowerViewBytes';

export type ProgressOutcome =
  | { state: 'done'; arches: ProgressScanArch[]; views?: Pick<typeof progressScans.$inferInsert, ViewColumns> }
  | { state: 'failed'; reason: string; code?: ServerMessageCode; params?: ServerMessageParams };

/**
 * cases.off_track from the case's latest done scan (the latest sent, not the latest fitted: a
 * retried fit of an older scan must not speak for the mouth as it is now).
 */
async function markOffTrack(tx: Transaction, caseId: number): Promise<void> {
  const [latest] = await tx
    .select({ arches: progressScans.arches })
    .from(progressScans)
    .where(and(eq(progressScans.caseId, caseId), eq(progressScans.state, 'done')))
    .orderBy(desc(progressScans.createdAt), desc(progressScans.progressScanId))
    .limit(1);
  const offTrack = latest
    ? summarizeProgress(progressScanArch.array().parse(latest.arches ?? [])).offTrackTeeth.length > 0
    : false;
  await tx
    .update(cases)
    .set({ offTrack })
    .where(and(eq(cases.caseId, caseId), eq(cases.offTrack, !offTrack)));
}

/** A done scan's summary as the lab's mail carries it: the sentence, and its counts and teeth for another language's. */
function summaryVariables(arches: readonly ProgressScanArch[], system: NumberingSystem): Record<string, string> {
  const summary = summarizeProgress(arches, system);
  return {
    summary: summary.sentence,
    teethTotal: String(summary.teeth),
    teethOffTrack: String(summary.offTrackTeeth.length),
    offTrackTeeth: summary.offTrackTeeth.map((tooth) => toothLabel(tooth, system)).join(', '),
  };
}

/** Tells every Dashboard staff user, as each chose for progress mails: the case, its doctor, the aligner and the result. */
async function mailLab(
  tx: Transaction,
  deps: ProgressOutcomeDeps,
  scan: { caseId: number; stage: number },
  outcome: ProgressOutcome,
): Promise<void> {
  const [row] = await tx
    .select({
      trackingNo: cases.trackingNo,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(cases)
    .innerJoin(users, eq(users.userId, cases.doctorUserId))
    .where(eq(cases.caseId, scan.caseId));
  if (!row) return;
  const template = outcome.state === 'done' ? 'progressScanDone' : 'progressScanFailed';
  for (const staff of await findLabStaff(tx)) {
    // The teeth in each reader's notation, as on their screens (docs/decisions/tooth-notation.md);
    // the counts and the teeth beside the English sentence: another language writes its own (mail/templates.ts).
    const told: Record<string, string> =
      outcome.state === 'done'
        ? summaryVariables(outcome.arches, await readUserToothNotation(tx, staff.userId))
        : {
            reason: outcome.reason,
            ...(outcome.code && { reasonCode: outcome.code, reasonParams: JSON.stringify(outcome.params ?? {}) }),
          };
    await enqueueCaseMail(tx, deps.outbox, {
      to: staff.email,
      userId: staff.userId,
      caseId: scan.caseId,
      template,
      variables: {
        name: personName(staff),
        doctorName: personName(row),
        trackingNo: row.trackingNo,
        stage: String(scan.stage),
        caseUrl: `${deps.publicUrl}/cases/${scan.caseId}`,
        ...told,
      },
    });
  }
}

/** Stores the fit's result or refusal, marks the case for the lists and mails the lab; sends after the commit. */
export async function finishProgressScan(
  deps: ProgressOutcomeDeps,
  scan: { progressScanId: number; caseId: number; stage: number },
  outcome: ProgressOutcome,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    // One outcome at a time per case (two fits may end together): the latest done scan is read as it is.
    await tx.select({ caseId: cases.caseId }).from(cases).where(eq(cases.caseId, scan.caseId)).for('update');
    const [stored] = await tx
      .update(progressScans)
      .set(
        outcome.state === 'done'
          ? { state: 'done', arches: outcome.arches, reason: null, finishedAt: new Date(), ...outcome.views }
          : {
              state: 'failed',
              reason: outcome.reason,
              reasonCode: outcome.code ?? null,
              reasonParams: outcome.params ?? null,
              finishedAt: new Date(),
            },
      )
      .where(eq(progressScans.progressScanId, scan.progressScanId))
      .returning({ progressScanId: progressScans.progressScanId });
    if (!stored) return;
    if (outcome.state === 'done') await markOffTrack(tx, scan.caseId);
    await mailLab(tx, deps, scan, outcome);
  });
  deps.outbox.kick();
}
