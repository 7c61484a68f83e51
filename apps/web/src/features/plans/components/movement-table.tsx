import { Stack, Table, Text, Title } from '@mantine/core';
import { toothDescription, toothLabel, type NumberingSystem, type ToothMovement } from '@portal/contract';
import { useMovements } from '../api/get-movements.ts';

/** '+0.25', '−1.3', '0.0': the sign of the figure as shown. */
function signed(value: number, digits: number) {
  const shown = Math.abs(value).toFixed(digits);
  return `${Number(shown) === 0 ? '' : value > 0 ? '+' : '−'}${shown}`;
}

function MovementRow({ tooth, system }: { tooth: ToothMovement; system: NumberingSystem }) {
  const { translationMm: t, rotationDeg: r } = tooth;
  return (
    <Table.Tr>
      <Table.Th scope="row" fw={600} aria-label={toothDescription(tooth.tooth)}>
        {toothLabel(tooth.tooth, system)}
      </Table.Th>
      <Table.Td>{signed(t.mesiodistal, 2)}</Table.Td>
      <Table.Td>{signed(t.buccolingual, 2)}</Table.Td>
      <Table.Td>{signed(t.vertical, 2)}</Table.Td>
      <Table.Td fw={600}>{t.total.toFixed(2)}</Table.Td>
      <Table.Td>{signed(r.tip, 1)}</Table.Td>
      <Table.Td>{signed(r.torque, 1)}</Table.Td>
      <Table.Td>{signed(r.rotation, 1)}</Table.Td>
      <Table.Td
        style={{ whiteSpace: 'nowrap' }}
        c={tooth.overLimit ? 'red.9' : undefined}
        fw={tooth.overLimit ? 600 : undefined}
      >
        {tooth.maxStepMm.toFixed(3)} mm, {tooth.maxStepDeg.toFixed(2)}°{tooth.overLimit && ' · over the limit'}
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * Each tooth's movement from stage 0 to the version's last stage, in the case's tooth
 * numbering, teeth moving more in one stage than the lab's limit flagged
 * (docs/decisions/plans.md § Tooth movements).
 */
export function MovementTable({ caseId, planId, system }: { caseId: number; planId: number; system: NumberingSystem }) {
  const movements = useMovements(caseId, planId);
  const answer = movements.data;
  const overLimit = answer?.teeth.filter((tooth) => tooth.overLimit).length ?? 0;
  return (
    <Stack gap="xs" component="section" aria-labelledby={`movements-${planId}`}>
      <Title order={3} size="h5" id={`movements-${planId}`}>
        Tooth movements
      </Title>
      {answer === undefined ? (
        <Text size="sm" c="dimmed" role="status">
          {movements.isError ? 'The tooth movements could not be loaded.' : 'Loading the tooth movements...'}
        </Text>
      ) : (
        <>
          {answer.reason && (
            <Text size="sm" role="status">
              {answer.reason}
            </Text>
          )}
          {answer.available && (
            <>
              <Text size="sm">
                {overLimit === 0
                  ? `No tooth moves more than ${answer.limits.stepMm} mm or ${answer.limits.stepDeg}° in one stage.`
                  : `${overLimit} ${overLimit === 1 ? 'tooth moves' : 'teeth move'} more than ${answer.limits.stepMm} mm or ${answer.limits.stepDeg}° in one stage.`}
              </Text>
              {/* Sideways on a phone: a native scroller that the keyboard reaches, as axe asks. */}
              <Table.ScrollContainer
                minWidth={860}
                type="native"
                tabIndex={0}
                role="region"
                aria-label="Tooth movements, scrolls sideways"
              >
                <Table
                  withTableBorder
                  striped
                  fz="sm"
                  verticalSpacing={4}
                  style={{ fontVariantNumeric: 'tabular-nums' }}
                >
                  <Table.Caption>
                    From stage 0 to the last stage, in each tooth&apos;s own axes. Positive: mesial, buccal, extrusion;
                    the crown tipped mesially, torqued buccally; the mesial side rotated buccally.
                  </Table.Caption>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col">Tooth</Table.Th>
                      <Table.Th scope="col">Mesial / distal (mm)</Table.Th>
                      <Table.Th scope="col">Buccal / lingual (mm)</Table.Th>
                      <Table.Th scope="col">Extrusion / intrusion (mm)</Table.Th>
                      <Table.Th scope="col">Total (mm)</Table.Th>
                      <Table.Th scope="col">Tip (°)</Table.Th>
                      <Table.Th scope="col">Torque (°)</Table.Th>
                      <Table.Th scope="col">Rotation (°)</Table.Th>
                      <Table.Th scope="col">Largest step</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {answer.teeth.map((tooth) => (
                      <MovementRow key={tooth.tooth} tooth={tooth} system={system} />
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
