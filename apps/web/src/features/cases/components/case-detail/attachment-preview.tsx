import { Trans } from '@lingui/react/macro';
import { Anchor, Image, Text } from '@mantine/core';
import { imageExtensions, scanExtensions, type CaseAttachment } from '@portal/contract';
import { routePath } from '@portal/contract/client';
import { IconDownload } from '@tabler/icons-react';
import type { MouseEvent, Ref } from 'react';
import { fileExtension } from '../../lib/file-extension.ts';

const isOneOf = (list: readonly string[], extension: string) => list.includes(extension);

export const isPhoto = (attachment: CaseAttachment) => isOneOf(imageExtensions, fileExtension(attachment.FileName));

/** A photo's small copy (docs/decisions/uploads.md § Photo thumbnails and the gallery); FilePath is /api/case/files/<attachment id>/<name>. */
const thumbnailPath = (attachment: CaseAttachment) =>
  routePath('GET /api/case/file-thumbnails/:attachmentId', {
    attachmentId: Number(attachment.FilePath.split('/').at(-2)),
  });

/** A plain click opens the gallery; a modified one (a new tab, a download) keeps the link's own. */
const isPlainClick = (event: MouseEvent) =>
  event.button === 0 && !event.ctrlKey && !event.metaKey && !event.shiftKey && !event.altKey;

/**
 * Photos as thumbnails that open the gallery (a link to the original, too), scans and
 * archives as download links, anything else named as unsupported. The session cookie
 * authorises these plain GETs.
 */
export function AttachmentPreview({
  attachment,
  onOpenPhoto,
  photoLinkRef,
}: {
  attachment: CaseAttachment;
  onOpenPhoto?: () => void;
  photoLinkRef?: Ref<HTMLAnchorElement>;
}) {
  const extension = fileExtension(attachment.FileName);
  if (isOneOf(imageExtensions, extension)) {
    return (
      <Anchor
        ref={photoLinkRef}
        href={attachment.FilePath}
        target="_blank"
        rel="noopener"
        display="inline-block"
        aria-haspopup={onOpenPhoto ? 'dialog' : undefined}
        onClick={(event) => {
          if (!onOpenPhoto || !isPlainClick(event)) return;
          event.preventDefault();
          onOpenPhoto();
        }}
      >
        <Image
          src={thumbnailPath(attachment)}
          alt={attachment.FileName}
          w={160}
          h={120}
          fit="cover"
          radius="sm"
          style={{ border: '1px solid var(--mantine-color-gray-3)' }}
        />
      </Anchor>
    );
  }
  if (isOneOf(scanExtensions, extension)) {
    return (
      <Anchor
        href={attachment.FilePath}
        download={attachment.FileName}
        style={{ display: 'inline-flex', alignItems: 'center', gap: 6, overflowWrap: 'anywhere' }}
      >
        <IconDownload size={16} aria-hidden style={{ flexShrink: 0 }} />
        {attachment.FileName}
      </Anchor>
    );
  }
  const unsupported = extension.toUpperCase() || attachment.FileName;
  return (
    <Text size="sm">
      <Trans>Unsupported file: {unsupported}</Trans>
    </Text>
  );
}
