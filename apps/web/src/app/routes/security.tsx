import { Box } from '@mantine/core';
import { SecurityScreen } from '../../features/auth/components/security-screen.tsx';
import { SignedInDevices } from '../../features/sessions/components/signed-in-devices.tsx';

/**
 * Every signed-in user's own second factors and, below them, the devices signed in with them
 * (issue 41: where people look for both; docs/decisions/sign-in-and-sessions.md § Sessions).
 */
export function Component() {
  return (
    <>
      <SecurityScreen />
      {/* As wide as the second factor's cards above. */}
      <Box maw={720}>
        <SignedInDevices />
      </Box>
    </>
  );
}
