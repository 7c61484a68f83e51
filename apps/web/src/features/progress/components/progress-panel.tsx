import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { NumberingSystem, ProgressScan, ProgressScanListItem, ProgressScanState } from '@portal/contract';
import { IconGitBranch, IconScan } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { refinementFromScanPath } from '../../../config/paths.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { serverRefusalText } from '../../../lib/server-text.ts';
import { intlLocale } from '../../../lib/i18n.ts';
import { isFitting, useDoneResults, useProgressScan, useProgressScans } from '../api/get-progress-scans.ts';
import { summarySentence } from '../lib/progress-words.ts';
import { ProgressResult, toothTrends } from './progress-result.tsx';
import { SendProgressScanModal, type ApprovedStages } from './send-progress-scan-modal.tsx';
import { useToothNotation } from '../../../lib/tooth-notation.ts';

// Shades with at least 4.5:1 contrast to white text.
const stateBadges: Record<ProgressScanState, { label: MessageDescriptor; color: string }> = {
  queued: { label: msg`Fitting…`, color: 'indigo.9' },
  running: { label: msg`Fitting…`, color: 'indigo.9' },
  done: { label: msg`Done`, color: 'teal.9' },
  failed: { label: msg`Failed`, color: 'red.9' },
};

/** The arches sent, in words: "upper", "upper and lower". */
const sentLabels = { upper: msg`upper`, lower: msg`lower` } as const;

function ScanRow({
  scan,
  system,
  isOpen,
  onOpen,
}: {
  scan: ProgressScanListItem;
  system: NumberingSystem;
  isOpen: boolean;
  onOpen: () => void;
}) {
  const { t, i18n } = useLingui();
  const badge = stateBadges[scan.state];
  const stage = scan.stage;
  const sentAt = formatDateTime(scan.createdAt);
  const sent = new Intl.ListFormat(intlLocale(), { type: 'conjunction' }).format(
    scan.sent.map((arch) => i18n._(sentLabels[arch])),
  );
  const isOffTrack = (scan.summary?.offTrackTeeth.length ?? 0) > 0;
  return (
    <Paper
      component="li"
      withBorder
      p="sm"
      style={{ listStyle: 'none' }}
      aria-label={t`Progress scan at aligner ${stage}`}
    >
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <Stack gap={2} style={{ flex: '1 1 16rem', minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={600}>
              <Trans>Aligner {stage}</Trans>
            </Text>
            <Badge color={badge.color} variant="filled" radius="sm">
              {i18n._(badge.label)}
            </Badge>
            {isOffTrack && (
              <Badge color="red.9" variant="outline" radius="sm">
                <Trans>Off track</Trans>
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            <Trans>
              Sent {sentAt} · {sent}
            </Trans>
          </Text>
          {scan.state === 'done' && scan.summary && <Text size="sm">{summarySentence(scan.summary, system)}</Text>}
          {isFitting(scan.state) && (
            <Text size="sm" c="dimmed" role="status">
              <Trans>Fitting the scan to the plan…</Trans>
            </Text>
          )}
          {scan.state === 'failed' && (
            <Text size="sm" c="red.9">
              {scan.reason != null
                ? serverRefusalText(scan.reason, scan.reasonCode, scan.reasonParams)
                : t`The scan could not be fitted.`}
            </Text>
          )}
        </Stack>
        {scan.state === 'done' && (
          <Button variant={isOpen ? 'light' : 'default'} size="xs" onClick={onOpen} aria-expanded={isOpen}>
            {isOpen ? t`Hide the result` : t`See the result`}
          </Button>
        )}
      </Group>
    </Paper>
  );
}

/** The opened scan's result, with its actions: a refinement from its off-track teeth. */
function OpenResult({
  caseId,
  progressScanId,
  system,
  scans,
  canOrder,
  resultActions,
}: {
  caseId: number;
  progressScanId: number;
  system: NumberingSystem;
  scans: readonly ProgressScanListItem[];
  canOrder: boolean;
  resultActions?: (scan: ProgressScan) => ReactNode;
}) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const scan = useProgressScan(caseId, progressScanId);
  const done = useDoneResults(caseId, scans);
  if (!scan.data) {
    return (
      <Text size="sm" c="dimmed" role="status">
        {scan.isError ? t`The result could not be loaded.` : t`Loading the result…`}
      </Text>
    );
  }
  const result = scan.data;
  if (result.state !== 'done') return null;
  const hasOffTrack = result.arches.some((arch) => arch.teeth.some((tooth) => tooth.offTrack));
  // The trend reads the done scans up to this one: a later scan is not this one's past.
  const trends = toothTrends(done.filter((earlier) => earlier.createdAt <= result.createdAt));
  return (
    <Paper withBorder p="sm" bg="var(--mantine-color-body)">
      <ProgressResult
        scan={result}
        system={system}
        trends={trends}
        actions={
          <>
            {canOrder && hasOffTrack && (
              <Button
                leftSection={<IconGitBranch size={16} aria-hidden />}
                onClick={() => void navigate(refinementFromScanPath(caseId, progressScanId))}
              >
                <Trans>Order a refinement</Trans>
              </Button>
            )}
            {resultActions?.(result)}
          </>
        }
      />
    </Paper>
  );
}

/**
 * The case page's progress scans (docs/decisions/progress-scans.md): each sent scan, newest
 * first, with its stage, date, state and summary; "Add a progress scan" once a version is
 * approved; a done scan's result opened in place. Live `case.progressScan` events refresh it.
 * The server decides who may send (the case's doctor, their assistants, the lab); everyone
 * on the case page is one of them.
 */
export function ProgressPanel({
  caseId,
  numbering: caseNumbering,
  approved,
  canOrder,
  resultActions,
}: {
  caseId: number;
  numbering: NumberingSystem;
  /** The approved version's stages; null before a version is approved (no scan to compare yet). */
  approved: ApprovedStages | null;
  /** May order a refinement from the case (as its "Order from this case" menu). */
  canOrder: boolean;
  /** More actions of a done result, from outside this feature ("View on the plan", the plans feature's overlay). */
  resultActions?: (scan: ProgressScan) => ReactNode;
}) {
  // Teeth in the reader's notation (docs/decisions/tooth-notation.md); the case's until it is known.
  const numbering = useToothNotation(caseNumbering);
  const { t } = useLingui();
  const scans = useProgressScans(caseId);
  const [isSending, setIsSending] = useState(false);
  const [openId, setOpenId] = useState<number | null>(null);
  const list = scans.data ?? [];
  if (approved === null && list.length === 0) return null;
  const opened = list.find((scan) => scan.progressScanId === openId);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="progress-title" id="progress">
      <Group justify="space-between" mb="sm" gap="xs">
        <Title order={3} size="h4" id="progress-title">
          <Trans>Progress scans</Trans>
        </Title>
        {approved !== null && (
          <Button leftSection={<IconScan size={16} aria-hidden />} onClick={() => setIsSending(true)}>
            <Trans>Add a progress scan</Trans>
          </Button>
        )}
      </Group>
      {scans.data === undefined ? (
        <Text size="sm" c="dimmed">
          {scans.isError ? t`The progress scans could not be loaded.` : t`Loading...`}
        </Text>
      ) : list.length === 0 ? (
        <Text size="sm" c="dimmed">
          <Trans>
            No progress scan yet. Send one mid-treatment to see, tooth by tooth, whether the teeth follow the plan.
          </Trans>
        </Text>
      ) : (
        <Stack gap="sm">
          <Stack component="ul" gap="xs" p={0} m={0} aria-label={t`Progress scans, newest first`}>
            {list.map((scan) => (
              <ScanRow
                key={scan.progressScanId}
                scan={scan}
                system={numbering}
                isOpen={scan.progressScanId === openId}
                onOpen={() => setOpenId((now) => (now === scan.progressScanId ? null : scan.progressScanId))}
              />
            ))}
          </Stack>
          {opened?.state === 'done' && (
            <OpenResult
              key={opened.progressScanId}
              caseId={caseId}
              progressScanId={opened.progressScanId}
              system={numbering}
              scans={list}
              canOrder={canOrder}
              resultActions={resultActions}
            />
          )}
        </Stack>
      )}
      {isSending && approved !== null && (
        <SendProgressScanModal
          caseId={caseId}
          approved={approved}
          onClose={() => setIsSending(false)}
          onSent={(progressScanId) => {
            setIsSending(false);
            // The sent scan opens as soon as its fit is done.
            setOpenId(progressScanId);
          }}
        />
      )}
    </Paper>
  );
}
