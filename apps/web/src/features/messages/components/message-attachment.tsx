import { useLingui } from '@lingui/react/macro';
import { Anchor, Group, Text } from '@mantine/core';
import type { MessageAttachment } from '@portal/contract';
import { routePath } from '@portal/contract/client';
import { IconPaperclip } from '@tabler/icons-react';
import { useMemo } from 'react';
import { scanColors, ViewIn3d, type ViewableScan } from '../../../components/stl-viewer/view-in-3d.tsx';
import { fileUrl } from '../../../lib/api-client.ts';
import { formatSize } from '../../../lib/format-size.ts';

/** A message's STL (as the server's content check found it) in the viewer: its viewing copy, else the original. */
function viewableScans(file: MessageAttachment): ViewableScan[] {
  if (file.contentType !== 'model/stl') return [];
  // url is /api/case/message_files/<file id>/<name>.
  const fileId = Number(file.url.split('/').at(-2));
  const viewPath = routePath('GET /api/case/message-file-views/:fileId', { fileId });
  return [{ label: file.fileName, fileName: file.fileName, url: file.url, viewPath, color: scanColors.upper }];
}

/** One file of a message: its download, and 'View in 3D' for an STL. */
export function MessageAttachmentItem({ file }: { file: MessageAttachment }) {
  const { t } = useLingui();
  const scans = useMemo(() => viewableScans(file), [file]);
  const fileName = file.fileName;
  return (
    <Group gap="xs" wrap="wrap">
      <Anchor href={fileUrl(file.url)} size="sm" target="_blank" rel="noopener">
        <Group gap={4} wrap="nowrap" component="span">
          <IconPaperclip size={14} aria-hidden />
          {file.fileName}
          <Text span size="xs" c="dimmed">
            ({formatSize(file.fileSize)})
          </Text>
        </Group>
      </Anchor>
      <ViewIn3d scans={scans} isCompact ariaLabel={t`View in 3D: ${fileName}`} />
    </Group>
  );
}
