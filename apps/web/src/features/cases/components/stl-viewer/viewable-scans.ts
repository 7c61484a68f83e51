import type { CaseAttachment, CaseFileType } from '@portal/contract';
import { fileExtension } from '../../lib/file-extension.ts';

export interface ViewableScan {
  label: string;
  fileName: string;
  url: string;
  /** The attachment's id (its FilePath is /api/case/files/<id>/<name>): its viewing copy's. */
  attachmentId: number;
  color: string;
}

const arches: { fileType: CaseFileType; label: string; color: string }[] = [
  { fileType: 'MaxillaryScan', label: 'Upper (maxillary)', color: '#e3cfa6' },
  { fileType: 'MandibularScan', label: 'Lower (mandibular)', color: '#5b9bd5' },
];

/** The upper and lower scans the viewer can show: only .stl files (zip and rar are downloads). */
export function viewableScans(attachments: CaseAttachment[]): ViewableScan[] {
  return arches.flatMap((arch) => {
    const file = attachments.find(
      (attachment) => attachment.FileType === arch.fileType && fileExtension(attachment.FileName) === 'stl',
    );
    if (!file) return [];
    const attachmentId = Number(file.FilePath.split('/').at(-2));
    return [{ label: arch.label, fileName: file.FileName, url: file.FilePath, attachmentId, color: arch.color }];
  });
}
