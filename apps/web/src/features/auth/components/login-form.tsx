import { Button, Center, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
// Only the auth schemas: the login page must not pull in every form's schema.
import { loginRequest, messages } from '@portal/contract/auth';
import { IconDental } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { errorMessage, notifyError, notifySuccess, toastMs } from '../../../lib/notify.ts';
import { useLogin } from '../api/login.ts';

/** `returnTo`: where a successful sign-in goes (the dashboard, or the page the guard was asked for). */
export function LoginForm({ returnTo = paths.dashboard }: { returnTo?: string }) {
  const navigate = useNavigate();
  const login = useLogin();
  const form = useForm({
    mode: 'controlled',
    initialValues: { username: '', password: '' },
    validate: schemaResolver(loginRequest, { sync: true }),
    validateInputOnChange: true,
  });

  const submit = form.onSubmit(async (values) => {
    try {
      const answer = await login(values);
      notifySuccess(answer.message || messages.loginSucceeded, toastMs.login);
      await navigate(returnTo, { replace: true });
    } catch (error) {
      notifyError(errorMessage(error, 'Login failed'), toastMs.login);
    }
  });

  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Paper component="main" withBorder shadow="sm" p="xl" w="100%" maw={420}>
        <Stack align="center" gap="xs" mb="lg">
          <IconDental size={48} aria-label="Aligner Portal logo" role="img" />
          <Title order={1} size="h2">
            Aligner Portal
          </Title>
          <Text>Sign in to start your session</Text>
        </Stack>
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput label="Username" autoComplete="username" withAsterisk {...form.getInputProps('username')} />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              withAsterisk
              {...form.getInputProps('password')}
            />
            <Group justify="space-between" mt="sm">
              <Button variant="default" onClick={() => void navigate(paths.register)}>
                Register
              </Button>
              <Button type="submit">Sign In</Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
