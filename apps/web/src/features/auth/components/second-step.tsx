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
import {
  canUsePasskeys,
  registerPasskey,
  verifyPasskeyStep,
  verifyRecoveryStep,
  verifyTotpStep,
} from '../api/second-factor.ts';
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
  const { interimToken, methods } = challenge;
  const [mode, setMode] = useState<'totp' | 'recovery'>(methods.includes('totp') ? 'totp' : 'recovery');
  const [code, setCode] = useState('');

  const finish = async (signIn: () => Promise<LoginResponse>) => {
    try {
      await onSignedIn(await signIn());
    } catch (error) {
      notifyError(errorMessage(error, 'That did not work. Please try again.'));
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
        Two-step verification
      </Title>
      <form onSubmit={submit} noValidate>
        <Stack>
          {mode === 'totp' ? (
            <TextInput
              label="Code from your authenticator app"
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
              label="Recovery code"
              autoComplete="off"
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
              withAsterisk
            />
          )}
          <Button type="submit">Verify</Button>
        </Stack>
      </form>
      <Stack gap={4} align="flex-start">
        {mode === 'totp' && methods.includes('recovery') && (
          <TextButton onClick={() => switchTo('recovery')}>Use a recovery code</TextButton>
        )}
        {mode === 'recovery' && methods.includes('totp') && (
          <TextButton onClick={() => switchTo('totp')}>Use a code from your app</TextButton>
        )}
        {methods.includes('passkey') && canUsePasskeys() && (
          <TextButton onClick={() => void finish(() => verifyPasskeyStep(interimToken))}>Use a passkey</TextButton>
        )}
        <TextButton onClick={onCancel}>Back to sign in</TextButton>
      </Stack>
    </Stack>
  );
}

function EnrolAtSignIn({ challenge, onSignedIn, onCancel }: StepProps) {
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
      notifyError(errorMessage(error, 'The passkey was not added.'));
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
        Set up a second factor
      </Title>
      <Text>{challenge.message}</Text>
      {method === 'totp' ? (
        <TotpEnrolment token={token} onEnrolled={done} />
      ) : (
        <Group grow>
          <Button onClick={() => setMethod('totp')}>Authenticator app</Button>
          {canUsePasskeys() && (
            <Button variant="default" onClick={() => void addPasskey()}>
              Passkey
            </Button>
          )}
        </Group>
      )}
      <TextButton onClick={onCancel}>Back to sign in</TextButton>
    </Stack>
  );
}
