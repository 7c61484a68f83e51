import { msg, plural } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { useLingui as useLinguiContext } from '@lingui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, List, Text } from '@mantine/core';
import {
  checkPlan,
  type PlanCheckInput,
  type PlanFinding,
  type PlanFindingKind,
  type PlanPrescription,
  type PlanVersion,
} from '@portal/contract';
import { IconAlertTriangle, IconHourglass } from '@tabler/icons-react';
import { serverText } from '../../../lib/server-text.ts';

/** A finding's kind in a word or two: the movement table's marks and the lists' headings. */
export const findingKindLabels: Record<PlanFindingKind, MessageDescriptor> = {
  doNotMove: msg`Don't move`,
  extraction: msg`Extract`,
  ipr: msg`IPR`,
  attachment: msg`No attachment`,
  stepLimit: msg`Step limit`,
};

/** The findings as a list, each its kind and the server's message (teeth in the case's numbering). */
export function FindingsList({ findings }: { findings: PlanFinding[] }) {
  const { i18n } = useLinguiContext();
  return (
    <List size="sm" spacing={2}>
      {findings.map((finding) => {
        const kind = i18n._(findingKindLabels[finding.kind]);
        return (
          <List.Item key={`${finding.kind}-${finding.message}`}>
            <Text span size="sm" fw={600}>
              <Trans>{kind}:</Trans>
            </Text>{' '}
            {serverText(finding.message)}
          </List.Item>
        );
      })}
    </List>
  );
}

/**
 * A version's check against the prescription and the lab's limits
 * (docs/decisions/plans.md § Plans checked against the prescription): still running, what it
 * found with the lab's reason, or what it could not check. Nothing when all is well.
 */
export function PlanFindings({
  plan,
}: {
  plan: Pick<PlanVersion, 'version' | 'findings' | 'findingsCheck' | 'summary'>;
}) {
  const { t } = useLingui();
  const { findings, findingsCheck, version } = plan;
  const reason = plan.summary.findingsReason ?? '';
  const count = findings.length;
  if (findingsCheck.state === 'pending' && findings.length === 0) {
    return (
      <Text size="sm" c="dimmed" role="status">
        <IconHourglass size={14} aria-hidden style={{ verticalAlign: 'middle' }} />{' '}
        <Trans>Being checked against the prescription: the tooth movements are being measured.</Trans>
      </Text>
    );
  }
  if (findings.length === 0 && findingsCheck.state === 'complete') return null;
  return (
    <Alert
      color="orange"
      variant="light"
      p="xs"
      icon={<IconAlertTriangle size={18} aria-hidden />}
      // The light orange title falls under 4.5:1 on its background: the text colour instead.
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
      title={
        count === 0
          ? t`Version ${version} could not be checked in full`
          : t`Version ${version} departs from the prescription: ${plural(count, { one: '# finding', other: '# findings' })}`
      }
    >
      {findings.length > 0 && <FindingsList findings={findings} />}
      {findingsCheck.note && (
        <Text size="sm" mt={4}>
          {serverText(findingsCheck.note)}
        </Text>
      )}
      {reason && (
        <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap' }}>
          <Text span size="sm" fw={600}>
            <Trans>The lab&apos;s reason:</Trans>
          </Text>{' '}
          {reason}
        </Text>
      )}
    </Alert>
  );
}

/**
 * The upload form's check of the summary as it is typed: IPR and attachments against the
 * prescription. The tooth movements are checked by the server once measured after upload.
 */
export function SummaryFindings({
  prescription,
  summary,
}: {
  prescription: PlanPrescription;
  summary: PlanCheckInput['summary'];
}) {
  const { t } = useLingui();
  const findings = checkPlan({
    prescription,
    summary,
    limits: { stepMm: Number.POSITIVE_INFINITY, stepDeg: Number.POSITIVE_INFINITY },
    measured: [],
    measuredArches: [],
  });
  const count = findings.length;
  if (count === 0) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      p="xs"
      icon={<IconAlertTriangle size={18} aria-hidden />}
      // The light orange title falls under 4.5:1 on its background: the text colour instead.
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
      title={t`This summary departs from the prescription: ${plural(count, { one: '# finding', other: '# findings' })}`}
    >
      <FindingsList findings={findings} />
      <Text size="sm" mt={4}>
        <Trans>
          You can still upload it: give the doctor your reason below. The doctor acknowledges the findings to approve.
        </Trans>
      </Text>
    </Alert>
  );
}
