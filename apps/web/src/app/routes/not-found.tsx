import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths.ts';

export function Component() {
  const navigate = useNavigate();
  return (
    <Center component="main" mih="100vh">
      <Stack align="center">
        <Title order={1}>Page not found</Title>
        <Text>The page you asked for does not exist.</Text>
        <Button onClick={() => void navigate(paths.login)}>Go to the portal</Button>
      </Stack>
    </Center>
  );
}
