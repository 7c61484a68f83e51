import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Center, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import type { LoginResponse, SecondFactorRequired } from '@portal/contract/auth';
// Plain texts only: the auth schemas (and zod) load on first use (api/login.ts).
import { messages } from '@portal/contract/session';
import { IconDental, IconKey } from '@tabler/icons-react';
import { lazy, Suspense, useState, type ChangeEvent, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { errorMessage, notifyError, notifySuccess, toastMs } from '../../../lib/notify.ts';
import { loadAuthContract, startSession, useLogin } from '../api/login.ts';
import { canUsePasskeys } from '../api/passkey-support.ts';

// Only those with a second factor need it: not part of the sign-in page's first load.
const SecondStep = lazy(() => import('./second-step.tsx'));
// The language picker comes a moment after the form: not part of the first paint's code.
const LanguagePicker = lazy(async () => ({
  default: (await import('../../../components/language-picker.tsx')).LanguagePicker,
}));
// Likewise "Forgot password?", for the few who need it.
const ForgotPassword = lazy(() => import('./forgot-password.tsx'));

type LoginValues = { username: string; password: string };
type Field = keyof LoginValues;
type LoginSchema = Awaited<ReturnType<typeof loadAuthContract>>['loginRequest'];

/** Each field's first message from the contract's schema (what @mantine/form's schemaResolver showed). */
function fieldErrors(schema: LoginSchema, values: LoginValues): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  for (const issue of schema.safeParse(values).error?.issues ?? []) {
    errors[issue.path[0] as Field] ??= issue.message;
  }
  return errors;
}

/**
 * `returnTo`: where a successful sign-in goes (the dashboard, or the page the guard was asked for).
 * A small controlled form: each field is checked as it changes, both on submit, with the
 * contract's schema, which loads when a field is first focused (or on submit).
 */
export function LoginForm({ returnTo = paths.dashboard }: { returnTo?: string }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const login = useLogin();
  const [values, setValues] = useState<LoginValues>({ username: '', password: '' });
  // The fields whose messages show: those changed, and both once submitted.
  const [checked, setChecked] = useState<ReadonlySet<Field>>(new Set());
  const [schema, setSchema] = useState<LoginSchema>();
  const [challenge, setChallenge] = useState<SecondFactorRequired>();
  const [isForgotten, setForgotten] = useState(false);

  // Loaded on first use (focus, change or submit), not with the page; a failed load shows on
  // submit, which loads again.
  const loadSchema = async () => {
    const { loginRequest } = await loadAuthContract();
    setSchema(() => loginRequest);
    return loginRequest;
  };
  const preloadSchema = () => {
    if (!schema) loadSchema().catch(() => undefined);
  };

  const errors = schema ? fieldErrors(schema, values) : {};
  const errorOf = (field: Field) => (checked.has(field) ? errors[field] : undefined);
  const inputProps = (field: Field) => ({
    value: values[field],
    error: errorOf(field),
    onFocus: preloadSchema,
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const value = event.currentTarget.value;
      preloadSchema();
      setValues((current) => ({ ...current, [field]: value }));
      setChecked((current) => (current.has(field) ? current : new Set([...current, field])));
    },
  });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setChecked(new Set(['username', 'password']));
    try {
      if (Object.keys(fieldErrors(await loadSchema(), values)).length > 0) return;
      const answer = await login(values);
      if ('secondFactor' in answer) setChallenge(answer);
      else await signedIn(answer);
    } catch (error) {
      notifyError(errorMessage(error, t`Login failed`), toastMs.login);
    }
  };

  const signedIn = async (answer: LoginResponse) => {
    notifySuccess(answer.message || messages.loginSucceeded, toastMs.login);
    await navigate(returnTo, { replace: true });
  };
  const finishSecondStep = async (answer: LoginResponse) => {
    await startSession(answer);
    await signedIn(answer);
  };
  const passkeyAlone = async () => {
    try {
      const { signInWithPasskey } = await import('../api/second-factor.ts');
      await finishSecondStep(await signInWithPasskey());
    } catch (error) {
      notifyError(errorMessage(error, t`Signing in with a passkey did not work.`), toastMs.login);
    }
  };

  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Paper component="main" withBorder shadow="sm" p="xl" w="100%" maw={420}>
        {/* The picker's height is kept while it loads: nothing moves when it arrives. */}
        <Group justify="flex-end" mb="xs" mih={30}>
          <Suspense>
            <LanguagePicker />
          </Suspense>
        </Group>
        <Stack align="center" gap="xs" mb="lg">
          <IconDental size={48} aria-label={t`Aligner Portal logo`} role="img" />
          <Title order={1} size="h2" ta="center">
            <Trans>Aligner Portal</Trans>
          </Title>
          <Text ta="center">
            <Trans>Sign in to start your session</Trans>
          </Text>
        </Stack>
        {isForgotten ? (
          <Suspense>
            <ForgotPassword username={values.username} onBack={() => setForgotten(false)} />
          </Suspense>
        ) : challenge ? (
          <Suspense>
            <SecondStep
              challenge={challenge}
              onSignedIn={finishSecondStep}
              onCancel={() => {
                setChallenge(undefined);
                setValues((current) => ({ ...current, password: '' }));
              }}
            />
          </Suspense>
        ) : (
          <form onSubmit={(event) => void submit(event)} noValidate>
            <Stack>
              <TextInput label={t`Username`} autoComplete="username" withAsterisk {...inputProps('username')} />
              <PasswordInput
                label={t`Password`}
                autoComplete="current-password"
                withAsterisk
                {...inputProps('password')}
              />
              <Button variant="subtle" size="compact-sm" ml="auto" onClick={() => setForgotten(true)}>
                <Trans>Forgot password?</Trans>
              </Button>
              <Group justify="space-between" mt="sm">
                <Button variant="default" onClick={() => void navigate(paths.register)}>
                  <Trans>Register</Trans>
                </Button>
                <Button type="submit">
                  <Trans>Sign In</Trans>
                </Button>
              </Group>
              {canUsePasskeys() && (
                <Button
                  variant="light"
                  leftSection={<IconKey size={16} aria-hidden />}
                  onClick={() => void passkeyAlone()}
                >
                  <Trans>Continue with a passkey</Trans>
                </Button>
              )}
            </Stack>
          </form>
        )}
      </Paper>
    </Center>
  );
}
