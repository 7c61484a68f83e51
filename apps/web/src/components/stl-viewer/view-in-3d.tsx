import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconCube } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { ViewerModal } from './viewer-modal.tsx';
import { ViewerLoading } from './viewer-status.tsx';

// three.js is large: it loads only when someone opens the viewer.
const StlScene = lazy(() => import('./stl-scene.tsx'));

/** The scans' colours: an upper arch's, or a lone scan's, a lower arch's beside it, and a bite's. */
export const scanColors = { upper: '#e3cfa6', lower: '#5b9bd5', bite: '#b2f2bb' };

/** A stored STL the viewer can show: its download and its viewing copy's address. */
export interface ViewableScan {
  label: string;
  fileName: string;
  url: string;
  /** Where its viewing copy's state is read (a case file's or a message file's); the copy is `<viewPath>/mesh.glb`. */
  viewPath: string;
  color: string;
  /** The arch it shows, when it is one: an occlusal view shows its arch's scans alone. */
  arch?: 'upper' | 'lower';
}

/**
 * 'View in 3D' for STL files shown together, and the viewer dialog (closing it disposes the
 * scene). `scans` must keep its identity between renders: a new list loads them again.
 * `isCompact`: the small button beside one file of a list, named after it by `ariaLabel`.
 */
export function ViewIn3d({
  scans,
  isCompact = false,
  ariaLabel,
}: {
  scans: ViewableScan[];
  isCompact?: boolean;
  ariaLabel?: string;
}) {
  const { t } = useLingui();
  const [isOpen, { open, close }] = useDisclosure(false);
  if (scans.length === 0) return null;

  return (
    <>
      <Button
        leftSection={<IconCube size={isCompact ? 14 : 16} aria-hidden />}
        size={isCompact ? 'compact-xs' : 'sm'}
        variant={isCompact ? 'light' : 'filled'}
        aria-label={ariaLabel}
        onClick={open}
      >
        <Trans>View in 3D</Trans>
      </Button>
      <ViewerModal opened={isOpen} onClose={close} title={t`3D scan viewer`} size="xl">
        <Suspense fallback={<ViewerLoading />}>
          <StlScene scans={scans} />
        </Suspense>
      </ViewerModal>
    </>
  );
}
