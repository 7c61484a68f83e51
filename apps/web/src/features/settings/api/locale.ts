import type { Locale } from '@portal/contract/locales';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../../lib/api-client.ts';
import { chooseLocale } from '../../../lib/i18n.ts';
import { settingsKeys } from '../../../lib/shared-queries.ts';

/** The language kept on the caller's account (docs/decisions/languages.md § The web app). */
export const localeQueryOptions = () =>
  queryOptions({ queryKey: settingsKeys.locale(), queryFn: () => api.call('GET /api/account/locale', {}) });

/** Keeps a language on the account and shows it; the account's answer is what is shown. */
export function useSaveLocale() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (locale: Locale) => api.call('PUT /api/account/locale', { body: { locale } }),
    onSuccess: async (answer) => {
      queryClient.setQueryData(settingsKeys.locale(), answer);
      await chooseLocale(answer.locale);
    },
  });
}

/**
 * Shows the account's language after a reload or a change made on another device (the sign-in
 * answer sets it at sign-in; this keeps it true while a session lasts).
 */
export function useAccountLocale(): void {
  const locale = useQuery(localeQueryOptions()).data?.locale;
  useEffect(() => {
    if (locale) void chooseLocale(locale);
  }, [locale]);
}
