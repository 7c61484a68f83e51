import { and, eq } from 'drizzle-orm';
import type { Readable } from 'node:stream';
import type { SignedInUser } from '../../auth/access.ts';
import type { Database } from '../../db/client.ts';
import { caseAttachments, cases } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import type { ByteRange, Storage } from '../../storage/storage.ts';
import { caseOwnerScope } from './find-cases.ts';

export interface CaseFileDownload {
  caseId: number;
  fileName: string;
  /** What the server detected at upload (image/jpeg, image/png, model/stl, ...). */
  contentType: string;
  size: number;
  sha256: string;
  open(range?: ByteRange): Promise<Readable>;
}

/** An attachment the caller may download; another doctor's is 404, as if it did not exist. */
export async function findCaseFile(
  db: Database,
  storage: Storage,
  actor: SignedInUser,
  attachmentId: number,
): Promise<CaseFileDownload> {
  const doctorUserId = caseOwnerScope(actor, 0);
  const [file] = await db
    .select({
      caseId: caseAttachments.caseId,
      fileName: caseAttachments.fileName,
      contentType: caseAttachments.contentType,
      size: caseAttachments.fileSize,
      sha256: caseAttachments.sha256,
      storageKey: caseAttachments.storageKey,
    })
    .from(caseAttachments)
    .innerJoin(cases, eq(cases.caseId, caseAttachments.caseId))
    .where(
      and(
        eq(caseAttachments.attachmentId, attachmentId),
        doctorUserId === null ? undefined : eq(cases.doctorUserId, doctorUserId),
      ),
    );
  if (!file) throw notFound('File');
  return { ...file, open: (range) => storage.read(file.storageKey, range) };
}

/**
 * A single `bytes=` range of a file of `size` bytes: 'none' when there is no usable Range
 * header (the whole file is sent), 'unsatisfiable' for a range outside the file (416).
 */
export function parseByteRange(header: string | undefined, size: number): ByteRange | 'none' | 'unsatisfiable' {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return 'none';
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}
