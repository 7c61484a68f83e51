import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { modals } from '@mantine/modals';
import { secondFactorMessages } from '@portal/contract';
import { useState, type FormEvent } from 'react';
import { whenModalsReady } from '../../../components/modals-on-demand.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { i18n } from '../../../lib/i18n.ts';
import { errorMessage } from '../../../lib/notify.ts';
import { serverText } from '../../../lib/server-text.ts';
import { reauthenticateWithCode, reauthenticateWithPasskey, reauthenticateWithPassword } from '../api/second-factor.ts';
import { canUsePasskeys } from '../api/passkey-support.ts';

/** The person closed the dialog: nothing was changed, and nothing more needs saying. */
export class ProofCancelled extends Error {
  constructor() {
    super(i18n._(msg`Nothing was changed.`));
    this.name = 'ProofCancelled';
  }
}

/** The server's stable answer to a change of a factor without a fresh proof. */
const isProofRequired = (error: unknown) =>
  error instanceof ApiError && error.status === 403 && error.message === secondFactorMessages.proofRequired;

/**
 * Runs a change of the caller's second factors; when the server asks for a fresh proof, asks
 * for the password (or a code, or a passkey) in a dialog and runs the change again. Throws
 * `ProofCancelled` when the dialog is closed (docs/decisions/second-factor-changes.md).
 */
export async function withFreshProof<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (!isProofRequired(error)) throw error;
    if (!(await askForProof())) throw new ProofCancelled();
    return change();
  }
}

async function askForProof(): Promise<boolean> {
  await whenModalsReady();
  return new Promise<boolean>((resolve) => {
    const modalId = modals.open({
      title: i18n._(msg`Confirm it’s you`),
      children: (
        <ProofForm
          onProved={() => {
            resolve(true);
            modals.close(modalId);
          }}
          onCancel={() => modals.close(modalId)}
        />
      ),
      onClose: () => resolve(false),
    });
  });
}

function ProofForm({ onProved, onCancel }: { onProved: () => void; onCancel: () => void }) {
  const { t } = useLingui();
  const [kind, setKind] = useState<'password' | 'code'>('password');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const [isBusy, setBusy] = useState(false);

  const prove = async (proof: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await proof();
      onProved();
    } catch (failure) {
      const fields = failure instanceof ApiError ? failure.fieldErrors : {};
      const fieldError = fields.password ?? fields.code;
      setError(fieldError ? serverText(fieldError) : errorMessage(failure, t`That did not work. Try again.`));
    } finally {
      setBusy(false);
    }
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!value.trim()) {
      setError(kind === 'password' ? t`Enter your password` : t`Enter the 6-digit code`);
      return;
    }
    void prove(() => (kind === 'password' ? reauthenticateWithPassword(value) : reauthenticateWithCode(value)));
  };
  const switchTo = (next: 'password' | 'code') => {
    setKind(next);
    setValue('');
    setError(undefined);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm">
          <Trans>
            Changing your second factor needs your password (or a code from your authenticator app). It counts for 5
            minutes.
          </Trans>
        </Text>
        {kind === 'password' ? (
          <PasswordInput
            label={t`Your password`}
            autoComplete="current-password"
            data-autofocus
            value={value}
            error={error}
            onChange={(event) => {
              setValue(event.currentTarget.value);
              setError(undefined);
            }}
          />
        ) : (
          <TextInput
            label={t`Code from your authenticator app`}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            data-autofocus
            value={value}
            error={error}
            onChange={(event) => {
              setValue(event.currentTarget.value);
              setError(undefined);
            }}
          />
        )}
        <Group gap="md" wrap="wrap">
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => switchTo(kind === 'password' ? 'code' : 'password')}
          >
            {kind === 'password' ? t`Use a code from your app instead` : t`Use your password instead`}
          </Anchor>
          {canUsePasskeys() && (
            <Anchor component="button" type="button" size="sm" onClick={() => void prove(reauthenticateWithPasskey)}>
              <Trans>Use a passkey</Trans>
            </Anchor>
          )}
        </Group>
        <Group justify="flex-end" wrap="wrap">
          <Button variant="default" onClick={onCancel}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" loading={isBusy}>
            <Trans>Confirm</Trans>
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
