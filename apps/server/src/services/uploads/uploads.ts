import { otherFilesField, scanFileTypes } from '@portal/contract';
import { and, eq, inArray, isNull, lt, notInArray } from 'drizzle-orm';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Database, Transaction } from '../../db/client.ts';
import { uploads } from '../../db/schema.ts';
import { badRequest } from '../../lib/errors.ts';
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

export type UploadRow = typeof uploads.$inferSelect;

/** Used by neither a case nor a draft: such an upload expires (`sweepExpiredUploads`). */
const isUnclaimed = and(isNull(uploads.claimedByCaseId), isNull(uploads.claimedByDraftId));
/**
 * Not used by a case yet. A draft's upload is still its owner's to resume, cancel or submit:
 * the draft only keeps it from expiring (docs/decisions.md § Drafts).
 */
const isOpen = isNull(uploads.claimedByCaseId);

/** Records a new upload for its creator, before any byte of it is stored. */
export async function recordUpload(
  db: Database,
  upload: { uploadId: string; userId: number; fileName: string; declaredSize: number },
): Promise<void> {
  await db.insert(uploads).values({
    ...upload,
    fileName: displayFileName(upload.fileName),
    storageKey: uploadStorageKey(upload.uploadId),
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
    if (!slot) fileErrors[fieldName] ??= 'Unexpected file';
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
 * Removes uploads no case or draft has used once older than `maxAgeSeconds` (bytes and row),
 * stored upload files no row refers to, and the tus bookkeeping files of claimed uploads.
 * Returns how many rows were removed.
 */
export async function sweepExpiredUploads(
  deps: { db: Database; storage: Storage },
  options: { maxAgeSeconds: number } = { maxAgeSeconds: uploadLifetimeSeconds },
): Promise<number> {
  const cutoff = new Date(Date.now() - options.maxAgeSeconds * 1000);
  const expired = await deps.db
    .delete(uploads)
    .where(and(lt(uploads.createdAt, cutoff), isUnclaimed))
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
