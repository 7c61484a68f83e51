import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { useLingui as useLinguiContext } from '@lingui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Group, Stack, Text } from '@mantine/core';
import { planArches, type PlanArch } from '@portal/contract';
import { IconAlertTriangle, IconCheck, IconFileZip, IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { stageCountsOf, type StageFileListing, type ZipListing } from '../lib/stage-file-listing.ts';
import { checkStageFiles, stageRuns } from '../lib/stage-files-check.ts';

const archNames: Record<PlanArch, MessageDescriptor> = { upper: msg`Upper arch`, lower: msg`Lower arch` };

/** One line of the list: an icon and a word that say how it stands, then the stages or names. */
function Line({ kind, children }: { kind: 'ok' | 'problem' | 'note'; children: ReactNode }) {
  const Icon = kind === 'ok' ? IconCheck : kind === 'problem' ? IconX : IconAlertTriangle;
  const color = kind === 'ok' ? 'teal.8' : kind === 'problem' ? 'red.8' : 'orange.9';
  return (
    <Group gap={6} wrap="nowrap" align="flex-start">
      <Text c={color} lh={1} pt={2} aria-hidden>
        <Icon size={16} />
      </Text>
      <Text size="sm" c={kind === 'ok' ? undefined : color} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}

/** A ZIP chosen: how many stage files it lists, or, where its list cannot be read here, that the server checks it. */
function ZipLine({ zip }: { zip: ZipListing }) {
  const { t } = useLingui();
  const name = zip.name;
  const entries = 'entries' in zip ? zip.entries : 0;
  const problem = 'problem' in zip ? zip.problem : '';
  return (
    <Group gap={6} wrap="nowrap" align="flex-start">
      <Text lh={1} pt={2} aria-hidden>
        <IconFileZip size={16} />
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {'entries' in zip
          ? t`${name}: a ZIP of ${plural(entries, { one: '# file', other: '# files' })}`
          : t`${name}: its list of files could not be read here (${problem}); its stages are checked on upload`}
      </Text>
    </Group>
  );
}

/**
 * The stages the chosen files hold per arch, read from their names before anything is sent
 * (a ZIP's from its list of entries): found, missing against the counts, duplicated, past
 * the last; names that say no arch and stage. While a ZIP's list is read, or where it cannot
 * be, nothing is said missing: the server checks the stages on upload.
 */
export function StageFilesList({
  files,
  listing,
  counts,
}: {
  files: File[];
  /** Undefined while a ZIP's list is read. */
  listing: StageFileListing | undefined;
  counts: Record<PlanArch, number | undefined>;
}) {
  const { t } = useLingui();
  const { i18n } = useLinguiContext();
  const isListed = listing !== undefined && listing.zips.every((zip) => 'entries' in zip);
  const check = isListed ? checkStageFiles(listing.names, counts) : { arches: [], unreadable: [] };
  const fromNames = isListed ? stageCountsOf(listing.names) : undefined;
  const unreadable = check.unreadable.join(', ');
  const fileCount = files.length;
  const isFilled = fromNames !== undefined && planArches.every((arch) => counts[arch] === fromNames[arch]);
  return (
    <Stack gap={8} mt={6} component="section" aria-label={t`Stages in the files`}>
      <Text size="sm" fw={500} aria-live="polite">
        {plural(fileCount, { one: '# file selected', other: '# files selected' })}
      </Text>
      {listing === undefined ? (
        <Text size="sm" c="dimmed">
          <Trans>Reading the ZIP&apos;s list of files…</Trans>
        </Text>
      ) : (
        listing.zips.map((zip) => <ZipLine key={zip.name} zip={zip} />)
      )}
      {isFilled && (
        <Text size="xs" c="dimmed">
          <Trans>The stage counts above are the last stages in these names; change them if the plan has more.</Trans>
        </Text>
      )}
      {listing !== undefined && listing.zips.length > 0 && files.length > 1 && (
        <Line kind="problem">
          <Trans>Send either STL files or one ZIP of them, not both</Trans>
        </Line>
      )}
      {check.arches.map(({ arch, found, missing, duplicates, beyondLast }) => {
        const archName = i18n._(archNames[arch]);
        const count = counts[arch];
        const foundRuns = stageRuns(found);
        const missingRuns = stageRuns(missing ?? []);
        const duplicateRuns = stageRuns(duplicates);
        const pastRuns = stageRuns(beyondLast);
        return (
          <Stack key={arch} gap={2} aria-label={archName} role="group">
            <Text size="sm" fw={600}>
              {count ? t`${archName}: stages 0–${count}` : archName}
            </Text>
            <Line kind={found.length > 0 ? 'ok' : 'problem'}>
              {found.length > 0 ? <Trans>Found: {foundRuns}</Trans> : <Trans>Found: none</Trans>}
            </Line>
            {missing === undefined ? (
              <Line kind="note">
                {arch === 'upper' ? (
                  <Trans>Type the number of upper stages to check for missing ones</Trans>
                ) : (
                  <Trans>Type the number of lower stages to check for missing ones</Trans>
                )}
              </Line>
            ) : (
              missing.length > 0 && (
                <Line kind="problem">
                  <Trans>Missing: {missingRuns}</Trans>
                </Line>
              )
            )}
            {duplicates.length > 0 && (
              <Line kind="problem">
                <Trans>More than one file: stage {duplicateRuns}</Trans>
              </Line>
            )}
            {beyondLast.length > 0 && (
              <Line kind="problem">
                <Trans>Past the last stage: {pastRuns}</Trans>
              </Line>
            )}
          </Stack>
        );
      })}
      {check.unreadable.length > 0 && (
        <Line kind="problem">
          <Trans>Names that do not say the arch and stage (e.g. upper_03.stl): {unreadable}</Trans>
        </Line>
      )}
    </Stack>
  );
}
