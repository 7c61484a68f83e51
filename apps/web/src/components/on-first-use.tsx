import { cloneElement, Suspense, useEffect, useRef, useState, type ReactElement, type ReactNode } from 'react';

interface TriggerProps {
  onClick?: () => void;
  onPointerEnter?: () => void;
  onFocus?: () => void;
  'aria-haspopup'?: 'menu';
  'aria-expanded'?: boolean;
}

/**
 * A menu drawn as its button until first used: Mantine's Menu brings Popover, floating-ui and
 * the focus trap (about 28 KB gzip) that no page needs at its first paint (docs/benchmarks.md
 * § Cold dashboard JavaScript). A pointer over the button or focus on it starts the download;
 * a click draws `children` (a lazy menu, opened at once) in the button's place.
 */
export function OnFirstUse({
  trigger,
  preload,
  children,
}: {
  trigger: ReactElement<TriggerProps>;
  preload: () => unknown;
  children: ReactNode;
}) {
  const [isUsed, setUsed] = useState(false);
  const button = cloneElement(trigger, {
    onClick: () => setUsed(true),
    onPointerEnter: () => void preload(),
    onFocus: () => void preload(),
    'aria-haspopup': 'menu',
    'aria-expanded': false,
  });
  return isUsed ? <Suspense fallback={button}>{children}</Suspense> : button;
}

/**
 * For the menu drawn in its button's place: the new button takes the focus, then the menu
 * opens, so that Mantine gives the focus back to it when the menu closes (it returns it to
 * what had the focus when it opened; the first button is gone).
 */
export function useOpenedAtMount() {
  const target = useRef<HTMLButtonElement>(null);
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    target.current?.focus();
    setOpened(true);
  }, []);
  return { target, opened, onChange: setOpened };
}
