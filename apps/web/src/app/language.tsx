import { I18nProvider } from '@lingui/react';
import { DirectionProvider, useDirection } from '@mantine/core';
import { isRightToLeft } from '@portal/contract/locales';
import { useEffect, type ReactNode } from 'react';
import { i18n } from '../lib/i18n.ts';

/** Mantine's direction follows the language shown (Arabic mirrors the layout). */
function FollowDirection() {
  const { setDirection } = useDirection();
  useEffect(() => {
    const follow = () => setDirection(isRightToLeft(i18n.locale) ? 'rtl' : 'ltr');
    follow();
    return i18n.on('change', follow);
  }, [setDirection]);
  return null;
}

/** Every translated text and the page's direction; lib/i18n.ts loads the language before the first render. */
export function LanguageProvider({ children }: { children: ReactNode }) {
  return (
    <I18nProvider i18n={i18n}>
      <DirectionProvider initialDirection={isRightToLeft(i18n.locale) ? 'rtl' : 'ltr'} detectDirection={false}>
        <FollowDirection />
        {children}
      </DirectionProvider>
    </I18nProvider>
  );
}
