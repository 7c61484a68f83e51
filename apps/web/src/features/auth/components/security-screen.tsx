import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Badge, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import type { EnrolmentResponse } from '@portal/contract';
import { useState } from 'react';
import { confirmDelete } from '../../../components/confirm-delete.tsx';
import { PageTitle } from '../../../components/page-title.tsx';
import { formatDateOnly } from '../../../lib/format-date.ts';
import { errorMessage, notifyDeleteError, notifyError, notifySuccess } from '../../../lib/notify.ts';
import { serverText } from '../../../lib/server-text.ts';
import {
  useMySecondFactors,
  useNewRecoveryCodes,
  useRefreshSecondFactors,
  useRemovePasskey,
  useRemoveTotp,
} from '../api/my-second-factors.ts';
import { registerPasskey } from '../api/second-factor.ts';
import { canUsePasskeys } from '../api/passkey-support.ts';
import { ProofCancelled, withFreshProof } from './fresh-proof.tsx';
import { RecoveryCodesPanel } from './recovery-codes-panel.tsx';
import { TotpEnrolment } from './totp-enrolment.tsx';

/**
 * The signed-in user's own second factors: authenticator app, recovery codes, passkeys. Every
 * change asks for the password (or a factor) first when the server wants a fresh proof
 * (withFreshProof); closing that dialog changes nothing and says nothing.
 */
export function SecurityScreen() {
  const { t } = useLingui();
  const factors = useMySecondFactors();
  const refresh = useRefreshSecondFactors();
  const removeTotp = useRemoveTotp();
  const removePasskey = useRemovePasskey();
  const newCodes = useNewRecoveryCodes();
  const [isSettingUpApp, setSettingUpApp] = useState(false);
  const [shownCodes, setShownCodes] = useState<string[]>();
  const [passkeyName, setPasskeyName] = useState('');

  const enrolled = (answer: EnrolmentResponse) => {
    setSettingUpApp(false);
    notifySuccess(serverText(answer.message));
    if (answer.recoveryCodes) setShownCodes(answer.recoveryCodes);
    void refresh();
  };
  const remove = async (subject: string, removal: () => Promise<unknown>) => {
    if (!(await confirmDelete(subject))) return;
    try {
      await withFreshProof(removal);
      notifySuccess(t`Second factor removed`);
    } catch (error) {
      if (!(error instanceof ProofCancelled)) notifyDeleteError(error);
    }
  };
  const addPasskey = async () => {
    try {
      enrolled(await withFreshProof(() => registerPasskey(passkeyName.trim() || undefined)));
      setPasskeyName('');
    } catch (error) {
      if (!(error instanceof ProofCancelled)) notifyError(errorMessage(error, t`The passkey was not added.`));
    }
  };
  const renewCodes = async () => {
    try {
      setShownCodes((await withFreshProof(() => newCodes.mutateAsync(undefined))).recoveryCodes);
    } catch (error) {
      if (!(error instanceof ProofCancelled)) notifyError(errorMessage(error, t`No new codes were made.`));
    }
  };

  const removePasskeyLabel = (name: string) => t`Remove passkey ${name}`;
  const passkeySubject = (name: string) => t`Passkey ''${name}''`;
  const passkeyDates = ({ createdAt, lastUsedAt }: { createdAt: string; lastUsedAt: string | null }) => {
    const added = formatDateOnly(createdAt);
    if (!lastUsedAt) return t`Added ${added}`;
    const lastUsed = formatDateOnly(lastUsedAt);
    return t`Added ${added}, last used ${lastUsed}`;
  };

  const mine = factors.data;
  if (!mine) return <PageTitle title={t`Security`} />;
  const hasFactor = mine.hasTotp || mine.passkeys.length > 0;
  const codesLeft = mine.recoveryCodesLeft;
  return (
    <Stack maw={720}>
      <PageTitle title={t`Security`} />
      <Title order={3} size="h4">
        <Trans>Second factor</Trans>
      </Title>
      {mine.isRequired && !hasFactor && (
        <Alert color="teal">
          <Trans>Your role requires a second factor. Set one up below.</Trans>
        </Alert>
      )}
      {mine.isRequired && hasFactor && (
        <Text size="sm">
          <Trans>Your role requires a second factor: the last one cannot be removed.</Trans>
        </Text>
      )}
      {shownCodes && <RecoveryCodesPanel codes={shownCodes} onDone={() => setShownCodes(undefined)} />}

      <Card withBorder>
        <Group justify="space-between" wrap="wrap">
          <Stack gap={2}>
            <Text fw={600}>
              <Trans>Authenticator app</Trans>
            </Text>
            <Text size="sm" c="dimmed">
              <Trans>Six-digit codes from an app on your phone.</Trans>
            </Text>
          </Stack>
          {mine.hasTotp ? (
            <Group>
              <Badge color="green">
                <Trans>On</Trans>
              </Badge>
              <Button
                variant="default"
                color="red"
                onClick={() => void remove(t`Authenticator app`, () => removeTotp.mutateAsync(undefined))}
              >
                <Trans>Remove</Trans>
              </Button>
            </Group>
          ) : (
            !isSettingUpApp && (
              <Button onClick={() => setSettingUpApp(true)}>
                <Trans>Set up</Trans>
              </Button>
            )
          )}
        </Group>
        {isSettingUpApp && (
          <Stack mt="md">
            <TotpEnrolment onEnrolled={enrolled} onCancel={() => setSettingUpApp(false)} />
            <Button variant="subtle" onClick={() => setSettingUpApp(false)}>
              <Trans>Cancel</Trans>
            </Button>
          </Stack>
        )}
      </Card>

      <Card withBorder>
        <Group justify="space-between" wrap="wrap">
          <Stack gap={2}>
            <Text fw={600}>
              <Trans>Recovery codes</Trans>
            </Text>
            <Text size="sm" c="dimmed">
              {hasFactor ? t`${codesLeft} of 10 left.` : t`Made when you add your first factor.`}
            </Text>
          </Stack>
          {hasFactor && (
            <Button variant="default" onClick={() => void renewCodes()}>
              <Trans>New codes</Trans>
            </Button>
          )}
        </Group>
      </Card>

      <Card withBorder>
        <Stack>
          <Stack gap={2}>
            <Text fw={600}>
              <Trans>Passkeys</Trans>
            </Text>
            <Text size="sm" c="dimmed">
              <Trans>Sign in with your device's fingerprint, face or PIN, after your password or on its own.</Trans>
            </Text>
          </Stack>
          {mine.passkeys.map((passkey) => (
            <Group key={passkey.id} justify="space-between" wrap="wrap">
              <Stack gap={0}>
                <Text>{passkey.name}</Text>
                <Text size="xs" c="dimmed">
                  {passkeyDates(passkey)}
                </Text>
              </Stack>
              <Button
                variant="default"
                aria-label={removePasskeyLabel(passkey.name)}
                onClick={() => void remove(passkeySubject(passkey.name), () => removePasskey.mutateAsync(passkey.id))}
              >
                <Trans>Remove</Trans>
              </Button>
            </Group>
          ))}
          {canUsePasskeys() && (
            <Group align="flex-end" wrap="wrap">
              <TextInput
                label={t`Passkey name`}
                placeholder={t`e.g. Work laptop`}
                maxLength={60}
                value={passkeyName}
                onChange={(event) => setPasskeyName(event.currentTarget.value)}
              />
              <Button onClick={() => void addPasskey()}>
                <Trans>Add a passkey</Trans>
              </Button>
            </Group>
          )}
        </Stack>
      </Card>
    </Stack>
  );
}
