import { caseFileTypeLabel } from '@portal/contract';
import { asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { caseAttachments, caseMessageFiles, planStageFiles, treatmentPlans } from '../../db/schema.ts';
import { bidiControls } from './file-checks.ts';
import type { VisibleCase } from './case-access.ts';

/** One stored file of a case, where it goes in the case's ZIP. */
export interface CaseZipEntry {
  path: string;
  storageKey: string;
  size: number;
  contentType: string;
  createdAt: Date;
}

/** A name as one path segment: no separators, controls or dot-only names. */
const segment = (name: string) =>
  name
    .replace(bidiControls, '')
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, '_')
    .replace(/^\.+$/, '_')
    .trim() || 'file';

/**
 * Every stored file of a case as the entries of one ZIP
 * (docs/decisions/uploads.md § A case's files as one ZIP):
 * `<tracking number>/<group>/<file name>`, the groups as the case page names
 * them (X-Ray OPG, STL-1, ..., Front Smiling), `Messages` and `Plan v<n>`. Two files of one
 * folder with the same name are told apart as `name (2).ext`.
 */
export async function listCaseZipEntries(db: Database, found: VisibleCase): Promise<CaseZipEntry[]> {
  const [attachments, messageFiles, stages] = await Promise.all([
    db
      .select({
        fileType: caseAttachments.fileType,
        fileName: caseAttachments.fileName,
        storageKey: caseAttachments.storageKey,
        size: caseAttachments.fileSize,
        contentType: caseAttachments.contentType,
        createdAt: caseAttachments.createdAt,
      })
      .from(caseAttachments)
      .where(eq(caseAttachments.caseId, found.caseId))
      .orderBy(asc(caseAttachments.attachmentId)),
    db
      .select({
        fileName: caseMessageFiles.fileName,
        storageKey: caseMessageFiles.storageKey,
        size: caseMessageFiles.fileSize,
        contentType: caseMessageFiles.contentType,
        createdAt: caseMessageFiles.createdAt,
      })
      .from(caseMessageFiles)
      .where(eq(caseMessageFiles.caseId, found.caseId))
      .orderBy(asc(caseMessageFiles.fileId)),
    db
      .select({
        version: treatmentPlans.version,
        fileName: planStageFiles.fileName,
        storageKey: planStageFiles.storageKey,
        size: planStageFiles.fileSize,
        createdAt: treatmentPlans.createdAt,
      })
      .from(planStageFiles)
      .innerJoin(treatmentPlans, eq(treatmentPlans.planId, planStageFiles.planId))
      .where(eq(planStageFiles.caseId, found.caseId))
      .orderBy(asc(treatmentPlans.version), asc(planStageFiles.stageFileId)),
  ]);
  const files = [
    ...attachments.map(({ fileType, ...file }) => ({ folder: caseFileTypeLabel(fileType), ...file })),
    ...messageFiles.map((file) => ({ folder: 'Messages', ...file })),
    ...stages.map(({ version, ...file }) => ({ folder: `Plan v${version}`, ...file, contentType: 'model/stl' })),
  ];
  const taken = new Set<string>();
  const root = segment(found.trackingNo);
  return files.map(({ folder, fileName, ...file }) => {
    const name = segment(fileName);
    const dot = name.lastIndexOf('.');
    const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let path = `${root}/${segment(folder)}/${name}`;
    for (let copy = 2; taken.has(path.toLowerCase()); copy++) {
      path = `${root}/${segment(folder)}/${stem} (${copy})${extension}`;
    }
    taken.add(path.toLowerCase());
    return { path, ...file };
  });
}
