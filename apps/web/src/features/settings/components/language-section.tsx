import { Trans } from '@lingui/react/macro';
import { Paper, Text, Title } from '@mantine/core';
import { LanguagePicker } from '../../../components/language-picker.tsx';
import { notifySaveError } from '../../../lib/notify.ts';
import { useSaveLocale } from '../api/locale.ts';

/** The caller's own language, on the profile or account page: the page switches at once, and it is kept on the account. */
export function LanguageSection() {
  const save = useSaveLocale();
  return (
    <Paper component="section" aria-labelledby="language-title" withBorder p={{ base: 'sm', sm: 'lg' }} mt="xl">
      <Title order={2} size="h3" id="language-title">
        <Trans>Language</Trans>
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        <Trans>The portal, its e-mails and the prescription PDF speak to you in this language.</Trans>
      </Text>
      <LanguagePicker
        size="sm"
        onChosen={(locale) => save.mutate(locale, { onError: (error) => notifySaveError(error) })}
      />
    </Paper>
  );
}
