import { otherFilesField, scanFileTypes, serverFieldMessages } from '@portal/contract';
import { and, count, eq, inArray, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Database, Transaction } from '../../db/client.ts';
import { caseDrafts, uploads, users } from '../../db/schema.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import type { Storage } from '../../storage/storage.ts';
import {
  contentTypeOf,
  displayFileName,
  extensionOf,
  fileSlotOf,
  FileInspector,
  findContentRefusal,
  isFileOfKind,
  type FileKind,
} from '../cases/file-checks.ts';
import type { StoredCaseFile } from '../cases/receive-case-upload.ts';
import { uploadsFolder, uploadStorageKey } from './upload-store.ts';

/** How long an upload no case or draft has used is kept. */
export const uploadLifetimeSeconds = 24 * 60 * 60;
/** How long a draft keeps its uploads after it was last saved (docs/decisions/case-form.md § Drafts). */
const draftUploadLifetimeSeconds = 7 * 24 * 60 * 60;

export type UploadRow = typeof uploads.$inferSelect;

/** Used by neither a case nor a draft: such an upload expires a day after it was made (`sweepExpiredUploads`). */
const isUnclaimed = and(isNull(uploads.claimedByCaseId), isNull(uploads.claimedByDraftId));
/**
 * Not used by a case yet. A draft's upload is still its owner's to resume, cancel or submit:
 * the draft only keeps it while the draft is saved within a week (docs/decisions/case-form.md § Drafts).
 */
const isOpen = isNull(uploads.claimedByCaseId);

/** What one user may hold in uploads no case has used yet, drafts' included (UPLOADS_PER_USER, UPLOAD_BYTES_PER_USER). */
export interface UploadAllowance {
  uploads: number;
  bytes: number;
}

const uploadLimitMessages = {
  tooMany: (uploads: number) =>
    `You already have ${uploads} uploads that no case has used: submit a case or cancel some first`,
  tooManyBytes: (bytes: number) =>
    `Your uploads that no case has used would come to more than ${bytes} bytes: submit a case or cancel some first`,
};

/**
 * Records a new upload for its creator, before any byte of it is stored, within the
 * creator's allowance: past it 429 (how many) or 413 (how many bytes), nothing recorded.
 */
export async function recordUpload(
  db: Database,
  upload: { uploadId: string; userId: number; fileName: string; declaredSize: number },
  allowance: UploadAllowance,
): Promise<void> {
  await db.transaction(async (tx) => {
    // One new upload at a time per user, so parallel ones cannot all pass the allowance.
    await tx.select({ userId: users.userId }).from(users).where(eq(users.userId, upload.userId)).for('update');
    const [held] = await tx
      .select({ uploads: count(), bytes: sql<number>`coalesce(sum(${uploads.declaredSize}), 0)`.mapWith(Number) })
      .from(uploads)
      .where(and(eq(uploads.userId, upload.userId), isOpen));
    if ((held?.uploads ?? 0) >= allowance.uploads)
      throw new AppError(429, uploadLimitMessages.tooMany(allowance.uploads));
    if ((held?.bytes ?? 0) + upload.declaredSize > allowance.bytes) {
      throw new AppError(413, uploadLimitMessages.tooManyBytes(allowance.bytes));
    }
    await tx.insert(uploads).values({
      ...upload,
      fileName: displayFileName(upload.fileName),
      storageKey: uploadStorageKey(upload.uploadId),
    });
  });
}

/** The caller's own upload that no case has used yet; anyone else's is as good as missing. */
export async function findOwnOpenUpload(
  db: Database,
  userId: number,
  uploadId: string,
): Promise<UploadRow | undefined> {
  const [row] = await db
    .select()
    .from(uploads)
    .where(and(eq(uploads.uploadId, uploadId), eq(uploads.userId, userId), isOpen));
  return row;
}

/** A cancelled upload's row; one a case uses is never forgotten. */
export async function forgetUpload(db: Database, uploadId: string): Promise<void> {
  await db.delete(uploads).where(and(eq(uploads.uploadId, uploadId), isOpen));
}

/** The upload ids a draft's `files` names, in field order. */
export const draftUploadIds = (files: Record<string, unknown>): string[] =>
  Object.values(files).flatMap((ids) => [ids ?? []].flat().filter((id): id is string => typeof id === 'string'));

/**
 * Makes a draft's uploads exactly those of `uploadIds` that are the owner's and not used by a
 * case: they are kept while the draft is (no 24-hour expiry), and the ones it no longer names
 * are let go. Returns the ids it kept; anyone else's id is dropped as a missing one is, so a
 * draft never reaches another user's upload.
 */
export async function claimUploadsForDraft(
  tx: Transaction,
  owner: { userId: number; draftId: number },
  uploadIds: string[],
): Promise<Set<string>> {
  const kept = uploadIds.length
    ? await tx
        .update(uploads)
        .set({ claimedByDraftId: owner.draftId })
        .where(and(inArray(uploads.uploadId, uploadIds), eq(uploads.userId, owner.userId), isOpen))
        .returning({ uploadId: uploads.uploadId })
    : [];
  const keptIds = new Set(kept.map((row) => row.uploadId));
  await tx
    .update(uploads)
    .set({ claimedByDraftId: null })
    .where(
      and(
        eq(uploads.claimedByDraftId, owner.draftId),
        keptIds.size ? notInArray(uploads.uploadId, [...keptIds]) : undefined,
      ),
    );
  return keptIds;
}

/** What the form shows of a draft's uploads: each one's name, size and whether its last byte is in. */
export async function draftUploads(db: Database, userId: number, uploadIds: string[]) {
  if (uploadIds.length === 0) return [];
  const rows = await db
    .select({
      uploadId: uploads.uploadId,
      fileName: uploads.fileName,
      size: uploads.declaredSize,
      completedAt: uploads.completedAt,
    })
    .from(uploads)
    .where(and(inArray(uploads.uploadId, uploadIds), eq(uploads.userId, userId), isOpen));
  return rows.map(({ completedAt, ...row }) => ({ ...row, finished: completedAt !== null }));
}

/** The kinds a file of this name may be, in any case file field: the same table the multipart form uses. */
function kindsForName(fileName: string): FileKind[] {
  const extension = extensionOf(fileName);
  const scanSlot = fileSlotOf(Object.keys(scanFileTypes)[0]!)!;
  const photoSlot = fileSlotOf(otherFilesField)!;
  return [...(scanSlot.accepts[extension] ?? []), ...(photoSlot.accepts[extension] ?? [])];
}

/**
 * Once the last byte is stored: reads the bytes back through the same inspector a multipart
 * file goes through (SHA-256, size, first bytes) and records the kind its name and content
 * agree on, or none (also when its content is refused).
 */
export async function finishUpload(
  deps: { db: Database; storage: Storage },
  uploadId: string,
  /** What was hashed as the bytes arrived: used when it covers the whole file, else the bytes are read again. */
  arrived?: FileInspector,
): Promise<void> {
  const [row] = await deps.db.select().from(uploads).where(eq(uploads.uploadId, uploadId));
  if (!row) return;
  let inspector = arrived;
  if (!inspector || inspector.bytes !== row.declaredSize) {
    inspector = new FileInspector(() => {});
    const discard = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    await pipeline(await deps.storage.read(row.storageKey), inspector, discard);
  }
  const matched = kindsForName(row.fileName).find((candidate) =>
    isFileOfKind(candidate, inspector.head, inspector.bytes),
  );
  // Refused for its content (a photo that does not decode): no case field accepts it.
  const kind =
    matched && !(await findContentRefusal(deps.storage, row.storageKey, matched, inspector)) ? matched : null;
  await deps.db
    .update(uploads)
    .set({ completedAt: new Date(), sha256: inspector.sha256, contentKind: kind ?? null })
    .where(eq(uploads.uploadId, uploadId));
}

/** The `uploads` text part of a case form: file field -> upload id (a list for otherFiles). */
export type NamedUploads = Partial<Record<string, string | string[]>>;

/**
 * The case files that named uploads stand for, checked as a multipart file would be: the
 * caller's own, finished, not used by a case, and of a kind the field accepts by
 * name and content. Field errors name the field; nothing is changed here.
 */
export async function resolveNamedUploads(
  db: Database,
  userId: number,
  named: NamedUploads,
): Promise<{ files: StoredCaseFile[]; fileErrors: Record<string, string> }> {
  const files: StoredCaseFile[] = [];
  const fileErrors: Record<string, string> = {};
  const wanted = Object.entries(named).flatMap(([fieldName, ids]) =>
    [ids ?? []].flat().map((uploadId) => ({ fieldName, uploadId })),
  );
  const ids = wanted.map((entry) => entry.uploadId);
  if (new Set(ids).size !== ids.length) throw badRequest('An upload may be named only once');
  const rows = ids.length
    ? await db
        .select()
        .from(uploads)
        .where(and(inArray(uploads.uploadId, ids), eq(uploads.userId, userId), isOpen))
    : [];
  const byId = new Map(rows.map((row) => [row.uploadId, row]));
  for (const { fieldName, uploadId } of wanted) {
    const slot = fileSlotOf(fieldName);
    const row = byId.get(uploadId);
    if (!slot) fileErrors[fieldName] ??= serverFieldMessages.unexpectedFile;
    else if (!row) fileErrors[fieldName] ??= 'Upload not found';
    else if (!row.completedAt || !row.sha256) fileErrors[fieldName] ??= 'The upload is not finished yet';
    else if (!row.contentKind || !slot.accepts[extensionOf(row.fileName)]?.includes(row.contentKind as FileKind)) {
      fileErrors[fieldName] ??= slot.message;
    } else {
      files.push({
        fieldName,
        fileType: slot.fileType,
        fileName: row.fileName,
        storageKey: row.storageKey,
        contentType: contentTypeOf[row.contentKind as FileKind],
        size: row.declaredSize,
        sha256: row.sha256,
      });
    }
  }
  return { files, fileErrors };
}

/** Marks the uploads used by a case, in its transaction; one already used ends it (400). */
export async function claimUploads(tx: Transaction, uploadKeys: string[], caseId: number): Promise<void> {
  if (uploadKeys.length === 0) return;
  const claimed = await tx
    .update(uploads)
    .set({ claimedByCaseId: caseId, claimedByDraftId: null })
    .where(and(inArray(uploads.storageKey, uploadKeys), isOpen))
    .returning({ uploadId: uploads.uploadId });
  if (claimed.length !== uploadKeys.length) throw badRequest('An upload was already used by another case');
}

/**
 * Removes uploads no case or draft has used once older than `maxAgeSeconds`, and those of
 * drafts not saved for `draftMaxAgeSeconds` (bytes and row), stored upload files no row
 * refers to, and the tus bookkeeping files of claimed uploads. Returns how many rows were
 * removed.
 */
export async function sweepExpiredUploads(
  deps: { db: Database; storage: Storage },
  options: { maxAgeSeconds: number; draftMaxAgeSeconds: number } = {
    maxAgeSeconds: uploadLifetimeSeconds,
    draftMaxAgeSeconds: draftUploadLifetimeSeconds,
  },
): Promise<number> {
  const cutoff = new Date(Date.now() - options.maxAgeSeconds * 1000);
  const draftCutoff = new Date(Date.now() - options.draftMaxAgeSeconds * 1000);
  const staleDrafts = deps.db
    .select({ draftId: caseDrafts.draftId })
    .from(caseDrafts)
    .where(lt(caseDrafts.updatedAt, draftCutoff));
  const expired = await deps.db
    .delete(uploads)
    .where(
      or(and(isUnclaimed, lt(uploads.createdAt, cutoff)), and(isOpen, inArray(uploads.claimedByDraftId, staleDrafts))),
    )
    .returning({ uploadId: uploads.uploadId });
  const expiredIds = new Set(expired.map((row) => row.uploadId));
  const rows = await deps.db
    .select({ uploadId: uploads.uploadId, storageKey: uploads.storageKey, claimedByCaseId: uploads.claimedByCaseId })
    .from(uploads);
  const known = new Map(rows.map((row) => [row.uploadId, row]));
  for await (const entry of deps.storage.list(uploadsFolder)) {
    const uploadId = entry.key.slice(uploadsFolder.length + 1).split('.')[0]!;
    const row = known.get(uploadId);
    const isRemovable = row
      ? // tus's own bookkeeping (.json, .info) of an upload a case now uses
        entry.key !== row.storageKey && row.claimedByCaseId !== null
      : // expired, or left without a row for a day (a process stopped between the two writes)
        expiredIds.has(uploadId) || entry.lastModified < cutoff;
    if (isRemovable) await deps.storage.delete(entry.key);
  }
  return expired.length;
}
