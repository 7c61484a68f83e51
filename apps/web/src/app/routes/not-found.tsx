import { Trans } from '@lingui/react/macro';
import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths.ts';

export function Component() {
  const navigate = useNavigate();
  return (
    <Center component="main" mih="100vh">
      <Stack align="center">
        <Title order={1}>
          <Trans>Page not found</Trans>
        </Title>
        <Text>
          <Trans>The page you asked for does not exist.</Trans>
        </Text>
        <Button onClick={() => void navigate(paths.login)}>
          <Trans>Go to the portal</Trans>
        </Button>
      </Stack>
    </Center>
  );
}
