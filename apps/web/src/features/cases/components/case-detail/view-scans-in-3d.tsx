import { useLingui } from '@lingui/react';
import type { CaseAttachment } from '@portal/contract';
import { useMemo } from 'react';
import { ViewIn3d } from '../../../../components/stl-viewer/view-in-3d.tsx';
import { viewableScans } from './viewable-scans.ts';

/** 'View in 3D' for a case with STL scans: its upper and lower scans together. */
export function ViewScansIn3d({ attachments }: { attachments: CaseAttachment[] }) {
  // The scans' labels are in the language shown: made again when it changes.
  const { i18n } = useLingui();
  const scans = useMemo(() => viewableScans(attachments), [attachments, i18n.locale]);
  return <ViewIn3d scans={scans} />;
}
