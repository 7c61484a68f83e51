import { plural, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Switch, Text, Timeline } from '@mantine/core';
import {
  caseFileTypeLabel,
  caseStatusLabels,
  toothLabel,
  type CaseStatus,
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
import { serverText } from '../../../../lib/server-text.ts';
import { TrackingNumber } from './case-status-panel.tsx';
import { useToothNotation } from '../../../../lib/tooth-notation.ts';

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

/** A status as the contract names it, in the language shown. */
const statusLabel = (status: CaseStatus) => serverText(caseStatusLabels[status]);

/** Who made an entry: "by Grace Hopper". */
const byLine = (byName: string) => t`by ${byName}`;

/** One entry: its title, icon and lines, by kind; the cases an order links are links. */
function describe(
  entry: CaseTimelineEntry,
  system: NumberingSystem,
): { title: string; icon: ReactNode; lines: ReactNode[] } {
  switch (entry.kind) {
    case 'created': {
      const trackingNo = entry.trackingNo;
      const parent = entry.parent;
      const parentOrder = parent && serverText(parent.orderType);
      return {
        title: t`Case submitted`,
        icon: <IconPlus size={12} aria-hidden />,
        lines: [
          t`Tracking No ${trackingNo}`,
          ...(parent
            ? [
                <Trans key="parent">
                  {parentOrder} of <CaseLink {...parent} />
                </Trans>,
              ]
            : []),
          byLine(entry.byName),
        ],
      };
    }
    case 'order': {
      const orderType = serverText(entry.orderType);
      return {
        title: t`${orderType} ordered`,
        icon: <IconGitBranch size={12} aria-hidden />,
        lines: [
          <Trans key="order">
            New case <CaseLink caseId={entry.caseId} trackingNo={entry.trackingNo} />
          </Trans>,
          byLine(entry.byName),
        ],
      };
    }
    case 'files': {
      const count = entry.files.length;
      return {
        title: t`${plural(count, { one: '# file added', other: '# files added' })}`,
        icon: <IconFiles size={12} aria-hidden />,
        lines: [
          entry.files.map((file) => `${file.FileName} (${serverText(caseFileTypeLabel(file.FileType))})`).join(', '),
        ],
      };
    }
    case 'status': {
      const courier = entry.courier;
      const reason = entry.reason;
      const note = entry.note;
      return {
        title: `${statusLabel(entry.from)} → ${statusLabel(entry.to)}`,
        icon:
          entry.reason !== null ? (
            <IconArrowBackUp size={12} aria-hidden />
          ) : entry.to === 'dispatched' ? (
            <IconTruckDelivery size={12} aria-hidden />
          ) : (
            <IconProgress size={12} aria-hidden />
          ),
        lines: [
          byLine(entry.byName),
          ...(courier !== null
            ? [
                <Trans key="courier">
                  Courier: {courier}, tracking number{' '}
                  <TrackingNumber courier={courier} trackingNumber={entry.trackingNumber} />
                </Trans>,
              ]
            : []),
          ...(reason !== null ? [t`Reason: ${reason}`] : []),
          ...(note !== null ? [t`Note: ${note}`] : []),
        ],
      };
    }
    case 'message': {
      const text = entry.text.length > 200 ? `${entry.text.slice(0, 200)}…` : entry.text;
      const fileNames = entry.attachments.map((file) => file.fileName).join(', ');
      return {
        title: entry.side === 'lab' ? t`Message from the lab` : t`Message from the doctor`,
        icon: <IconMessage size={12} aria-hidden />,
        lines: [
          byLine(entry.byName),
          ...(text ? [text] : []),
          ...(entry.attachments.length > 0 ? [t`Files: ${fileNames}`] : []),
        ],
      };
    }
    case 'assignment': {
      const assigneeName = entry.assigneeName;
      return {
        title: assigneeName === null ? t`Unassigned` : t`Assigned to ${assigneeName}`,
        icon: <IconUserCheck size={12} aria-hidden />,
        lines: [byLine(entry.byName)],
      };
    }
    case 'plan': {
      const version = entry.version;
      return {
        title: t`Treatment plan version ${version} uploaded`,
        icon: <IconCube size={12} aria-hidden />,
        lines: [byLine(entry.byName)],
      };
    }
    case 'progress_scan': {
      const stage = entry.stage;
      const failure = entry.reason === null ? t`the fit failed` : serverText(entry.reason);
      return {
        title: t`Progress scan at aligner ${stage}`,
        icon: <IconCube size={12} aria-hidden />,
        lines: [
          byLine(entry.byName),
          entry.state === 'done'
            ? serverText(entry.sentence ?? '')
            : entry.state === 'failed'
              ? t`Not measured: ${failure}`
              : t`Being compared with the plan`,
        ],
      };
    }
    case 'plan_decision': {
      const version = entry.version;
      const comment = entry.comment;
      return {
        title:
          entry.decision === 'approved'
            ? t`Treatment plan version ${version} approved`
            : t`Changes requested on treatment plan version ${version}`,
        icon:
          entry.decision === 'approved' ? (
            <IconCircleCheck size={12} aria-hidden />
          ) : (
            <IconMessageReport size={12} aria-hidden />
          ),
        lines: [
          byLine(entry.byName),
          ...(comment !== null ? [t`Comment: ${comment}`] : []),
          ...entry.pinned.map(({ number, stage, tooth, text }) => {
            if (tooth === null) return t`Pin ${number} (stage ${stage}): ${text}`;
            const toothName = toothLabel(tooth, system);
            return t`Pin ${number} (stage ${stage}, tooth ${toothName}): ${text}`;
          }),
        ],
      };
    }
  }
}

/**
 * The case's timeline: the server answers it oldest first; shown newest first unless the
 * reader turns that off, so the latest change is at the top of a long page.
 */
const universal: NumberingSystem = 'Universal';

export function CaseTimeline({
  entries,
  system: caseSystem = universal,
}: {
  entries: CaseTimelineEntry[];
  /** The case's tooth numbering, for the teeth of pinned comments. */
  system?: NumberingSystem;
}) {
  // Teeth in the reader's notation (docs/decisions/tooth-notation.md); the case's until it is known.
  const system = useToothNotation(caseSystem);
  // Subscribed to the language: the entries' words (global `t`) follow it.
  const { t } = useLingui();
  const [isNewestFirst, setNewestFirst] = useState(true);
  const shown = isNewestFirst ? entries.toReversed() : entries;
  return (
    <>
      <Switch
        label={t`Newest first`}
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
        aria-label={t`Timeline`}
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
