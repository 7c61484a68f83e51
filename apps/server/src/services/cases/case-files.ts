import { and, eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Readable } from 'node:stream';
import { caseOwnerScope, type SignedInUser } from '../../auth/policy.ts';
import type { Database } from '../../db/client.ts';
import { caseAttachments, caseMessageFiles, cases, planStageFiles } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { ownedBy } from './case-access.ts';
import type { ByteRange, Storage } from '../../storage/storage.ts';

export interface CaseFileDownload {
  caseId: number;
  fileName: string;
  /** What the server detected at upload (image/jpeg, image/png, model/stl, ...). */
  contentType: string;
  size: number;
  sha256: string;
  /** Where the original is stored: its viewing copy's row is keyed by it (services/mesh-views.ts). */
  storageKey: string;
  open(range?: ByteRange): Promise<Readable>;
}

/** Where one kind of a case's stored files is kept: its table, id and columns. */
interface CaseFileTable {
  table: PgTable;
  id: PgColumn;
  caseId: PgColumn;
  fileName: PgColumn;
  size: PgColumn;
  sha256: PgColumn;
  storageKey: PgColumn;
  /** The column of the type detected at upload, or the one type every file of the table has. */
  contentType: PgColumn | string;
}

/** The three kinds of files a case has, each downloadable with the case's own access. */
export const caseFileTables = {
  attachment: {
    table: caseAttachments,
    id: caseAttachments.attachmentId,
    caseId: caseAttachments.caseId,
    fileName: caseAttachments.fileName,
    size: caseAttachments.fileSize,
    sha256: caseAttachments.sha256,
    storageKey: caseAttachments.storageKey,
    contentType: caseAttachments.contentType,
  },
  message: {
    table: caseMessageFiles,
    id: caseMessageFiles.fileId,
    caseId: caseMessageFiles.caseId,
    fileName: caseMessageFiles.fileName,
    size: caseMessageFiles.fileSize,
    sha256: caseMessageFiles.sha256,
    storageKey: caseMessageFiles.storageKey,
    contentType: caseMessageFiles.contentType,
  },
  planStage: {
    table: planStageFiles,
    id: planStageFiles.stageFileId,
    caseId: planStageFiles.caseId,
    fileName: planStageFiles.fileName,
    size: planStageFiles.fileSize,
    sha256: planStageFiles.sha256,
    storageKey: planStageFiles.storageKey,
    contentType: 'model/stl',
  },
} satisfies Record<string, CaseFileTable>;

/**
 * A stored file of a case the caller may download (an attachment, a message's file or a plan
 * stage): the case's doctor and staff; another doctor's is 404, as if it did not exist.
 */
export async function findCaseFile(
  deps: { db: Database; storage: Storage },
  actor: SignedInUser,
  kind: keyof typeof caseFileTables,
  fileId: number,
): Promise<CaseFileDownload> {
  const source: CaseFileTable = caseFileTables[kind];
  const doctorUserIds = caseOwnerScope(actor, 0);
  const [file] = (await deps.db
    .select({
      caseId: source.caseId,
      fileName: source.fileName,
      size: source.size,
      sha256: source.sha256,
      storageKey: source.storageKey,
      ...(typeof source.contentType !== 'string' && { contentType: source.contentType }),
    })
    .from(source.table)
    .innerJoin(cases, eq(cases.caseId, source.caseId))
    .where(and(eq(source.id, fileId), ownedBy(doctorUserIds)))) as (Omit<CaseFileDownload, 'open' | 'contentType'> & {
    contentType?: string;
  })[];
  if (!file) throw notFound('File');
  return {
    ...file,
    contentType: typeof source.contentType === 'string' ? source.contentType : file.contentType!,
    open: (range) => deps.storage.read(file.storageKey, range),
  };
}
