import { useLingui } from '@lingui/react/macro';
import { NativeSelect } from '@mantine/core';
import { isSupportedLocale, localeNames, supportedLocales, type Locale } from '@portal/contract/locales';
import { IconLanguage } from '@tabler/icons-react';
import { chooseLocale } from '../lib/i18n.ts';

const choices = supportedLocales.map((locale) => ({ value: locale, label: localeNames[locale] }));

/**
 * The language of the page, each named in its own words. A native select: light enough for
 * the sign-in page, and a phone shows its own picker. `onChosen` keeps the choice elsewhere
 * too (the account of a signed-in user, a registration's form).
 */
export function LanguagePicker({ onChosen, size = 'xs' }: { onChosen?: (locale: Locale) => void; size?: 'xs' | 'sm' }) {
  const { t, i18n } = useLingui();
  return (
    <NativeSelect
      aria-label={t`Language`}
      size={size}
      w="auto"
      leftSection={<IconLanguage size={16} aria-hidden />}
      data={choices}
      value={isSupportedLocale(i18n.locale) ? i18n.locale : 'en'}
      onChange={(event) => {
        const locale = event.currentTarget.value;
        if (!isSupportedLocale(locale)) return;
        void chooseLocale(locale);
        onChosen?.(locale);
      }}
    />
  );
}
