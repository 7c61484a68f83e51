import { Button, Code, Image, Stack, Text, TextInput } from '@mantine/core';
import type { EnrolmentResponse } from '@portal/contract';
import { useEffect, useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import { errorMessage, notifyError } from '../../../lib/notify.ts';
import { confirmTotpEnrolment, startTotpEnrolment } from '../api/second-factor.ts';

type Setup = Awaited<ReturnType<typeof startTotpEnrolment>>;

/** Scan the QR code (or type the key), then confirm with a code from the app. */
export function TotpEnrolment({
  token,
  onEnrolled,
}: {
  token?: string;
  onEnrolled: (answer: EnrolmentResponse) => void;
}) {
  const [setup, setSetup] = useState<Setup>();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();

  useEffect(() => {
    startTotpEnrolment(token)
      .then(setSetup)
      .catch((failure: unknown) => notifyError(errorMessage(failure, 'Could not start setting up the app')));
  }, [token]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    try {
      onEnrolled(await confirmTotpEnrolment(code, token));
    } catch (failure) {
      const fieldError = failure instanceof ApiError ? failure.fieldErrors.code : undefined;
      if (fieldError) setError(fieldError);
      else notifyError(errorMessage(failure, 'Could not confirm the code'));
    }
  };

  if (!setup) return <Text>Preparing your QR code…</Text>;
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack>
        <Text>
          Scan this QR code with your authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…).
        </Text>
        <Image
          src={`data:image/svg+xml;base64,${btoa(setup.qrCodeSvg)}`}
          alt="QR code for your authenticator app"
          w={200}
          h={200}
          mx="auto"
        />
        <Text size="sm">
          Or type this key: <Code style={{ wordBreak: 'break-all' }}>{setup.secret}</Code>
        </Text>
        <TextInput
          label="Code from the app"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          value={code}
          error={error}
          onChange={(event) => {
            setCode(event.currentTarget.value);
            setError(undefined);
          }}
          withAsterisk
        />
        <Button type="submit">Confirm</Button>
      </Stack>
    </form>
  );
}
