import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Box, Button, Group, Loader, Modal, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconArrowsMinimize,
  IconChevronLeft,
  IconChevronRight,
  IconDownload,
  IconZoomIn,
  IconZoomOut,
} from '@tabler/icons-react';
import { useRef, useState, type KeyboardEvent } from 'react';
import { formatPercent } from '../../../../lib/format-number.ts';

export interface GalleryPhoto {
  fileName: string;
  /** The original's address: what the gallery shows and downloads. */
  url: string;
  /** The group the case page shows it in (Front Smiling, X-Ray OPG, ...). */
  label: string;
}

/** Zoom as a scale of the photo's own pixels, or 'fit': the whole photo in the dialog. */
type Zoom = number | 'fit';
const zoomSteps = [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4];

/** The scale at which the whole photo fits its frame (never above its own size). */
function fitScale(image: HTMLImageElement | null): number {
  const frame = image?.parentElement;
  if (!image?.naturalWidth || !frame) return 1;
  return Math.min(1, frame.clientWidth / image.naturalWidth, frame.clientHeight / image.naturalHeight);
}

/**
 * The case's photos, one at a time at their own size: fit, 100% and zoom in and out (also
 * a click on the photo, and + - 0), Left and Right for the previous and next photo, Escape
 * to close; the original is what it shows and what "Download" saves.
 */
export function PhotoGallery({
  photos,
  index,
  onIndexChange,
  onClose,
  onClosed,
}: {
  photos: GalleryPhoto[];
  /** The photo shown; null while the gallery is closed. */
  index: number | null;
  onIndexChange: (index: number) => void;
  onClose: () => void;
  /** After the closing transition: the page puts focus back where it belongs. */
  onClosed: () => void;
}) {
  // eslint-disable-next-line lingui/no-unlocalized-strings -- a CSS media query, not words
  const isNarrow = useMediaQuery('(max-width: 767px)') ?? false;
  const [lastIndex, setLastIndex] = useState(index ?? 0);
  if (index !== null && index !== lastIndex) setLastIndex(index);
  const shown = photos[index ?? lastIndex];
  return (
    <Modal.Root
      opened={index !== null && shown !== undefined}
      onClose={onClose}
      size="90rem"
      fullScreen={isNarrow}
      returnFocus={false}
      onExitTransitionEnd={onClosed}
    >
      <Modal.Overlay />
      {shown && (
        <GalleryContent
          photo={shown}
          position={(index ?? lastIndex) + 1}
          count={photos.length}
          isNarrow={isNarrow}
          onMove={(step) => {
            const next = (index ?? lastIndex) + step;
            if (next >= 0 && next < photos.length) onIndexChange(next);
          }}
        />
      )}
    </Modal.Root>
  );
}

function GalleryContent({
  photo,
  position,
  count,
  isNarrow,
  onMove,
}: {
  photo: GalleryPhoto;
  position: number;
  count: number;
  isNarrow: boolean;
  onMove: (step: -1 | 1) => void;
}) {
  const { t } = useLingui();
  const [zoom, setZoom] = useState<Zoom>('fit');
  const [naturalWidth, setNaturalWidth] = useState(0);
  const [fittedScale, setFittedScale] = useState(1);
  // Another photo starts fitted and loading in the same dialog: remounting the dialog for it
  // dropped the focus to <body> until the focus trap took it back, and a key pressed meanwhile
  // was lost.
  const [photoUrl, setPhotoUrl] = useState(photo.url);
  if (photoUrl !== photo.url) {
    setPhotoUrl(photo.url);
    setZoom('fit');
    setNaturalWidth(0);
    setFittedScale(1);
  }
  const imageRef = useRef<HTMLImageElement>(null);
  const frameRef = useRef<HTMLDivElement>(null);
  const maxZoom = zoomSteps.at(-1)!;
  const zoomIn = () => {
    const scale = zoom === 'fit' ? fitScale(imageRef.current) : zoom;
    setZoom(zoomSteps.find((step) => step > scale + 0.001) ?? maxZoom);
  };
  const zoomOut = () => {
    if (zoom === 'fit') return;
    const lower = zoomSteps.findLast((step) => step < zoom - 0.001);
    setZoom(lower === undefined || lower <= fitScale(imageRef.current) ? 'fit' : lower);
  };
  const keys: Record<string, () => void> = {
    ArrowLeft: () => onMove(-1),
    ArrowRight: () => onMove(1),
    '+': zoomIn,
    '=': zoomIn,
    '-': zoomOut,
    '0': () => setZoom('fit'),
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const action = keys[event.key];
    if (!action || event.altKey || event.ctrlKey || event.metaKey) return;
    // The zoomed photo, focused, pans with the arrow keys instead.
    if (event.target === frameRef.current && event.key.startsWith('Arrow')) return;
    event.preventDefault();
    action();
  };
  const isFit = zoom === 'fit';
  const fileName = photo.fileName;
  const label = photo.label;

  return (
    // In the capture phase: Mantine's Modal.Content does not pass onKeyDown on.
    <Modal.Content onKeyDownCapture={onKeyDown}>
      <Modal.Header component="div">
        <Modal.Title style={{ overflowWrap: 'anywhere' }}>{photo.fileName}</Modal.Title>
        <Modal.CloseButton aria-label={t`Close the photo gallery`} />
      </Modal.Header>
      <Modal.Body>
        <Group justify="space-between" gap="xs" mb="xs">
          <Group gap={4} wrap="nowrap">
            {/* aria-disabled, not disabled: the button keeps focus, so the arrow keys still reach the dialog. */}
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={t`Previous photo`}
              aria-disabled={position === 1}
              data-disabled={position === 1 || undefined}
              onClick={() => onMove(-1)}
            >
              <IconChevronLeft size={18} aria-hidden />
            </ActionIcon>
            <Text size="sm" px={4}>
              <Trans>
                {position} of {count} · {label}
              </Trans>
            </Text>
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={t`Next photo`}
              aria-disabled={position === count}
              data-disabled={position === count || undefined}
              onClick={() => onMove(1)}
            >
              <IconChevronRight size={18} aria-hidden />
            </ActionIcon>
          </Group>
          <Group gap={4}>
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={t`Zoom out`}
              aria-disabled={isFit}
              data-disabled={isFit || undefined}
              onClick={zoomOut}
            >
              <IconZoomOut size={18} aria-hidden />
            </ActionIcon>
            <Text size="sm" w="3.5rem" ta="center" aria-live="polite">
              {formatPercent((isFit ? fittedScale : zoom) * 100)}
            </Text>
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={t`Zoom in`}
              aria-disabled={zoom === maxZoom}
              data-disabled={zoom === maxZoom || undefined}
              onClick={zoomIn}
            >
              <IconZoomIn size={18} aria-hidden />
            </ActionIcon>
            <Button variant="default" size="xs" h={34} onClick={() => setZoom(1)} aria-pressed={zoom === 1}>
              {formatPercent(100)}
            </Button>
            <Button
              variant="default"
              size="xs"
              h={34}
              leftSection={<IconArrowsMinimize size={14} aria-hidden />}
              onClick={() => {
                setFittedScale(fitScale(imageRef.current));
                setZoom('fit');
              }}
              aria-pressed={isFit}
            >
              <Trans>Fit</Trans>
            </Button>
            <Button
              component="a"
              href={photo.url}
              download={photo.fileName}
              size="xs"
              h={34}
              leftSection={<IconDownload size={14} aria-hidden />}
            >
              <Trans>Download</Trans>
            </Button>
          </Group>
        </Group>
        <Box
          ref={frameRef}
          // Zoomed, it scrolls: focusable, so a keyboard pans it too.
          tabIndex={isFit ? undefined : 0}
          role={isFit ? undefined : 'group'}
          aria-label={isFit ? undefined : t`${fileName} zoomed: scroll or use the arrow keys to move around`}
          pos="relative"
          bg="gray.1"
          style={{ height: isNarrow ? 'calc(100dvh - 10rem)' : '75vh', overflow: isFit ? 'hidden' : 'auto' }}
        >
          {naturalWidth === 0 && (
            <Group pos="absolute" inset={0} justify="center" gap="xs" role="status">
              <Loader size="sm" aria-hidden />
              <Text size="sm">
                <Trans>Loading the photo...</Trans>
              </Text>
            </Group>
          )}
          <img
            ref={imageRef}
            src={photo.url}
            alt={photo.fileName}
            onLoad={(event) => {
              setNaturalWidth(event.currentTarget.naturalWidth);
              setFittedScale(fitScale(event.currentTarget));
            }}
            onClick={() => setZoom(isFit ? 1 : 'fit')}
            style={
              isFit
                ? {
                    position: 'absolute',
                    inset: 0,
                    margin: 'auto',
                    maxWidth: '100%',
                    maxHeight: '100%',
                    cursor: 'zoom-in',
                  }
                : { display: 'block', width: naturalWidth * zoom, maxWidth: 'none', margin: 'auto', cursor: 'zoom-out' }
            }
          />
        </Box>
      </Modal.Body>
    </Modal.Content>
  );
}
