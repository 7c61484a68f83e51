import { Alert, Badge, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import type { EnrolmentResponse } from '@portal/contract';
import { useState } from 'react';
import { confirmDelete } from '../../../components/confirm-delete.tsx';
import { PageTitle } from '../../../components/page-title.tsx';
import { formatDateOnly } from '../../../lib/format-date.ts';
import { errorMessage, notifyDeleteError, notifyError, notifySuccess } from '../../../lib/notify.ts';
import {
  useMySecondFactors,
  useNewRecoveryCodes,
  useRefreshSecondFactors,
  useRemovePasskey,
  useRemoveTotp,
} from '../api/my-second-factors.ts';
import { canUsePasskeys, registerPasskey } from '../api/second-factor.ts';
import { ProofCancelled, withFreshProof } from './fresh-proof.tsx';
import { RecoveryCodesPanel } from './recovery-codes-panel.tsx';
import { TotpEnrolment } from './totp-enrolment.tsx';

/**
 * The signed-in user's own second factors: authenticator app, recovery codes, passkeys. Every
 * change asks for the password (or a factor) first when the server wants a fresh proof
 * (withFreshProof); closing that dialog changes nothing and says nothing.
 */
export function SecurityScreen() {
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
    notifySuccess(answer.message);
    if (answer.recoveryCodes) setShownCodes(answer.recoveryCodes);
    void refresh();
  };
  const remove = async (subject: string, removal: () => Promise<unknown>) => {
    if (!(await confirmDelete(subject))) return;
    try {
      await withFreshProof(removal);
      notifySuccess('Second factor removed');
    } catch (error) {
      if (!(error instanceof ProofCancelled)) notifyDeleteError(error);
    }
  };
  const addPasskey = async () => {
    try {
      enrolled(await withFreshProof(() => registerPasskey(passkeyName.trim() || undefined)));
      setPasskeyName('');
    } catch (error) {
      if (!(error instanceof ProofCancelled)) notifyError(errorMessage(error, 'The passkey was not added.'));
    }
  };
  const renewCodes = async () => {
    try {
      setShownCodes((await withFreshProof(() => newCodes.mutateAsync(undefined))).recoveryCodes);
    } catch (error) {
      if (!(error instanceof ProofCancelled)) notifyError(errorMessage(error, 'No new codes were made.'));
    }
  };

  const mine = factors.data;
  if (!mine) return <PageTitle title="Security" />;
  const hasFactor = mine.hasTotp || mine.passkeys.length > 0;
  return (
    <Stack maw={720}>
      <PageTitle title="Security" />
      <Title order={3} size="h4">
        Second factor
      </Title>
      {mine.isRequired && !hasFactor && (
        <Alert color="teal">Your role requires a second factor. Set one up below.</Alert>
      )}
      {mine.isRequired && hasFactor && (
        <Text size="sm">Your role requires a second factor: the last one cannot be removed.</Text>
      )}
      {shownCodes && <RecoveryCodesPanel codes={shownCodes} onDone={() => setShownCodes(undefined)} />}

      <Card withBorder>
        <Group justify="space-between" wrap="wrap">
          <Stack gap={2}>
            <Text fw={600}>Authenticator app</Text>
            <Text size="sm" c="dimmed">
              Six-digit codes from an app on your phone.
            </Text>
          </Stack>
          {mine.hasTotp ? (
            <Group>
              <Badge color="green">On</Badge>
              <Button
                variant="default"
                color="red"
                onClick={() => void remove('Authenticator app', () => removeTotp.mutateAsync(undefined))}
              >
                Remove
              </Button>
            </Group>
          ) : (
            !isSettingUpApp && <Button onClick={() => setSettingUpApp(true)}>Set up</Button>
          )}
        </Group>
        {isSettingUpApp && (
          <Stack mt="md">
            <TotpEnrolment onEnrolled={enrolled} onCancel={() => setSettingUpApp(false)} />
            <Button variant="subtle" onClick={() => setSettingUpApp(false)}>
              Cancel
            </Button>
          </Stack>
        )}
      </Card>

      <Card withBorder>
        <Group justify="space-between" wrap="wrap">
          <Stack gap={2}>
            <Text fw={600}>Recovery codes</Text>
            <Text size="sm" c="dimmed">
              {hasFactor ? `${mine.recoveryCodesLeft} of 10 left.` : 'Made when you add your first factor.'}
            </Text>
          </Stack>
          {hasFactor && (
            <Button variant="default" onClick={() => void renewCodes()}>
              New codes
            </Button>
          )}
        </Group>
      </Card>

      <Card withBorder>
        <Stack>
          <Stack gap={2}>
            <Text fw={600}>Passkeys</Text>
            <Text size="sm" c="dimmed">
              Sign in with your device's fingerprint, face or PIN, after your password or on its own.
            </Text>
          </Stack>
          {mine.passkeys.map((passkey) => (
            <Group key={passkey.id} justify="space-between" wrap="wrap">
              <Stack gap={0}>
                <Text>{passkey.name}</Text>
                <Text size="xs" c="dimmed">
                  Added {formatDateOnly(passkey.createdAt)}
                  {passkey.lastUsedAt && `, last used ${formatDateOnly(passkey.lastUsedAt)}`}
                </Text>
              </Stack>
              <Button
                variant="default"
                aria-label={`Remove passkey ${passkey.name}`}
                onClick={() => void remove(`Passkey '${passkey.name}'`, () => removePasskey.mutateAsync(passkey.id))}
              >
                Remove
              </Button>
            </Group>
          ))}
          {canUsePasskeys() && (
            <Group align="flex-end" wrap="wrap">
              <TextInput
                label="Passkey name"
                placeholder="e.g. Work laptop"
                maxLength={60}
                value={passkeyName}
                onChange={(event) => setPasskeyName(event.currentTarget.value)}
              />
              <Button onClick={() => void addPasskey()}>Add a passkey</Button>
            </Group>
          )}
        </Stack>
      </Card>
    </Stack>
  );
}
