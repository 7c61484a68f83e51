import { and, eq } from 'drizzle-orm';
import { caseOwnerScope, type SignedInUser } from '../../auth/policy.ts';
import type { Database } from '../../db/client.ts';
import { caseMessageFiles, cases } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import type { Storage } from '../../storage/storage.ts';
import type { CaseFileDownload } from '../cases/case-files.ts';

/** A message's file the caller may download; another doctor's is 404, as if it did not exist. */
export async function findMessageFile(
  db: Database,
  storage: Storage,
  actor: SignedInUser,
  fileId: number,
): Promise<CaseFileDownload> {
  const doctorUserId = caseOwnerScope(actor, 0);
  const [file] = await db
    .select({
      caseId: caseMessageFiles.caseId,
      fileName: caseMessageFiles.fileName,
      contentType: caseMessageFiles.contentType,
      size: caseMessageFiles.fileSize,
      sha256: caseMessageFiles.sha256,
      storageKey: caseMessageFiles.storageKey,
    })
    .from(caseMessageFiles)
    .innerJoin(cases, eq(cases.caseId, caseMessageFiles.caseId))
    .where(
      and(
        eq(caseMessageFiles.fileId, fileId),
        doctorUserId === null ? undefined : eq(cases.doctorUserId, doctorUserId),
      ),
    );
  if (!file) throw notFound('File');
  return { ...file, open: (range) => storage.read(file.storageKey, range) };
}
