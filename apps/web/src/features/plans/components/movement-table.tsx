import { plural } from '@lingui/core/macro';
import { useLingui as useLinguiContext } from '@lingui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Group, Stack, Table, Text, Title } from '@mantine/core';
import { toothLabel, type NumberingSystem, type PlanFinding, type ToothMovement } from '@portal/contract';
import { useMovements } from '../api/get-movements.ts';
import { serverText } from '../../../lib/server-text.ts';
import { formatDecimal, formatFigure, formatSigned as signed } from '../../../lib/format-number.ts';
import { findingKindLabels } from './plan-findings.tsx';
import { toothDescription } from '../../../lib/tooth-words.ts';
import { useToothNotation } from '../../../lib/tooth-notation.ts';

/** How many teeth move more than the lab's limit in one stage, or that none does. */
function OverLimitLine({ overLimit, limits }: { overLimit: number; limits: { stepMm: number; stepDeg: number } }) {
  const { t } = useLingui();
  const stepMm = formatFigure(limits.stepMm);
  const stepDeg = formatFigure(limits.stepDeg);
  return (
    <Text size="sm">
      {overLimit === 0
        ? t`No tooth moves more than ${stepMm} mm or ${stepDeg}° in one stage.`
        : t`${plural(overLimit, { one: '# tooth moves', other: '# teeth move' })} more than ${stepMm} mm or ${stepDeg}° in one stage.`}
    </Text>
  );
}

function MovementRow({
  tooth,
  system,
  findings,
}: {
  tooth: ToothMovement;
  system: NumberingSystem;
  /** The version's findings that name this tooth: marked beside its number. */
  findings: PlanFinding[];
}) {
  const { t } = useLingui();
  const { i18n } = useLinguiContext();
  const { translationMm: move, rotationDeg: r } = tooth;
  const kinds = [...new Set(findings.map((finding) => i18n._(findingKindLabels[finding.kind])))];
  const description = toothDescription(tooth.tooth);
  const kindList = kinds.join(', ');
  const stepMm = formatDecimal(tooth.maxStepMm, 3);
  const stepDeg = formatDecimal(tooth.maxStepDeg, 2);
  return (
    <Table.Tr bg={kinds.length > 0 ? 'orange.0' : undefined}>
      <Table.Th
        scope="row"
        fw={600}
        aria-label={kinds.length > 0 ? t`${description}, findings: ${kindList}` : description}
      >
        <Group gap={4} wrap="nowrap">
          {toothLabel(tooth.tooth, system)}
          {kinds.map((kind) => (
            <Badge key={kind} size="xs" color="orange.9" variant="filled" radius="sm" aria-hidden>
              {kind}
            </Badge>
          ))}
        </Group>
      </Table.Th>
      <Table.Td>{signed(move.mesiodistal, 2)}</Table.Td>
      <Table.Td>{signed(move.buccolingual, 2)}</Table.Td>
      <Table.Td>{signed(move.vertical, 2)}</Table.Td>
      <Table.Td fw={600}>{formatDecimal(move.total, 2)}</Table.Td>
      <Table.Td>{signed(r.tip, 1)}</Table.Td>
      <Table.Td>{signed(r.torque, 1)}</Table.Td>
      <Table.Td>{signed(r.rotation, 1)}</Table.Td>
      <Table.Td
        style={{ whiteSpace: 'nowrap' }}
        c={tooth.overLimit ? 'red.9' : undefined}
        fw={tooth.overLimit ? 600 : undefined}
      >
        {t`${stepMm} mm, ${stepDeg}°`}
        {tooth.overLimit && t` · over the limit`}
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * Each tooth's movement from stage 0 to the version's last stage, in the case's tooth
 * numbering, teeth moving more in one stage than the lab's limit flagged
 * (docs/decisions/plans.md § Tooth movements), and the teeth the version's findings name
 * marked (§ Plans checked against the prescription).
 */
export function MovementTable({
  caseId,
  planId,
  system: caseSystem,
  findings = [],
}: {
  caseId: number;
  planId: number;
  system: NumberingSystem;
  findings?: PlanFinding[];
}) {
  // Teeth in the reader's notation (docs/decisions/tooth-notation.md); the case's until it is known.
  const system = useToothNotation(caseSystem);
  const { t } = useLingui();
  const movements = useMovements(caseId, planId);
  const answer = movements.data;
  const overLimit = answer?.teeth.filter((tooth) => tooth.overLimit).length ?? 0;
  return (
    <Stack gap="xs" component="section" aria-labelledby={`movements-${planId}`}>
      <Title order={3} size="h5" id={`movements-${planId}`}>
        <Trans>Tooth movements</Trans>
      </Title>
      {answer === undefined ? (
        <Text size="sm" c="dimmed" role="status">
          {movements.isError ? t`The tooth movements could not be loaded.` : t`Loading the tooth movements...`}
        </Text>
      ) : (
        <>
          {answer.reason && (
            <Text size="sm" role="status">
              {serverText(answer.reason)}
            </Text>
          )}
          {answer.available && (
            <>
              <OverLimitLine overLimit={overLimit} limits={answer.limits} />
              {/* Sideways on a phone: a native scroller that the keyboard reaches, as axe asks. */}
              <Table.ScrollContainer
                minWidth={860}
                type="native"
                tabIndex={0}
                role="region"
                aria-label={t`Tooth movements, scrolls sideways`}
              >
                <Table
                  withTableBorder
                  striped
                  fz="sm"
                  verticalSpacing={4}
                  style={{ fontVariantNumeric: 'tabular-nums' }}
                >
                  <Table.Caption>
                    <Trans>
                      From stage 0 to the last stage, in each tooth&apos;s own axes. Positive: mesial, buccal,
                      extrusion; the crown tipped mesially, torqued buccally; the mesial side rotated buccally.
                    </Trans>
                  </Table.Caption>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col">
                        <Trans>Tooth</Trans>
                      </Table.Th>
                      <Table.Th scope="col">
                        <Trans>Mesial / distal (mm)</Trans>
                      </Table.Th>
                      <Table.Th scope="col">
                        <Trans>Buccal / lingual (mm)</Trans>
                      </Table.Th>
                      <Table.Th scope="col">
                        <Trans>Extrusion / intrusion (mm)</Trans>
                      </Table.Th>
                      <Table.Th scope="col">
                        <Trans>Total (mm)</Trans>
                      </Table.Th>
                      <Table.Th scope="col">
                        <Trans>Tip (°)</Trans>
                      </Table.Th>
                      <Table.Th scope="col">
                        <Trans>Torque (°)</Trans>
                      </Table.Th>
                      <Table.Th scope="col">
                        <Trans>Rotation (°)</Trans>
                      </Table.Th>
                      <Table.Th scope="col">
                        <Trans>Largest step</Trans>
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {answer.teeth.map((tooth) => (
                      <MovementRow
                        key={tooth.tooth}
                        tooth={tooth}
                        system={system}
                        findings={findings.filter((finding) => finding.teeth.includes(tooth.tooth))}
                      />
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </>
          )}
        </>
      )}
    </Stack>
  );
}
