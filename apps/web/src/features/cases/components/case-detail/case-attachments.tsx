import { Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { CaseAttachment, CaseFileType } from '@portal/contract';
import { AttachmentPreview } from './attachment-preview.tsx';

/** The named groups of docs/spec.md section 3 (Case attachment); every other FileType is 'other'. */
const namedGroups: { fileType: CaseFileType; label: string }[] = [
  { fileType: 'OPV', label: 'X-Ray OPG' },
  { fileType: 'LeteralCeloform', label: 'X-Ray CEPH' },
  { fileType: 'MaxillaryScan', label: 'STL-1' },
  { fileType: 'MandibularScan', label: 'STL-2' },
  { fileType: 'RightBiteScan', label: 'BITE-1' },
  { fileType: 'LeftBiteScan', label: 'BITE-2' },
];
const namedTypes = new Set<string>(namedGroups.map((group) => group.fileType));

/** A named group's label ('OPV' -> 'X-Ray OPG'), else 'FrontSmiling' -> 'Front Smiling'. */
export const fileTypeLabel = (fileType: string) =>
  namedGroups.find((group) => group.fileType === fileType)?.label ?? fileType.replace(/([a-z])([A-Z])/g, '$1 $2');

function AttachmentGroup({
  title,
  emptyText,
  attachments,
  isCaptioned = false,
}: {
  title: string;
  emptyText: string;
  attachments: CaseAttachment[];
  isCaptioned?: boolean;
}) {
  return (
    <Paper withBorder p="sm" component="section" aria-label={title}>
      <Title order={5} size="h6" mb="xs">
        {title}
      </Title>
      {attachments.length === 0 ? (
        <Text size="sm" c="dimmed">
          {emptyText}
        </Text>
      ) : (
        <Group gap="md" align="flex-start">
          {attachments.map((attachment) => (
            <Stack key={attachment.FilePath} gap={4} maw="100%">
              <AttachmentPreview attachment={attachment} />
              {isCaptioned && <Text size="xs">{fileTypeLabel(attachment.FileType)}</Text>}
            </Stack>
          ))}
        </Group>
      )}
    </Paper>
  );
}

export function CaseAttachments({ attachments }: { attachments: CaseAttachment[] }) {
  const others = attachments.filter((attachment) => !namedTypes.has(attachment.FileType));
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      {namedGroups.map((group) => (
        <AttachmentGroup
          key={group.fileType}
          title={group.label}
          emptyText={`No ${group.label} attachments`}
          attachments={attachments.filter((attachment) => attachment.FileType === group.fileType)}
        />
      ))}
      <AttachmentGroup title="Other files" emptyText="No other attachments" attachments={others} isCaptioned />
    </SimpleGrid>
  );
}
