import { Anchor, Switch, Text, Timeline } from '@mantine/core';
import {
  caseFileTypeLabel,
  caseStatusLabels,
  toothLabel,
  type CaseTimelineEntry,
  type NumberingSystem,
} from '@portal/contract';
import {
  IconArrowBackUp,
  IconCircleCheck,
  IconCube,
  IconFiles,
  IconGitBranch,
  IconMessage,
  IconMessageReport,
  IconPlus,
  IconProgress,
  IconTruckDelivery,
  IconUserCheck,
} from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { casePath } from '../../../../config/paths.ts';
import { formatDateTime } from '../../../../lib/format-date.ts';
import { TrackingNumber } from './case-status-panel.tsx';

function Line({ children }: { children: ReactNode }) {
  return <Text size="sm">{children}</Text>;
}

function CaseLink({ caseId, trackingNo }: { caseId: number; trackingNo: string }) {
  return (
    <Anchor component={Link} to={casePath(caseId)} size="sm">
      {trackingNo}
    </Anchor>
  );
}

/** One entry: its title, icon and lines, by kind; the cases an order links are links. */
function describe(
  entry: CaseTimelineEntry,
  system: NumberingSystem,
): { title: string; icon: ReactNode; lines: ReactNode[] } {
  switch (entry.kind) {
    case 'created':
      return {
        title: 'Case submitted',
        icon: <IconPlus size={12} aria-hidden />,
        lines: [
          `Tracking No ${entry.trackingNo}`,
          ...(entry.parent
            ? [
                <>
                  {entry.parent.orderType} of <CaseLink {...entry.parent} />
                </>,
              ]
            : []),
          `by ${entry.byName}`,
        ],
      };
    case 'order':
      return {
        title: `${entry.orderType} ordered`,
        icon: <IconGitBranch size={12} aria-hidden />,
        lines: [
          <>
            New case <CaseLink caseId={entry.caseId} trackingNo={entry.trackingNo} />
          </>,
          `by ${entry.byName}`,
        ],
      };
    case 'files':
      return {
        title: `${entry.files.length} ${entry.files.length === 1 ? 'file' : 'files'} added`,
        icon: <IconFiles size={12} aria-hidden />,
        lines: [entry.files.map((file) => `${file.FileName} (${caseFileTypeLabel(file.FileType)})`).join(', ')],
      };
    case 'status':
      return {
        title: `${caseStatusLabels[entry.from]} → ${caseStatusLabels[entry.to]}`,
        icon:
          entry.reason !== null ? (
            <IconArrowBackUp size={12} aria-hidden />
          ) : entry.to === 'dispatched' ? (
            <IconTruckDelivery size={12} aria-hidden />
          ) : (
            <IconProgress size={12} aria-hidden />
          ),
        lines: [
          `by ${entry.byName}`,
          ...(entry.courier !== null
            ? [
                <>
                  Courier: {entry.courier}, tracking number{' '}
                  <TrackingNumber courier={entry.courier} trackingNumber={entry.trackingNumber} />
                </>,
              ]
            : []),
          ...(entry.reason !== null ? [`Reason: ${entry.reason}`] : []),
          ...(entry.note !== null ? [`Note: ${entry.note}`] : []),
        ],
      };
    case 'message':
      return {
        title: `Message from the ${entry.side === 'lab' ? 'lab' : 'doctor'}`,
        icon: <IconMessage size={12} aria-hidden />,
        lines: [
          `by ${entry.byName}`,
          ...(entry.text ? [entry.text.length > 200 ? `${entry.text.slice(0, 200)}…` : entry.text] : []),
          ...(entry.attachments.length > 0
            ? [`Files: ${entry.attachments.map((file) => file.fileName).join(', ')}`]
            : []),
        ],
      };
    case 'assignment':
      return {
        title: entry.assigneeName === null ? 'Unassigned' : `Assigned to ${entry.assigneeName}`,
        icon: <IconUserCheck size={12} aria-hidden />,
        lines: [`by ${entry.byName}`],
      };
    case 'plan':
      return {
        title: `Treatment plan version ${entry.version} uploaded`,
        icon: <IconCube size={12} aria-hidden />,
        lines: [`by ${entry.byName}`],
      };
    case 'plan_decision':
      return {
        title:
          entry.decision === 'approved'
            ? `Treatment plan version ${entry.version} approved`
            : `Changes requested on treatment plan version ${entry.version}`,
        icon:
          entry.decision === 'approved' ? (
            <IconCircleCheck size={12} aria-hidden />
          ) : (
            <IconMessageReport size={12} aria-hidden />
          ),
        lines: [
          `by ${entry.byName}`,
          ...(entry.comment !== null ? [`Comment: ${entry.comment}`] : []),
          ...entry.pinned.map(
            (pin) =>
              `Pin ${pin.number} (stage ${pin.stage}${pin.tooth === null ? '' : `, tooth ${toothLabel(pin.tooth, system)}`}): ${pin.text}`,
          ),
        ],
      };
  }
}

/**
 * The case's timeline: the server answers it oldest first; shown newest first unless the
 * reader turns that off, so the latest change is at the top of a long page.
 */
export function CaseTimeline({
  entries,
  system = 'Universal',
}: {
  entries: CaseTimelineEntry[];
  /** The case's tooth numbering, for the teeth of pinned comments. */
  system?: NumberingSystem;
}) {
  const [isNewestFirst, setNewestFirst] = useState(true);
  const shown = isNewestFirst ? entries.toReversed() : entries;
  return (
    <>
      <Switch
        label="Newest first"
        size="xs"
        mb="sm"
        checked={isNewestFirst}
        onChange={(event) => setNewestFirst(event.currentTarget.checked)}
      />
      <Timeline
        active={entries.length - 1}
        reverseActive={isNewestFirst}
        bulletSize={22}
        lineWidth={2}
        color="teal.9"
        aria-label="Timeline"
      >
        {shown.map((entry, index) => {
          const { title, icon, lines } = describe(entry, system);
          return (
            <Timeline.Item key={`${entry.kind}-${entry.at}-${index}`} title={title} bullet={icon}>
              {lines.map((line, lineIndex) => (
                <Line key={lineIndex}>{line}</Line>
              ))}
              <Text size="xs" c="dimmed">
                {formatDateTime(entry.at)}
              </Text>
            </Timeline.Item>
          );
        })}
      </Timeline>
    </>
  );
}
