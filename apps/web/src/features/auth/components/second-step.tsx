import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
// The sign-in page loads only its own part of Mantine's stylesheet (main.tsx); these are the
// parts the second step and enrolment add, loaded with this chunk.
import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/Code.css';
import '@mantine/core/styles/Image.css';
import '@mantine/core/styles/SimpleGrid.css';
import type { ReactNode } from 'react';
import type { EnrolmentResponse, LoginResponse, SecondFactorRequired } from '@portal/contract';
import { useState, type FormEvent } from 'react';
import { errorMessage, notifyError } from '../../../lib/notify.ts';
import { serverText } from '../../../lib/server-text.ts';
import { registerPasskey, verifyPasskeyStep, verifyRecoveryStep, verifyTotpStep } from '../api/second-factor.ts';
import { canUsePasskeys } from '../api/passkey-support.ts';
import { RecoveryCodesPanel } from './recovery-codes-panel.tsx';
import { TotpEnrolment } from './totp-enrolment.tsx';

interface StepProps {
  challenge: SecondFactorRequired;
  onSignedIn: (answer: LoginResponse) => Promise<void>;
  onCancel: () => void;
}

const TextButton = ({ onClick, children }: { onClick: () => void; children: ReactNode }) => (
  <Anchor component="button" type="button" onClick={onClick}>
    {children}
  </Anchor>
);

/** After the password: the second step, or enrolment when the role requires a factor the user lacks. */
export default function SecondStep(props: StepProps) {
  return props.challenge.secondFactor === 'enrol' ? <EnrolAtSignIn {...props} /> : <VerifyStep {...props} />;
}

function VerifyStep({ challenge, onSignedIn, onCancel }: StepProps) {
  const { t } = useLingui();
  const { interimToken, methods } = challenge;
  const [mode, setMode] = useState<'totp' | 'recovery'>(methods.includes('totp') ? 'totp' : 'recovery');
  const [code, setCode] = useState('');

  const finish = async (signIn: () => Promise<LoginResponse>) => {
    try {
      await onSignedIn(await signIn());
    } catch (error) {
      notifyError(errorMessage(error, t`That did not work. Please try again.`));
    }
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const verify = mode === 'totp' ? verifyTotpStep : verifyRecoveryStep;
    void finish(() => verify(interimToken, code));
  };
  const switchTo = (next: 'totp' | 'recovery') => {
    setMode(next);
    setCode('');
  };

  return (
    <Stack>
      <Title order={2} size="h3">
        <Trans>Two-step verification</Trans>
      </Title>
      <form onSubmit={submit} noValidate>
        <Stack>
          {mode === 'totp' ? (
            <TextInput
              label={t`Code from your authenticator app`}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={7}
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
              data-autofocus
              withAsterisk
            />
          ) : (
            <TextInput
              label={t`Recovery code`}
              autoComplete="off"
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
              withAsterisk
            />
          )}
          <Button type="submit">
            <Trans>Verify</Trans>
          </Button>
        </Stack>
      </form>
      <Stack gap={4} align="flex-start">
        {mode === 'totp' && methods.includes('recovery') && (
          <TextButton onClick={() => switchTo('recovery')}>
            <Trans>Use a recovery code</Trans>
          </TextButton>
        )}
        {mode === 'recovery' && methods.includes('totp') && (
          <TextButton onClick={() => switchTo('totp')}>
            <Trans>Use a code from your app</Trans>
          </TextButton>
        )}
        {methods.includes('passkey') && canUsePasskeys() && (
          <TextButton onClick={() => void finish(() => verifyPasskeyStep(interimToken))}>
            <Trans>Use a passkey</Trans>
          </TextButton>
        )}
        <TextButton onClick={onCancel}>
          <Trans>Back to sign in</Trans>
        </TextButton>
      </Stack>
    </Stack>
  );
}

function EnrolAtSignIn({ challenge, onSignedIn, onCancel }: StepProps) {
  const { t } = useLingui();
  const token = challenge.interimToken;
  const [method, setMethod] = useState<'choose' | 'totp'>('choose');
  const [enrolled, setEnrolled] = useState<EnrolmentResponse>();

  const done = (answer: EnrolmentResponse) => {
    if (answer.recoveryCodes) setEnrolled(answer);
    else if (answer.signIn) void onSignedIn(answer.signIn);
  };
  const addPasskey = async () => {
    try {
      done(await registerPasskey(undefined, token));
    } catch (error) {
      notifyError(errorMessage(error, t`The passkey was not added.`));
    }
  };

  if (enrolled?.recoveryCodes) {
    return (
      <RecoveryCodesPanel
        codes={enrolled.recoveryCodes}
        onDone={() => void (enrolled.signIn && onSignedIn(enrolled.signIn))}
      />
    );
  }
  return (
    <Stack>
      <Title order={2} size="h3">
        <Trans>Set up a second factor</Trans>
      </Title>
      <Text>{serverText(challenge.message)}</Text>
      {method === 'totp' ? (
        <TotpEnrolment token={token} onEnrolled={done} />
      ) : (
        <Group grow>
          <Button onClick={() => setMethod('totp')}>
            <Trans>Authenticator app</Trans>
          </Button>
          {canUsePasskeys() && (
            <Button variant="default" onClick={() => void addPasskey()}>
              <Trans>Passkey</Trans>
            </Button>
          )}
        </Group>
      )}
      <TextButton onClick={onCancel}>
        <Trans>Back to sign in</Trans>
      </TextButton>
    </Stack>
  );
}
