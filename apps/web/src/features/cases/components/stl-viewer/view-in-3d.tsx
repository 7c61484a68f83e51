import { Button, Modal } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import type { CaseAttachment } from '@portal/contract';
import { IconCube } from '@tabler/icons-react';
import { lazy, Suspense, useMemo } from 'react';
import { viewableScans } from './viewable-scans.ts';
import { ViewerLoading } from './viewer-status.tsx';

// three.js is large: it loads only when someone opens the viewer.
const StlScene = lazy(() => import('./stl-scene.tsx'));

/** 'View in 3D' for a case with STL scans, and the viewer dialog (closing it disposes the scene). */
export function ViewIn3d({ attachments }: { attachments: CaseAttachment[] }) {
  const scans = useMemo(() => viewableScans(attachments), [attachments]);
  const [isOpen, { open, close }] = useDisclosure(false);
  const isNarrow = useMediaQuery('(max-width: 767px)') ?? false;
  if (scans.length === 0) return null;

  return (
    <>
      <Button leftSection={<IconCube size={16} aria-hidden />} onClick={open}>
        View in 3D
      </Button>
      <Modal
        opened={isOpen}
        onClose={close}
        title="3D scan viewer"
        size="xl"
        fullScreen={isNarrow}
        closeButtonProps={{ 'aria-label': 'Close 3D viewer' }}
      >
        <Suspense fallback={<ViewerLoading />}>
          <StlScene scans={scans} />
        </Suspense>
      </Modal>
    </>
  );
}
