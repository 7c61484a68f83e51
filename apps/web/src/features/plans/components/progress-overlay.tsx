import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Button, Checkbox, Group, List, Stack, Text } from '@mantine/core';
import { IconCube } from '@tabler/icons-react';
import { toothLabel, type NumberingSystem, type ProgressScan } from '@portal/contract';
import { lazy, Suspense, useMemo, useState } from 'react';
import { ViewerModal } from '../../../components/stl-viewer/viewer-modal.tsx';
import { useMovements } from '../api/get-movements.ts';
import { usePlans } from '../api/get-plans.ts';
import { distanceBands } from '../lib/progress-overlay-colors.ts';
import { useToothNotation } from '../../../lib/tooth-notation.ts';

const ProgressOverlayScene = lazy(() => import('./progress-overlay-scene.tsx'));

/** The colour scale, with the lab's off-track distance the fit used as its red line. */
function Legend({ offTrackMm }: { offTrackMm: number }) {
  return (
    <Box component="figure" m={0} aria-labelledby="progress-overlay-legend">
      <Text size="sm" fw={600} id="progress-overlay-legend" component="figcaption">
        <Trans>Distance of the scan from the planned teeth</Trans>
      </Text>
      <List listStyleType="none" spacing={2} size="sm" m={0} p={0}>
        {distanceBands(offTrackMm).map((band) => (
          <List.Item key={band.hex}>
            <Group gap={6} wrap="nowrap">
              <Box
                w={14}
                h={14}
                bg={band.hex}
                style={{ borderRadius: 3, flex: 'none', border: '1px solid var(--mantine-color-gray-6)' }}
                aria-hidden
              />
              <Text size="sm" component="span">
                {band.label}
              </Text>
            </Group>
          </List.Item>
        ))}
      </List>
    </Box>
  );
}

/**
 * "View on the plan" (docs/decisions/progress-scans.md § The overlay): the progress scan drawn
 * over the planned stage the patient wears, coloured by its distance to the planned teeth, the
 * off-track teeth marked in the case's numbering; the scan and the plan each may be hidden.
 */
export function ProgressOverlayModal({
  caseId,
  scan,
  numbering: caseNumbering,
  onClose,
}: {
  caseId: number;
  scan: ProgressScan;
  numbering: NumberingSystem;
  onClose: () => void;
}) {
  // Teeth in the reader's notation (docs/decisions/tooth-notation.md); the case's until it is known.
  const numbering = useToothNotation(caseNumbering);
  const { t } = useLingui();
  const aligner = scan.stage;
  const plans = usePlans(caseId);
  const plan = plans.data?.find((version) => version.planId === scan.planId);
  const movements = useMovements(caseId, scan.planId);
  const [showScan, setShowScan] = useState(true);
  const [showPlan, setShowPlan] = useState(true);
  const [offTrackMm, setOffTrackMm] = useState<number>();
  const offTrack = scan.arches.flatMap((arch) => arch.teeth.filter((tooth) => tooth.offTrack));
  const offTrackTeeth = offTrack.map((tooth) => toothLabel(tooth.tooth, numbering)).join(', ');
  const markers = useMemo(
    () =>
      movements.data?.available
        ? scan.arches.flatMap((arch) =>
            arch.teeth.flatMap((tooth) => {
              const shell = movements.data.teeth.find((row) => row.tooth === tooth.tooth)?.shell;
              return tooth.offTrack && shell !== undefined
                ? [
                    {
                      kind: 'offTrack' as const,
                      arch: arch.arch,
                      shells: [shell],
                      text: toothLabel(tooth.tooth, numbering),
                      fromStage: 0,
                    },
                  ]
                : [];
            }),
          )
        : [],
    [scan, movements.data, numbering],
  );
  return (
    <ViewerModal onClose={onClose} title={t`Progress scan at aligner ${aligner} on the plan`} size="72rem">
      <Stack gap="sm">
        {!plan ? (
          <Text role="status" py="xl" ta="center">
            {plans.isError ? t`The plan could not be loaded.` : t`Loading the plan…`}
          </Text>
        ) : (
          <Suspense
            fallback={
              <Text role="status" py="xl" ta="center">
                <Trans>Loading the 3D viewer…</Trans>
              </Text>
            }
          >
            <ProgressOverlayScene
              plan={plan}
              scan={scan}
              markers={markers}
              showScan={showScan}
              showPlan={showPlan}
              onOffTrackMm={setOffTrackMm}
            />
          </Suspense>
        )}
        <Group gap="lg">
          <Checkbox
            label={t`Show the scan`}
            checked={showScan}
            onChange={(event) => setShowScan(event.currentTarget.checked)}
          />
          <Checkbox
            label={t`Show the plan at aligner ${aligner}`}
            checked={showPlan}
            onChange={(event) => setShowPlan(event.currentTarget.checked)}
          />
        </Group>
        <Group align="flex-start" gap="xl">
          {offTrackMm !== undefined && <Legend offTrackMm={offTrackMm} />}
          <Text size="sm" style={{ flex: '1 1 16rem' }}>
            {offTrack.length === 0
              ? t`No tooth is off track.`
              : t`Off track, marked on their planned teeth: ${offTrackTeeth}.`}{' '}
            <Trans>
              Over the scan, the planned teeth are a pale veil: where a planned crown stands clear of the scan, the
              tooth is short of where the plan puts it. The colours show the surface; the table gives each tooth&apos;s
              verdict.
            </Trans>
          </Text>
        </Group>
      </Stack>
    </ViewerModal>
  );
}

/** "View on the plan": a done scan's button that opens the overlay (in a result's action group). */
export function ViewOnPlanButton({
  caseId,
  scan,
  numbering,
}: {
  caseId: number;
  scan: ProgressScan;
  numbering: NumberingSystem;
}) {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <>
      <Button variant="default" leftSection={<IconCube size={16} aria-hidden />} onClick={() => setIsOpen(true)}>
        <Trans>View on the plan</Trans>
      </Button>
      {isOpen && (
        <ProgressOverlayModal caseId={caseId} scan={scan} numbering={numbering} onClose={() => setIsOpen(false)} />
      )}
    </>
  );
}
