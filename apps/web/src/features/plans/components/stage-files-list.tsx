import { Group, Stack, Text } from '@mantine/core';
import type { PlanArch } from '@portal/contract';
import { IconAlertTriangle, IconCheck, IconFileZip, IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { checkStageFiles, stageRuns } from '../lib/stage-files-check.ts';

const archNames: Record<PlanArch, string> = { upper: 'Upper arch', lower: 'Lower arch' };

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

/**
 * The stages the dropped files hold per arch, read from their names before anything is sent:
 * found, missing against the typed counts, duplicated, past the last; names that say no arch
 * and stage; a ZIP, whose contents the server lists.
 */
export function StageFilesList({ files, counts }: { files: File[]; counts: Record<PlanArch, number | undefined> }) {
  const check = checkStageFiles(
    files.map((file) => file.name),
    counts,
  );
  return (
    <Stack gap={8} mt={6} component="section" aria-label="Stages in the files">
      <Text size="sm" fw={500} aria-live="polite">
        {files.length === 1 ? '1 file selected' : `${files.length} files selected`}
      </Text>
      {check.arches.map(({ arch, found, missing, duplicates, beyondLast }) => (
        <Stack key={arch} gap={2} aria-label={archNames[arch]} role="group">
          <Text size="sm" fw={600}>
            {archNames[arch]}
            {counts[arch] ? `: stages 0–${counts[arch]}` : ''}
          </Text>
          <Line kind={found.length > 0 ? 'ok' : 'problem'}>Found: {found.length > 0 ? stageRuns(found) : 'none'}</Line>
          {missing === undefined ? (
            <Line kind="note">Type the number of {arch} stages to check for missing ones</Line>
          ) : (
            missing.length > 0 && <Line kind="problem">Missing: {stageRuns(missing)}</Line>
          )}
          {duplicates.length > 0 && <Line kind="problem">More than one file: stage {stageRuns(duplicates)}</Line>}
          {beyondLast.length > 0 && <Line kind="problem">Past the last stage: {stageRuns(beyondLast)}</Line>}
        </Stack>
      ))}
      {check.unreadable.length > 0 && (
        <Line kind="problem">
          Names that do not say the arch and stage (e.g. upper_03.stl): {check.unreadable.join(', ')}
        </Line>
      )}
      {check.zips.map((name) => (
        <Group key={name} gap={6} wrap="nowrap">
          <IconFileZip size={16} aria-hidden />
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {name} — ZIP: its stages are checked on upload
          </Text>
        </Group>
      ))}
    </Stack>
  );
}
