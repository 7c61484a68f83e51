import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Code, Image, Stack, Text, TextInput } from '@mantine/core';
import type { EnrolmentResponse } from '@portal/contract';
import { useEffect, useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import { errorMessage, notifyError } from '../../../lib/notify.ts';
import { serverText } from '../../../lib/server-text.ts';
import { confirmTotpEnrolment, startTotpEnrolment } from '../api/second-factor.ts';
import { ProofCancelled, withFreshProof } from './fresh-proof.tsx';

type Setup = Awaited<ReturnType<typeof startTotpEnrolment>>;

/**
 * Scan the QR code (or type the key), then confirm with a code from the app. On the Security
 * screen the server may first want a fresh proof (withFreshProof); `onCancel` when it is refused.
 */
export function TotpEnrolment({
  token,
  onEnrolled,
  onCancel,
}: {
  token?: string;
  onEnrolled: (answer: EnrolmentResponse) => void;
  onCancel?: () => void;
}) {
  const { t } = useLingui();
  const [setup, setSetup] = useState<Setup>();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();

  useEffect(() => {
    withFreshProof(() => startTotpEnrolment(token))
      .then(setSetup)
      .catch((failure: unknown) => {
        if (failure instanceof ProofCancelled) onCancel?.();
        else notifyError(errorMessage(failure, t`Could not start setting up the app`));
      });
    // Started once per token: a new onCancel each render must not start it again.
  }, [token]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    try {
      onEnrolled(await withFreshProof(() => confirmTotpEnrolment(code, token)));
    } catch (failure) {
      if (failure instanceof ProofCancelled) return;
      const fieldError = failure instanceof ApiError ? failure.fieldErrors.code : undefined;
      if (fieldError) setError(serverText(fieldError));
      else notifyError(errorMessage(failure, t`Could not confirm the code`));
    }
  };

  if (!setup) {
    return (
      <Text>
        <Trans>Preparing your QR code…</Trans>
      </Text>
    );
  }
  const secret = setup.secret;
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack>
        <Text>
          <Trans>
            Scan this QR code with your authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…).
          </Trans>
        </Text>
        <Image
          src={`data:image/svg+xml;base64,${btoa(setup.qrCodeSvg)}`}
          alt={t`QR code for your authenticator app`}
          w={200}
          h={200}
          mx="auto"
        />
        <Text size="sm">
          <Trans>
            Or type this key: <Code style={{ wordBreak: 'break-all' }}>{secret}</Code>
          </Trans>
        </Text>
        <TextInput
          label={t`Code from the app`}
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
        <Button type="submit">
          <Trans>Confirm</Trans>
        </Button>
      </Stack>
    </form>
  );
}
