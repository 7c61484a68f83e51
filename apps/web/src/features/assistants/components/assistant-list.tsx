import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { assistantInvitePauseMinutes, maxAssistantsPerDoctor, type AssistantRow } from '@portal/contract';
import { IconMailForward, IconUserMinus } from '@tabler/icons-react';
import { confirmAction } from '../../../components/confirm-delete.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { notifyOutcome } from '../../../lib/notify.ts';
import { useAssistants } from '../api/get-assistants.ts';
import { useInviteAssistant } from '../api/invite-assistant.ts';
import { useRevokeAssistant } from '../api/revoke-assistant.ts';

const nameOf = (assistant: AssistantRow) => `${assistant.firstName} ${assistant.lastName}`;

const stateLabels: Record<AssistantRow['state'], { label: MessageDescriptor; color: string }> = {
  invited: { label: msg`Invited`, color: 'indigo.9' },
  active: { label: msg`Active`, color: 'teal.9' },
};

interface AssistantItemProps {
  assistant: AssistantRow;
  onRevoke: () => void;
  onSendAgain: () => void;
  isSending: boolean;
}

function AssistantItem({ assistant, onRevoke, onSendAgain, isSending }: AssistantItemProps) {
  const { t, i18n } = useLingui();
  const state = stateLabels[assistant.state];
  const name = nameOf(assistant);
  const invitedAt = formatDateTime(assistant.invitedAt);
  return (
    <Paper component="li" withBorder p="sm" aria-label={nameOf(assistant)} style={{ listStyle: 'none' }}>
      <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
        {/* Long addresses break anywhere: at 375 px nothing is cut and the page never scrolls sideways. */}
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 14rem' }}>
          <Group gap="xs" wrap="wrap">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {nameOf(assistant)}
            </Text>
            <Badge color={state.color} variant="filled">
              {i18n._(state.label)}
            </Badge>
          </Group>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {assistant.email}
          </Text>
          <Text size="sm" c="dimmed">
            <Trans>Invited {invitedAt}</Trans>
          </Text>
          {assistant.state === 'invited' && (
            <Text size="sm" c="dimmed">
              <Trans>
                Has not set a password yet. The link in the mail works for an hour; Send again mails a new one, at most
                once every {assistantInvitePauseMinutes} minutes.
              </Trans>
            </Text>
          )}
        </Stack>
        <Group gap="xs">
          {assistant.state === 'invited' && (
            <Button
              variant="outline"
              leftSection={<IconMailForward size={16} aria-hidden />}
              onClick={onSendAgain}
              loading={isSending}
              aria-label={t`Send the invitation to ${name} again`}
            >
              <Trans>Send again</Trans>
            </Button>
          )}
          <Button
            variant="outline"
            color="red.9"
            leftSection={<IconUserMinus size={16} aria-hidden />}
            onClick={onRevoke}
            aria-label={t`Revoke ${name}`}
          >
            <Trans>Revoke</Trans>
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}

/** The doctor's assistants; Revoke asks first, naming the assistant, and takes effect at their next request. */
export function AssistantList() {
  const { t } = useLingui();
  const assistants = useAssistants();
  const revoke = useRevokeAssistant();
  const invite = useInviteAssistant();
  const count = assistants.data?.length ?? 0;

  const confirmRevoke = async (assistant: AssistantRow) => {
    const isConfirmed = await confirmAction({
      message: t`Revoke this assistant? From their next page they no longer see or add your cases.`,
      subject: `${nameOf(assistant)} (${assistant.email})`,
      confirmLabel: t`Revoke`,
    });
    if (isConfirmed) await notifyOutcome(revoke.mutateAsync(assistant.userId));
  };

  const sendAgain = ({ email, firstName, lastName }: AssistantRow) =>
    notifyOutcome(invite.mutateAsync({ email, firstName, lastName }));

  return (
    <Stack gap="xs" component="section" aria-labelledby="assistant-list">
      <Title order={3} size="h4" id="assistant-list">
        <Trans>Your assistants</Trans>
      </Title>
      {assistants.isError && (
        <Alert color="red" role="alert">
          <Trans>Your assistants could not be loaded.</Trans>
        </Alert>
      )}
      {assistants.data === undefined ? (
        !assistants.isError && (
          <Text c="dimmed">
            <Trans>Loading...</Trans>
          </Text>
        )
      ) : assistants.data.length === 0 ? (
        <Text c="dimmed">
          <Trans>You have no assistants yet.</Trans>
        </Text>
      ) : (
        <>
          <Stack component="ul" gap="xs" p={0} m={0} aria-label={t`Your assistants`}>
            {assistants.data.map((assistant) => (
              <AssistantItem
                key={assistant.userId}
                assistant={assistant}
                onRevoke={() => void confirmRevoke(assistant)}
                onSendAgain={() => void sendAgain(assistant)}
                isSending={invite.isPending && invite.variables?.email === assistant.email}
              />
            ))}
          </Stack>
          <Text size="sm" c="dimmed">
            <Trans>
              {count} of at most {maxAssistantsPerDoctor}
            </Trans>
          </Text>
        </>
      )}
    </Stack>
  );
}
