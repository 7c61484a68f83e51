import { Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { caseFileTypeLabel, type CaseAttachment } from '@portal/contract';
import { useRef, useState } from 'react';
import { AttachmentPreview, isPhoto } from './attachment-preview.tsx';
import { PhotoGallery } from './photo-gallery.tsx';

/** The named groups of docs/spec.md section 3 (Case attachment); every other FileType is 'other'. */
const namedGroups = (
  ['OPV', 'LeteralCeloform', 'MaxillaryScan', 'MandibularScan', 'RightBiteScan', 'LeftBiteScan'] as const
).map((fileType) => ({ fileType, label: caseFileTypeLabel(fileType) }));
const namedTypes = new Set<string>(namedGroups.map((group) => group.fileType));

/** How a group's photos open the gallery and get focus back from it, by FilePath. */
interface PhotoLinks {
  open: (filePath: string) => void;
  refs: Map<string, HTMLAnchorElement>;
}

function AttachmentGroup({
  title,
  emptyText,
  attachments,
  photoLinks,
  isCaptioned = false,
}: {
  title: string;
  emptyText: string;
  attachments: CaseAttachment[];
  photoLinks: PhotoLinks;
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
              <AttachmentPreview
                attachment={attachment}
                onOpenPhoto={() => photoLinks.open(attachment.FilePath)}
                photoLinkRef={(link) => {
                  if (link) photoLinks.refs.set(attachment.FilePath, link);
                  else photoLinks.refs.delete(attachment.FilePath);
                }}
              />
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
  const groups = namedGroups.map((group) => ({
    ...group,
    attachments: attachments.filter((attachment) => attachment.FileType === group.fileType),
  }));
  // The gallery goes through the photos in the order the page shows them.
  const photos = [...groups.flatMap((group) => group.attachments), ...others].filter(isPhoto);
  const [shown, setShown] = useState<number | null>(null);
  const lastShown = useRef<string | null>(null);
  const refs = useRef(new Map<string, HTMLAnchorElement>()).current;
  const photoLinks: PhotoLinks = {
    open: (filePath) => setShown(photos.findIndex((photo) => photo.FilePath === filePath)),
    refs,
  };
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {groups.map((group) => (
          <AttachmentGroup
            key={group.fileType}
            title={group.label}
            emptyText={`No ${group.label} attachments`}
            attachments={group.attachments}
            photoLinks={photoLinks}
          />
        ))}
        <AttachmentGroup
          title="Other files"
          emptyText="No other attachments"
          attachments={others}
          photoLinks={photoLinks}
          isCaptioned
        />
      </SimpleGrid>
      <PhotoGallery
        photos={photos.map((photo) => ({
          fileName: photo.FileName,
          url: photo.FilePath,
          label: caseFileTypeLabel(photo.FileType),
        }))}
        index={shown}
        onIndexChange={setShown}
        onClose={() => {
          if (shown !== null) lastShown.current = photos[shown]?.FilePath ?? null;
          setShown(null);
        }}
        // Focus back on the thumbnail of the photo last shown, which may not be the one opened.
        onClosed={() => lastShown.current && refs.get(lastShown.current)?.focus()}
      />
    </>
  );
}
