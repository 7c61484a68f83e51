import { Trans } from '@lingui/react/macro';
import { Center, Loader, Stack, Text } from '@mantine/core';

/** What the viewer shows while three.js and the scans load. */
export function ViewerLoading() {
  return (
    <Center h={320}>
      <Stack align="center" gap="xs" role="status">
        <Loader aria-hidden />
        <Text>
          <Trans>Loading 3D scans…</Trans>
        </Text>
      </Stack>
    </Center>
  );
}
