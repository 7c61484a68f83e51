import { and, eq } from 'drizzle-orm';
import type { Readable } from 'node:stream';
import { caseOwnerScope, type SignedInUser } from '../../auth/policy.ts';
import type { Database } from '../../db/client.ts';
import { caseAttachments, cases } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import type { ByteRange, Storage } from '../../storage/storage.ts';

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
