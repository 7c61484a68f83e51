import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { CaseAttachment, CaseFileType } from '@portal/contract';
import { routePath } from '@portal/contract/client';
import { scanColors, type ViewableScan } from '../../../../components/stl-viewer/view-in-3d.tsx';
import { i18n } from '../../../../lib/i18n.ts';
import { fileExtension } from '../../lib/file-extension.ts';

const scanFiles: ({ fileType: CaseFileType; label: MessageDescriptor } & Pick<ViewableScan, 'color' | 'arch'>)[] = [
  { fileType: 'MaxillaryScan', label: msg`Upper (maxillary)`, color: scanColors.upper, arch: 'upper' },
  { fileType: 'MandibularScan', label: msg`Lower (mandibular)`, color: scanColors.lower, arch: 'lower' },
  { fileType: 'RightBiteScan', label: msg`Right bite`, color: scanColors.bite },
  { fileType: 'LeftBiteScan', label: msg`Left bite`, color: scanColors.bite },
];

/** The upper, lower and bite scans the viewer can show: only .stl files (zip and rar are downloads); labelled in the language shown. */
export function viewableScans(attachments: CaseAttachment[]): ViewableScan[] {
  return scanFiles.flatMap(({ fileType, label, ...scan }) => {
    const file = attachments.find(
      (attachment) => attachment.FileType === fileType && fileExtension(attachment.FileName) === 'stl',
    );
    if (!file) return [];
    // FilePath is /api/case/files/<attachment id>/<name>.
    const attachmentId = Number(file.FilePath.split('/').at(-2));
    const viewPath = routePath('GET /api/case/file-views/:attachmentId', { attachmentId });
    return [{ ...scan, label: i18n._(label), fileName: file.FileName, url: file.FilePath, viewPath }];
  });
}
