import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Badge, Group, Stack, Table, Text, Title } from '@mantine/core';
import {
  summarizeProgress,
  toothLabel,
  type NumberingSystem,
  type ProgressScan,
  type ProgressScanArch,
  type ProgressScanTooth,
} from '@portal/contract';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { formatDecimal, formatSigned } from '../../../lib/format-number.ts';
import { achievedWords, stageWords, summarySentence, toothList, trustWords } from '../lib/progress-words.ts';
import { OffsetTrend, type TrendPoint } from './offset-trend.tsx';
import { toothDescription } from '../../../lib/tooth-words.ts';
import { useToothNotation } from '../../../lib/tooth-notation.ts';

const archNames = { upper: msg`Upper arch`, lower: msg`Lower arch` } as const;

/** Each tooth's offset over the case's done scans, oldest first. */
export type ToothTrends = ReadonlyMap<number, readonly TrendPoint[]>;

/** The trends of every tooth from the done results, oldest first. */
export function toothTrends(results: readonly Pick<ProgressScan, 'stage' | 'arches'>[]): ToothTrends {
  const trends = new Map<number, TrendPoint[]>();
  for (const result of results) {
    for (const tooth of result.arches.flatMap((arch) => arch.teeth)) {
      const points = trends.get(tooth.tooth) ?? [];
      points.push({ stage: result.stage, offsetMm: tooth.offsetMm });
      trends.set(tooth.tooth, points);
    }
  }
  return trends;
}

// The tooth column stays in view while the figures scroll sideways on a phone.
// Its own bottom border: a positioned cell's background paints over the row's.
const stickyCellStyle = {
  position: 'sticky',
  left: 0,
  zIndex: 1,
  background: 'inherit',
  // eslint-disable-next-line lingui/no-unlocalized-strings -- a CSS value
  boxShadow: 'inset 0 -1px var(--table-border-color)',
} as const;

function ToothRow({
  tooth,
  stage,
  system,
  trend,
}: {
  tooth: ProgressScanTooth;
  stage: number;
  system: NumberingSystem;
  trend: readonly TrendPoint[];
}) {
  const { t: translate } = useLingui();
  const { translationMm: t, rotationDeg: r } = tooth;
  const description = toothDescription(tooth.tooth);
  // An off-track row stands out in colour and in words (its badge), not by colour alone.
  const background = tooth.offTrack ? 'var(--mantine-color-red-0)' : 'var(--mantine-color-body)';
  return (
    <Table.Tr style={{ background }} data-off-track={tooth.offTrack || undefined}>
      <Table.Th
        scope="row"
        fw={600}
        style={{ ...stickyCellStyle, background }}
        aria-label={tooth.offTrack ? translate`${description}, off track` : description}
      >
        {/* The badge under the number when the column is narrow: the sticky column stays slim on a phone. */}
        <Group gap={4}>
          {toothLabel(tooth.tooth, system)}
          {tooth.offTrack && (
            // The label is not clipped: the column grows to hold it (Mantine's label hides its overflow).
            <Badge
              size="xs"
              color="red.9"
              variant="filled"
              radius="sm"
              aria-hidden
              style={{ flexShrink: 0 }}
              styles={{ label: { overflow: 'visible' } }}
            >
              <Trans>Off track</Trans>
            </Badge>
          )}
        </Group>
      </Table.Th>
      <Table.Td fw={600} c={tooth.offTrack ? 'red.9' : undefined}>
        {formatDecimal(tooth.offsetMm, 2)}
      </Table.Td>
      <Table.Td fw={600} c={tooth.offTrack ? 'red.9' : undefined}>
        {formatDecimal(tooth.angleDeg, 1)}
      </Table.Td>
      <Table.Td>{formatSigned(t.mesiodistal, 2)}</Table.Td>
      <Table.Td>{formatSigned(t.buccolingual, 2)}</Table.Td>
      <Table.Td>{formatSigned(t.vertical, 2)}</Table.Td>
      <Table.Td>{formatSigned(r.tip, 1)}</Table.Td>
      <Table.Td>{formatSigned(r.torque, 1)}</Table.Td>
      <Table.Td>{formatSigned(r.rotation, 1)}</Table.Td>
      <Table.Td>{stageWords(tooth.matchedStage, stage)}</Table.Td>
      <Table.Td>{achievedWords(tooth.achievedPercent)}</Table.Td>
      <Table.Td>
        <OffsetTrend points={trend} />
      </Table.Td>
    </Table.Tr>
  );
}

/** One arch: the fit's anchors and residual (how far to trust it), then each tooth. */
export function ArchTable({
  arch,
  stage,
  system: caseSystem,
  trends,
}: {
  arch: ProgressScanArch;
  stage: number;
  system: NumberingSystem;
  trends: ToothTrends;
}) {
  // Teeth in the reader's notation (docs/decisions/tooth-notation.md); the case's until it is known.
  const system = useToothNotation(caseSystem);
  const { t, i18n } = useLingui();
  const titleId = `progress-arch-${arch.arch}`;
  const archName = i18n._(archNames[arch.arch]);
  const notInView = toothList(arch.notInView, system);
  return (
    <Stack gap={4} component="section" aria-labelledby={titleId}>
      <Title order={4} size="h5" id={titleId}>
        {archName}
      </Title>
      <Text size="sm" c="dimmed">
        {trustWords(arch, system)}
        {arch.notInView.length > 0 && <> · {t`not measured (too little in view): ${notInView}`}</>}
      </Text>
      {/* Sideways on a phone: a native scroller that the keyboard reaches, as axe asks (as the movement table). */}
      <Table.ScrollContainer
        minWidth={900}
        type="native"
        tabIndex={0}
        role="region"
        aria-label={t`${archName} teeth against the plan, scrolls sideways`}
      >
        <Table
          withTableBorder
          withColumnBorders
          fz="sm"
          verticalSpacing={4}
          horizontalSpacing={8}
          style={{ fontVariantNumeric: 'tabular-nums' }}
          aria-describedby={`${titleId}-axes`}
        >
          <Table.Thead>
            {/* Units on the groups, so that the columns' own names stay short on a narrow screen. */}
            <Table.Tr>
              {/* As narrow as its widest content (the badge): the figures get the room. */}
              <Table.Th
                scope="col"
                rowSpan={2}
                style={{ ...stickyCellStyle, background: 'var(--mantine-color-body)', width: '1%' }}
              >
                <Trans>Tooth</Trans>
              </Table.Th>
              <Table.Th scope="col" rowSpan={2}>
                <Trans>Offset (mm)</Trans>
              </Table.Th>
              <Table.Th scope="col" rowSpan={2}>
                <Trans>Angle (°)</Trans>
              </Table.Th>
              <Table.Th scope="colgroup" colSpan={3} ta="center">
                <Trans>Movement off the plan (mm)</Trans>
              </Table.Th>
              <Table.Th scope="colgroup" colSpan={3} ta="center">
                <Trans>Turn off the plan (°)</Trans>
              </Table.Th>
              <Table.Th scope="col" rowSpan={2}>
                <Trans>Matches</Trans>
              </Table.Th>
              <Table.Th scope="col" rowSpan={2}>
                <Trans>Achieved</Trans>
              </Table.Th>
              <Table.Th scope="col" rowSpan={2}>
                <Trans>Trend</Trans>
              </Table.Th>
            </Table.Tr>
            <Table.Tr>
              <Table.Th scope="col">
                <Trans>Mesial / distal</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Buccal / lingual</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Extrusion / intrusion</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Tip</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Torque</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Rotation</Trans>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {arch.teeth.map((tooth) => (
              <ToothRow
                key={tooth.tooth}
                tooth={tooth}
                stage={stage}
                system={system}
                trend={trends.get(tooth.tooth) ?? []}
              />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="xs" c="dimmed" id={`${titleId}-axes`}>
        <Trans>
          Against the plan at aligner {stage}, in each tooth&apos;s own axes. Positive: mesial, buccal, extrusion; the
          crown tipped mesially, torqued buccally; the mesial side rotated buccally. Achieved: the share of the movement
          planned so far that the tooth made.
        </Trans>
      </Text>
    </Stack>
  );
}

/** A done scan's summary, read in a second: the sentence, in the colour of its verdict. */
export function ResultSummary({
  scan,
  system: caseSystem,
}: {
  scan: Pick<ProgressScan, 'arches'>;
  system: NumberingSystem;
}) {
  const system = useToothNotation(caseSystem);
  const summary = summarizeProgress(scan.arches);
  const isOnTrack = summary.offTrackTeeth.length === 0;
  return (
    <Alert
      color={isOnTrack ? 'teal' : 'red'}
      variant="light"
      p="xs"
      icon={isOnTrack ? <IconCircleCheck size={18} aria-hidden /> : <IconAlertTriangle size={18} aria-hidden />}
      // The light title colours fall under 4.5:1 on their backgrounds: the text colour instead.
      styles={{ title: { color: 'var(--mantine-color-text)', fontSize: 'var(--mantine-font-size-md)' } }}
      title={summarySentence(summary, system)}
    />
  );
}

/**
 * A progress scan's result (docs/decisions/progress-scans.md): the summary, then per arch the
 * fit's anchors and residual and each tooth against the planned stage. `actions` sit in the
 * header (ordering a refinement; viewing the scan on the plan).
 */
export function ProgressResult({
  scan,
  system: caseSystem,
  trends,
  actions,
}: {
  scan: ProgressScan;
  system: NumberingSystem;
  trends: ToothTrends;
  actions?: ReactNode;
}) {
  // Teeth in the reader's notation (docs/decisions/tooth-notation.md); the case's until it is known.
  const system = useToothNotation(caseSystem);
  const { t } = useLingui();
  const stage = scan.stage;
  return (
    <Stack gap="sm" aria-label={t`Progress scan at aligner ${stage}`} component="section">
      <Group justify="space-between" align="flex-start" gap="xs">
        <Title order={3} size="h5">
          <Trans>Result at aligner {stage}</Trans>
        </Title>
        <Group gap="xs" data-testid="progress-result-actions">
          {actions}
        </Group>
      </Group>
      <ResultSummary scan={scan} system={system} />
      {scan.arches.map((arch) => (
        <ArchTable key={arch.arch} arch={arch} stage={scan.stage} system={system} trends={trends} />
      ))}
    </Stack>
  );
}
