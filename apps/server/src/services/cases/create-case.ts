import {
  caseFieldValues,
  caseFileMessages,
  caseSubmission,
  requiredMessage,
  toFieldErrors,
  type CaseSubmission,
} from '@portal/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { isDoctor, type SignedInUser } from '../../auth/policy.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { caseAttachments, cases, caseStatusHistory, clinics, doctors, users } from '../../db/schema.ts';
import { badRequest, isUniqueViolation } from '../../lib/errors.ts';
import { deleteKeys } from '../../storage/delete-keys.ts';
import type { Storage } from '../../storage/storage.ts';
import { deleteDraft } from './case-drafts.ts';
import type { ReceivedCaseUpload, StoredCaseFile } from './receive-case-upload.ts';
import { makeTrackingNo } from './tracking-number.ts';

const trackingAttempts = 5;

/** The form's fields and files together: the contract's rules, the files refused, and the scan a digital impression needs. */
function validateSubmission(upload: ReceivedCaseUpload): CaseSubmission {
  const parsed = caseSubmission.safeParse(upload.fields);
  const fieldErrors: Record<string, string> = parsed.success ? {} : toFieldErrors(parsed.error);
  Object.assign(fieldErrors, upload.fileErrors);
  const isDigital = parsed.success
    ? parsed.data.impressionType === 'Digital Impression'
    : upload.fields.impressionType === 'Digital Impression';
  if (isDigital && !upload.files.some((file) => file.fileType === 'MaxillaryScan')) {
    fieldErrors.maxillaryScan ??= caseFileMessages.maxillaryScanRequired;
  }
  const messages = Object.values(fieldErrors);
  if (messages.length > 0 || !parsed.success) throw badRequest(messages[0] ?? 'Invalid request', fieldErrors);
  return parsed.data;
}

/** The doctor the case is for: the caller when a doctor submits, else the doctor named by `userId`. */
async function resolveCaseDoctor(
  tx: Transaction,
  actor: SignedInUser,
  requested: number | null,
): Promise<{ userId: number; doctorId: number }> {
  if (isDoctor(actor)) return { userId: actor.userId, doctorId: actor.doctorId! };
  if (!requested) throw badRequest(requiredMessage('Doctor'), { userId: requiredMessage('Doctor') });
  const [doctor] = await tx
    .select({ doctorId: doctors.doctorId })
    .from(doctors)
    .innerJoin(users, eq(users.userId, doctors.userId))
    .where(and(eq(doctors.userId, requested), isNull(users.deletedAt)));
  if (!doctor) throw badRequest('Doctor is not valid', { userId: 'Doctor is not valid' });
  return { userId: requested, doctorId: doctor.doctorId };
}

async function assertClinicOfDoctor(tx: Transaction, clinicId: number, doctorId: number): Promise<void> {
  const [clinic] = await tx
    .select({ clinicId: clinics.clinicId })
    .from(clinics)
    .where(and(eq(clinics.clinicId, clinicId), eq(clinics.doctorId, doctorId), isNull(clinics.deletedAt)));
  if (!clinic) throw badRequest('Clinic is not valid', { clinicId: 'Clinic is not valid' });
}

async function insertCase(
  db: Database,
  actor: SignedInUser,
  input: CaseSubmission,
  files: StoredCaseFile[],
  trackingNo: string,
): Promise<{ caseId: number; trackingNo: string }> {
  return db.transaction(async (tx) => {
    const doctor = await resolveCaseDoctor(tx, actor, input.userId);
    await assertClinicOfDoctor(tx, input.clinicId, doctor.doctorId);
    const [created] = await tx
      .insert(cases)
      .values({
        ...caseFieldValues(input),
        trackingNo,
        doctorUserId: doctor.userId,
        termsAcceptedAt: new Date(),
        createdBy: actor.userId,
      })
      .returning({ caseId: cases.caseId });
    const caseId = created!.caseId;
    if (files.length > 0) {
      await tx.insert(caseAttachments).values(
        files.map((file) => ({
          caseId,
          fileType: file.fileType,
          fileName: file.fileName,
          storageKey: file.storageKey,
          contentType: file.contentType,
          fileSize: file.size,
          sha256: file.sha256,
        })),
      );
    }
    await tx.insert(caseStatusHistory).values({ caseId, fromStatus: null, toStatus: 'new', changedBy: actor.userId });
    // The draft it was written in goes with the case's creation: both, or (another's draft: 404) neither.
    if (input.draftId !== undefined) await deleteDraft(tx, actor, input.draftId);
    return { caseId, trackingNo };
  });
}

/**
 * Validates a received upload and records the case, its attachments and its first status in
 * one transaction, with a fresh tracking number on the rare collision. On any failure the
 * stored files are deleted: a refused submission leaves nothing behind.
 */
export async function createCase(
  deps: { db: Database; storage: Storage; makeTrackingNo?: () => string },
  actor: SignedInUser,
  upload: ReceivedCaseUpload,
): Promise<{ caseId: number; trackingNo: string }> {
  const nextTrackingNo = deps.makeTrackingNo ?? (() => makeTrackingNo());
  try {
    const input = validateSubmission(upload);
    for (let attempt = 1; ; attempt++) {
      try {
        return await insertCase(deps.db, actor, input, upload.files, nextTrackingNo());
      } catch (error) {
        if (attempt >= trackingAttempts || !isUniqueViolation(error, 'cases_tracking_no_unique')) throw error;
      }
    }
  } catch (error) {
    await deleteKeys(
      deps.storage,
      upload.files.map((file) => file.storageKey),
    );
    throw error;
  }
}
