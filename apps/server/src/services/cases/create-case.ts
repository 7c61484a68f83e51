import {
  caseFieldValues,
  caseFileMessages,
  caseSubmission,
  caseUploadNames,
  maxOtherFiles,
  otherFilesField,
  requiredMessage,
  toFieldErrors,
  type CaseSubmission,
} from '@portal/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { isAssistant, isDoctor, type SignedInUser } from '../../auth/policy.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { caseAttachments, cases, caseStatusHistory, clinics, doctors, users } from '../../db/schema.ts';
import { badRequest, isUniqueViolation } from '../../lib/errors.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { findLabStaff } from '../../mail/lab-staff.ts';
import { enqueueCaseMail } from '../../mail/case-mail.ts';
import type { MailOutbox } from '../../mail/outbox.ts';
import { personName } from '../accounts.ts';
import { queueMeshViews } from '../mesh-views.ts';
import { deleteKeys } from '../../storage/delete-keys.ts';
import type { Storage } from '../../storage/storage.ts';
import { claimUploads, resolveNamedUploads } from '../uploads/uploads.ts';
import { assertNoNul } from '../../lib/nul-text.ts';
import { assertOrderParent } from './case-orders.ts';
import { deleteDraft } from './case-drafts.ts';
import { withProgressScanFiles } from './order-from-scan.ts';
import type { ReceivedCaseUpload, StoredCaseFile } from './receive-case-upload.ts';
import { makeTrackingNo } from './tracking-number.ts';

const trackingAttempts = 5;

/** The form's fields and files together: the contract's rules, the files refused, and the scan a digital impression needs. */
function validateSubmission(upload: ReceivedCaseUpload): CaseSubmission {
  assertNoNul(upload.fields);
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
  // Once parsed too: a JSON field spells a NUL as \u0000.
  assertNoNul(parsed.data);
  return parsed.data;
}

/**
 * The doctor the case is for: the caller when a doctor submits, else the doctor named by
 * `userId`, who for an assistant must be one of their doctors (docs/decisions/assistants.md § Assistants).
 */
async function resolveCaseDoctor(
  tx: Transaction,
  actor: SignedInUser,
  requested: number | null,
): Promise<{ userId: number; doctorId: number }> {
  if (isDoctor(actor)) return { userId: actor.userId, doctorId: actor.doctorId! };
  if (isAssistant(actor)) {
    // An assistant of one doctor alone need not name them.
    const named = requested || (actor.servedDoctors.length === 1 ? actor.servedDoctors[0]!.userId : null);
    if (!named) throw badRequest(requiredMessage('Doctor'), { userId: requiredMessage('Doctor') });
    const served = actor.servedDoctors.find((doctor) => doctor.userId === named);
    if (!served) throw badRequest('Doctor is not valid', { userId: 'Doctor is not valid' });
    return { userId: served.userId, doctorId: served.doctorId };
  }
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

interface CaseDeps {
  db: Database;
  storage: Storage;
  jobs: JobQueue;
  outbox: MailOutbox;
  publicUrl: string;
  makeTrackingNo?: () => string;
}

/**
 * Tells the lab of the new case, in its transaction (docs/decisions/mail.md § Mail for the lab):
 * the tracking number, the doctor's name and the link, no patient data. Whoever submitted it
 * (staff for a doctor) is not told of their own case.
 */
async function mailLab(
  tx: Transaction,
  deps: Pick<CaseDeps, 'outbox' | 'publicUrl'>,
  created: { caseId: number; trackingNo: string; doctorUserId: number; actorUserId: number },
): Promise<void> {
  const [doctor] = await tx
    .select({ firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.userId, created.doctorUserId));
  for (const staff of await findLabStaff(tx)) {
    if (staff.userId === created.actorUserId) continue;
    await enqueueCaseMail(tx, deps.outbox, {
      to: staff.email,
      userId: staff.userId,
      caseId: created.caseId,
      template: 'caseSubmitted',
      variables: {
        name: personName(staff),
        doctorName: personName(doctor!),
        trackingNo: created.trackingNo,
        caseUrl: `${deps.publicUrl}/cases/${created.caseId}`,
      },
    });
  }
}

async function insertCase(
  deps: CaseDeps,
  actor: SignedInUser,
  input: CaseSubmission,
  files: { received: StoredCaseFile[]; uploaded: StoredCaseFile[] },
  trackingNo: string,
): Promise<{ caseId: number; trackingNo: string }> {
  return deps.db.transaction(async (tx) => {
    const doctor = await resolveCaseDoctor(tx, actor, input.userId);
    await assertClinicOfDoctor(tx, input.clinicId, doctor.doctorId);
    const { parentCaseId = null, orderType = null } = input;
    if (parentCaseId !== null) await assertOrderParent(tx, actor, parentCaseId, doctor.userId);
    const [created] = await tx
      .insert(cases)
      .values({
        ...caseFieldValues(input),
        parentCaseId,
        orderType,
        trackingNo,
        doctorUserId: doctor.userId,
        termsAcceptedAt: new Date(),
        createdBy: actor.userId,
      })
      .returning({ caseId: cases.caseId });
    const caseId = created!.caseId;
    const attached = [...files.received, ...files.uploaded];
    if (attached.length > 0) {
      await tx.insert(caseAttachments).values(
        attached.map((file) => ({
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
    await queueMeshViews(tx, deps.jobs, attached, doctor.userId);
    await claimUploads(
      tx,
      files.uploaded.map((file) => file.storageKey),
      caseId,
    );
    await tx.insert(caseStatusHistory).values({ caseId, fromStatus: null, toStatus: 'new', changedBy: actor.userId });
    // The draft it was written in goes with the case's creation: both, or (another's draft: 404) neither.
    if (input.draftId !== undefined) await deleteDraft(tx, actor, input.draftId);
    await mailLab(tx, deps, { caseId, trackingNo, doctorUserId: doctor.userId, actorUserId: actor.userId });
    return { caseId, trackingNo };
  });
}

/**
 * The files the form's `uploads` part names (finished resumable uploads), checked as its
 * multipart files are, joined to them: one file per single field, at most the other files'
 * limit in all. A malformed `uploads` part is left to the submission's schema to refuse.
 */
async function withNamedUploads(
  db: Database,
  actor: SignedInUser,
  upload: ReceivedCaseUpload,
): Promise<{ all: ReceivedCaseUpload; files: StoredCaseFile[] }> {
  const named = caseUploadNames.safeParse(upload.fields.uploads);
  if (!named.success || !named.data) return { all: upload, files: [] };
  const resolved = await resolveNamedUploads(db, actor.userId, named.data);
  const fileErrors = { ...resolved.fileErrors, ...upload.fileErrors };
  for (const file of resolved.files) {
    const sameField = upload.files.filter((sent) => sent.fieldName === file.fieldName).length;
    if (file.fieldName !== otherFilesField && sameField > 0)
      fileErrors[file.fieldName] ??= 'Only one file may be sent here';
  }
  const otherFiles = [...upload.files, ...resolved.files].filter((file) => file.fieldName === otherFilesField);
  if (otherFiles.length > maxOtherFiles) fileErrors[otherFilesField] ??= caseFileMessages.tooManyOtherFiles;
  return { all: { ...upload, files: [...upload.files, ...resolved.files], fileErrors }, files: resolved.files };
}

/**
 * Validates a received upload and records the case, its attachments and its first status in
 * one transaction, with a fresh tracking number on the rare collision; named uploads are
 * claimed in that transaction. On any failure the files this request stored are deleted (a
 * refused submission leaves nothing behind); named uploads stay their owner's, unclaimed.
 */
export async function createCase(
  deps: CaseDeps,
  actor: SignedInUser,
  upload: ReceivedCaseUpload,
): Promise<{ caseId: number; trackingNo: string }> {
  const nextTrackingNo = deps.makeTrackingNo ?? (() => makeTrackingNo());
  // This request's files, and then a progress scan's copied as the order's scans: deleted alike on a refusal.
  let received = upload;
  try {
    received = await withProgressScanFiles(deps, actor, upload);
    const uploaded = await withNamedUploads(deps.db, actor, received);
    const input = validateSubmission(uploaded.all);
    const files = { received: received.files, uploaded: uploaded.files };
    for (let attempt = 1; ; attempt++) {
      try {
        const created = await insertCase(deps, actor, input, files, nextTrackingNo());
        // Its scans' viewing copies are made and the lab's mail sent now, after the commit.
        deps.jobs.kick();
        deps.outbox.kick();
        return created;
      } catch (error) {
        if (attempt >= trackingAttempts || !isUniqueViolation(error, 'cases_tracking_no_unique')) throw error;
      }
    }
  } catch (error) {
    await deleteKeys(
      deps.storage,
      received.files.map((file) => file.storageKey),
    );
    throw error;
  }
}
