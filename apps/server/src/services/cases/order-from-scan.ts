import { randomBytes, randomUUID } from 'node:crypto';
import { caseOrderMessages } from '@portal/contract';
import { and, eq } from 'drizzle-orm';
import { canOrderFrom, type SignedInUser } from '../../auth/policy.ts';
import type { Database } from '../../db/client.ts';
import { cases, progressScans } from '../../db/schema.ts';
import { badRequest } from '../../lib/errors.ts';
import { deleteKeys } from '../../storage/delete-keys.ts';
import type { Storage } from '../../storage/storage.ts';
import { contentTypeOf, FileInspector } from './file-checks.ts';
import type { ReceivedCaseUpload, StoredCaseFile } from './receive-case-upload.ts';

const scanSlots = [
  { arch: 'upper', key: 'upperKey', fieldName: 'maxillaryScan', fileType: 'MaxillaryScan' },
  { arch: 'lower', key: 'lowerKey', fieldName: 'mandibularScan', fileType: 'MandibularScan' },
] as const;

/** A stored object copied under a new key, with the size and SHA-256 a case attachment records. */
async function copyObject(storage: Storage, from: string, to: string): Promise<{ size: number; sha256: string }> {
  const source = await storage.read(from);
  const inspector = new FileInspector(() => {});
  source.once('error', (error) => inspector.destroy(error));
  source.pipe(inspector);
  await storage.put(to, inspector, 'application/octet-stream');
  return { size: inspector.bytes, sha256: inspector.sha256 };
}

/**
 * A refinement ordered from a progress scan (docs/decisions/progress-scans.md § Ordering a
 * refinement): `progressScanId` names a scan of the parent case, and that scan's files become
 * the order's maxillary and mandibular scans, copied (a case owns its attachments' objects, and
 * deleting one must not take a scan's away). The scan is resolved for the caller: an unknown
 * one, another case's, or one of a case the caller may not order from all answer the same 400
 * on `progressScanId`, as an unknown parent does. Copies are listed in the upload's files, so a
 * refused submission deletes them with the rest.
 */
export async function withProgressScanFiles(
  deps: { db: Database; storage: Storage },
  actor: SignedInUser,
  upload: ReceivedCaseUpload,
): Promise<ReceivedCaseUpload> {
  const sent = upload.fields.progressScanId?.trim();
  if (!sent) return upload;
  const progressScanId = Number(sent);
  // A malformed id is the submission schema's to refuse, with the same message.
  if (!Number.isSafeInteger(progressScanId) || progressScanId < 1 || progressScanId > 2_147_483_647) return upload;
  const invalid = { progressScanId: caseOrderMessages.progressScanInvalid };
  if (upload.fields.orderType !== 'Refinement') {
    throw badRequest(caseOrderMessages.progressScanRefinement, {
      progressScanId: caseOrderMessages.progressScanRefinement,
    });
  }
  const parentCaseId = Number(upload.fields.parentCaseId);
  if (!Number.isSafeInteger(parentCaseId) || parentCaseId < 1) throw badRequest(invalid.progressScanId, invalid);
  const [scan] = await deps.db
    .select({
      upperKey: progressScans.upperKey,
      lowerKey: progressScans.lowerKey,
      doctorUserId: cases.doctorUserId,
    })
    .from(progressScans)
    .innerJoin(cases, eq(cases.caseId, progressScans.caseId))
    .where(and(eq(progressScans.progressScanId, progressScanId), eq(progressScans.caseId, parentCaseId)));
  if (!scan || !canOrderFrom(actor, scan.doctorUserId)) throw badRequest(invalid.progressScanId, invalid);
  const fileErrors = { ...upload.fileErrors };
  for (const slot of scanSlots) {
    if (scan[slot.key] && upload.files.some((file) => file.fieldName === slot.fieldName)) {
      fileErrors[slot.fieldName] ??= caseOrderMessages.progressScanTwice;
    }
  }
  if (Object.keys(fileErrors).length > Object.keys(upload.fileErrors).length) return { ...upload, fileErrors };
  const copied: StoredCaseFile[] = [];
  const uploadId = randomUUID();
  try {
    for (const slot of scanSlots) {
      const from = scan[slot.key];
      if (!from) continue;
      const storageKey = `cases/${uploadId}/${randomBytes(12).toString('hex')}`;
      // Listed before the copy ends, so a failed copy is deleted below with any before it.
      const file: StoredCaseFile = {
        fieldName: slot.fieldName,
        fileType: slot.fileType,
        fileName: `progress-scan-${progressScanId}-${slot.arch}.stl`,
        storageKey,
        contentType: contentTypeOf.stl,
        size: 0,
        sha256: '',
      };
      copied.push(file);
      Object.assign(file, await copyObject(deps.storage, from, storageKey));
    }
  } catch (error) {
    await deleteKeys(
      deps.storage,
      copied.map((file) => file.storageKey),
    );
    throw error;
  }
  return { ...upload, files: [...upload.files, ...copied] };
}
