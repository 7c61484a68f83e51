import { useLingui } from '@lingui/react/macro';
import { Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';

/**
 * The dialog around a 3D viewer: full screen on phones. Its header is a plain block, not
 * Mantine's <header>, which would be a second banner landmark on the page.
 */
export function ViewerModal({
  opened = true,
  onClose,
  title,
  size,
  children,
}: {
  opened?: boolean;
  onClose: () => void;
  title: string;
  size: string;
  children: ReactNode;
}) {
  const { t } = useLingui();
  // eslint-disable-next-line lingui/no-unlocalized-strings -- a CSS media query
  const isNarrow = useMediaQuery('(max-width: 767px)') ?? false;
  return (
    <Modal.Root opened={opened} onClose={onClose} size={size} fullScreen={isNarrow}>
      <Modal.Overlay />
      <Modal.Content>
        <Modal.Header component="div">
          <Modal.Title>{title}</Modal.Title>
          <Modal.CloseButton aria-label={t`Close 3D viewer`} />
        </Modal.Header>
        <Modal.Body>{children}</Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
