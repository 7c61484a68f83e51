import { Trans, useLingui } from '@lingui/react/macro';
import { Stack, Text } from '@mantine/core';
import { PageTitle } from '../../../components/page-title.tsx';
import { AssistantList } from './assistant-list.tsx';
import { InviteAssistantForm } from './invite-assistant-form.tsx';

/** A doctor's assistants (docs/decisions/assistants.md § Assistants): invite one, see them, revoke one. */
export function AssistantsScreen() {
  const { t } = useLingui();
  return (
    <>
      <PageTitle title={t`Assistants`} />
      <Stack gap="lg" maw={760}>
        <Text size="sm">
          <Trans>
            Assistants add and follow your cases for you, with their own sign-in. Only you approve treatment plans,
            request changes, pin comments and share plans with patients.
          </Trans>
        </Text>
        <InviteAssistantForm />
        <AssistantList />
      </Stack>
    </>
  );
}
