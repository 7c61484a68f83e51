import { Anchor, Image, Text } from '@mantine/core';
import { imageExtensions, scanExtensions, type CaseAttachment } from '@portal/contract';
import { IconDownload } from '@tabler/icons-react';
import { fileExtension } from '../../lib/file-extension.ts';

const isOneOf = (list: readonly string[], extension: string) => list.includes(extension);

/**
 * Photos as images, scans and archives as download links, anything else named as
 * unsupported. The session cookie authorises these plain GETs.
 */
export function AttachmentPreview({ attachment }: { attachment: CaseAttachment }) {
  const extension = fileExtension(attachment.FileName);
  if (isOneOf(imageExtensions, extension)) {
    return (
      <Anchor href={attachment.FilePath} target="_blank" rel="noopener" display="inline-block">
        <Image
          src={attachment.FilePath}
          alt={attachment.FileName}
          w={160}
          h={120}
          fit="cover"
          radius="sm"
          bd="1px solid var(--mantine-color-gray-3)"
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
  return <Text size="sm">Unsupported file: {extension.toUpperCase() || attachment.FileName}</Text>;
}
