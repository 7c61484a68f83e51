import { t } from '@lingui/core/macro';
import { attachmentStage, fdiToUniversal, type PlanMovementsAnswer, type PlanVersion } from '@portal/contract';
import type { ToothMarker } from '../components/stage-viewer/create-stage-viewer.ts';

/**
 * A version's IPR contacts and attachments as markers on its teeth (docs/decisions/plans.md §
 * Tooth markers): the lab's summary names teeth in FDI, the movement table says which shell
 * of the copy each tooth is. An IPR contact shows from its stage on (from stage 0 when the
 * summary gives none), an attachment from its stage (stage 0 unless the summary says). A tooth
 * the table does not have (not measured, or not in the plan) gets no marker.
 */
export function toothMarkers(
  summary: PlanVersion['summary'],
  movements: PlanMovementsAnswer | undefined,
): ToothMarker[] {
  if (!movements?.available) return [];
  const shellOf = (fdi: number) => {
    const universal = fdiToUniversal(fdi);
    const tooth = movements.teeth.find((found) => found.tooth === universal && found.shell !== undefined);
    return tooth && { arch: tooth.arch, shell: tooth.shell! };
  };
  const markers: ToothMarker[] = [];
  for (const row of summary.ipr) {
    const [a, b] = row.contact.split('-').map((part) => shellOf(Number(part)));
    if (!a || !b || a.arch !== b.arch) continue;
    markers.push({
      kind: 'ipr',
      arch: a.arch,
      shells: [a.shell, b.shell],
      // As the lab typed it, to the hundredth: 0.25 mm is a common amount, and 0.3 would misstate it.
      text: String(Number(row.amountMm.toFixed(2))),
      fromStage: row.stage ?? 0,
    });
  }
  for (const fdi of summary.attachmentTeeth) {
    const on = shellOf(fdi);
    if (on) {
      markers.push({
        kind: 'attachment',
        arch: on.arch,
        shells: [on.shell],
        // In the language shown when the markers are made (the viewer's).
        text: t({ message: 'A', comment: "An attachment's marker on its tooth in the 3D view: one letter" }),
        fromStage: attachmentStage(summary, fdi),
      });
    }
  }
  return markers;
}
