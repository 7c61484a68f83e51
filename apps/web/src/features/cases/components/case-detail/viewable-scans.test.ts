import type { CaseAttachment } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../../lib/i18n.ts';
import { viewableScans } from './viewable-scans.ts';

// English, the spec's words, as the app's tests show them (testing/render.tsx).
i18n.loadAndActivate({ locale: 'en', messages: {} });

const attachment = (FileType: CaseAttachment['FileType'], id: number, FileName: string): CaseAttachment => ({
  FileName,
  FilePath: `/api/case/files/${id}/${FileName}`,
  FileType,
  FileSize: 1,
  Sha256: '',
});

describe('viewableScans', () => {
  it('gives the viewer the upper and lower scans with their arch, and the bite scans, STL files only', () => {
    const scans = viewableScans([
      attachment('LeftBiteScan', 4, 'left-bite.stl'),
      attachment('MandibularScan', 2, 'lower.stl'),
      attachment('MaxillaryScan', 1, 'upper.stl'),
      attachment('RightBiteScan', 3, 'right-bite.zip'),
    ]);
    expect(scans.map(({ label, arch, fileName }) => ({ label, arch, fileName }))).toEqual([
      { label: 'Upper (maxillary)', arch: 'upper', fileName: 'upper.stl' },
      { label: 'Lower (mandibular)', arch: 'lower', fileName: 'lower.stl' },
      { label: 'Left bite', arch: undefined, fileName: 'left-bite.stl' },
    ]);
    expect(scans[2]!.viewPath).toBe('/api/case/file-views/4');
  });
});
