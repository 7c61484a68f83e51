import { useLingui } from '@lingui/react/macro';
import { Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { caseFileTypeLabel, type CaseAttachment, type CaseFileType } from '@portal/contract';
import { useRef, useState } from 'react';
import { serverText } from '../../../../lib/server-text.ts';
import { AttachmentPreview, isPhoto } from './attachment-preview.tsx';
import { PhotoGallery } from './photo-gallery.tsx';

/** The named groups of docs/spec.md section 3 (Case attachment); every other FileType is 'other'. */
const namedGroups: readonly CaseFileType[] = [
  'OPV',
  'LeteralCeloform',
  'MaxillaryScan',
  'MandibularScan',
  'RightBiteScan',
  'LeftBiteScan',
];
const namedTypes = new Set<string>(namedGroups);

/** A file type as the contract names it, in the language shown. */
const fileTypeLabel = (fileType: string) => serverText(caseFileTypeLabel(fileType));

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
              {isCaptioned && <Text size="xs">{fileTypeLabel(attachment.FileType)}</Text>}
            </Stack>
          ))}
        </Group>
      )}
    </Paper>
  );
}

export function CaseAttachments({ attachments }: { attachments: CaseAttachment[] }) {
  const { t } = useLingui();
  const others = attachments.filter((attachment) => !namedTypes.has(attachment.FileType));
  const groups = namedGroups.map((fileType) => ({
    fileType,
    label: fileTypeLabel(fileType),
    attachments: attachments.filter((attachment) => attachment.FileType === fileType),
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
        {groups.map(({ fileType, label, attachments: groupAttachments }) => (
          <AttachmentGroup
            key={fileType}
            title={label}
            emptyText={t`No ${label} attachments`}
            attachments={groupAttachments}
            photoLinks={photoLinks}
          />
        ))}
        <AttachmentGroup
          title={t`Other files`}
          emptyText={t`No other attachments`}
          attachments={others}
          photoLinks={photoLinks}
          isCaptioned
        />
      </SimpleGrid>
      <PhotoGallery
        photos={photos.map((photo) => ({
          fileName: photo.FileName,
          url: photo.FilePath,
          label: fileTypeLabel(photo.FileType),
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
