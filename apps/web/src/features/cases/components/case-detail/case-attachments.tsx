import { Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { caseFileTypeLabel, type CaseAttachment } from '@portal/contract';
import { AttachmentPreview } from './attachment-preview.tsx';

/** The named groups of docs/spec.md section 3 (Case attachment); every other FileType is 'other'. */
const namedGroups = (
  ['OPV', 'LeteralCeloform', 'MaxillaryScan', 'MandibularScan', 'RightBiteScan', 'LeftBiteScan'] as const
).map((fileType) => ({ fileType, label: caseFileTypeLabel(fileType) }));
const namedTypes = new Set<string>(namedGroups.map((group) => group.fileType));

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
              {isCaptioned && <Text size="xs">{caseFileTypeLabel(attachment.FileType)}</Text>}
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
