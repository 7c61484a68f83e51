import { Stack, Table, Text, Title } from '@mantine/core';
import type { PlanVersion } from '@portal/contract';
import { attachmentsText } from '../lib/teeth.ts';

/**
 * A version's summary as the lab wrote it: stage counts, IPR per contact, attachment teeth,
 * notes. Beside the viewer, `stage` is the stage shown: the IPR done at it is marked.
 */
export function PlanSummaryView({ summary, stage }: { summary: PlanVersion['summary']; stage?: number }) {
  return (
    <Stack gap="sm">
      <div>
        <Title order={3} size="h5">
          Stages
        </Title>
        <Text size="sm">
          Upper: {summary.upperStages} · Lower: {summary.lowerStages} (stage 0 is the initial position)
        </Text>
      </div>
      <div>
        <Title order={3} size="h5">
          IPR
        </Title>
        {summary.ipr.length === 0 ? (
          <Text size="sm">None</Text>
        ) : (
          <Table withTableBorder striped fz="sm" verticalSpacing={4}>
            <Table.Caption>Interproximal reduction per contact</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Contact</Table.Th>
                <Table.Th scope="col">Amount</Table.Th>
                <Table.Th scope="col">Stage</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {summary.ipr.map((row, index) => (
                <Table.Tr
                  key={`${row.contact}-${index}`}
                  fw={stage !== undefined && row.stage === stage ? 700 : undefined}
                  aria-current={stage !== undefined && row.stage === stage ? 'step' : undefined}
                >
                  <Table.Td>{row.contact}</Table.Td>
                  <Table.Td>{row.amountMm.toFixed(2)} mm</Table.Td>
                  <Table.Td>
                    {row.stage ?? '–'}
                    {stage !== undefined && row.stage === stage && ' (this stage)'}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </div>
      <div>
        <Title order={3} size="h5">
          Attachment teeth
        </Title>
        <Text size="sm">{attachmentsText(summary)}</Text>
      </div>
      <div>
        <Title order={3} size="h5">
          Notes
        </Title>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {summary.notes || 'None'}
        </Text>
      </div>
    </Stack>
  );
}
