import { Trans, useLingui } from '@lingui/react/macro';
import { Stack, Table, Text, Title } from '@mantine/core';
import type { PlanVersion } from '@portal/contract';
import { formatDecimal } from '../../../lib/format-number.ts';
import { attachmentsText } from '../lib/teeth.ts';

/**
 * A version's summary as the lab wrote it: stage counts, IPR per contact, attachment teeth,
 * notes. Beside the viewer, `stage` is the stage shown: the IPR done at it is marked.
 */
export function PlanSummaryView({ summary, stage }: { summary: PlanVersion['summary']; stage?: number }) {
  const { t } = useLingui();
  const { upperStages, lowerStages } = summary;
  return (
    <Stack gap="sm">
      <div>
        <Title order={3} size="h5">
          <Trans>Stages</Trans>
        </Title>
        <Text size="sm">
          <Trans>
            Upper: {upperStages} · Lower: {lowerStages} (stage 0 is the initial position)
          </Trans>
        </Text>
      </div>
      <div>
        <Title order={3} size="h5">
          <Trans>IPR</Trans>
        </Title>
        {summary.ipr.length === 0 ? (
          <Text size="sm">
            <Trans>None</Trans>
          </Text>
        ) : (
          <Table withTableBorder striped fz="sm" verticalSpacing={4}>
            <Table.Caption>
              <Trans>Interproximal reduction per contact</Trans>
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">
                  <Trans>Contact</Trans>
                </Table.Th>
                <Table.Th scope="col">
                  <Trans>Amount</Trans>
                </Table.Th>
                <Table.Th scope="col">
                  <Trans>Stage</Trans>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {summary.ipr.map((row, index) => {
                const amount = formatDecimal(row.amountMm, 2);
                return (
                  <Table.Tr
                    key={`${row.contact}-${index}`}
                    fw={stage !== undefined && row.stage === stage ? 700 : undefined}
                    aria-current={stage !== undefined && row.stage === stage ? 'step' : undefined}
                  >
                    <Table.Td>{row.contact}</Table.Td>
                    <Table.Td>{t`${amount} mm`}</Table.Td>
                    <Table.Td>
                      {row.stage ?? '–'}
                      {stage !== undefined && row.stage === stage && t` (this stage)`}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
      </div>
      <div>
        <Title order={3} size="h5">
          <Trans>Attachment teeth</Trans>
        </Title>
        <Text size="sm">{attachmentsText(summary)}</Text>
      </div>
      <div>
        <Title order={3} size="h5">
          <Trans>Notes</Trans>
        </Title>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {summary.notes || t`None`}
        </Text>
      </div>
    </Stack>
  );
}
