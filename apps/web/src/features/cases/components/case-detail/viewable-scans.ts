import type { CaseAttachment, CaseFileType } from '@portal/contract';
import { routePath } from '@portal/contract/client';
import { scanColors, type ViewableScan } from '../../../../components/stl-viewer/view-in-3d.tsx';
import { fileExtension } from '../../lib/file-extension.ts';

const arches: { fileType: CaseFileType; label: string; color: string }[] = [
  { fileType: 'MaxillaryScan', label: 'Upper (maxillary)', color: scanColors.upper },
  { fileType: 'MandibularScan', label: 'Lower (mandibular)', color: scanColors.lower },
];

/** The upper and lower scans the viewer can show: only .stl files (zip and rar are downloads). */
export function viewableScans(attachments: CaseAttachment[]): ViewableScan[] {
  return arches.flatMap((arch) => {
    const file = attachments.find(
      (attachment) => attachment.FileType === arch.fileType && fileExtension(attachment.FileName) === 'stl',
    );
    if (!file) return [];
    // FilePath is /api/case/files/<attachment id>/<name>.
    const attachmentId = Number(file.FilePath.split('/').at(-2));
    const viewPath = routePath('GET /api/case/file-views/:attachmentId', { attachmentId });
    return [{ label: arch.label, fileName: file.FileName, url: file.FilePath, viewPath, color: arch.color }];
  });
}
