import { Trans, useLingui } from '@lingui/react/macro';
import { LoadingOverlay, Progress, Stack, Text } from '@mantine/core';
import { useActivity } from '../lib/activity.ts';

/** The full-screen overlay: 'Loading...' during calls, '{n}% uploaded' during uploads. */
export function LoadingOverlayGlobal() {
  const { t } = useLingui();
  const { isVisible, uploadPercent } = useActivity();
  return (
    <LoadingOverlay
      visible={isVisible}
      pos="fixed"
      zIndex={1000}
      overlayProps={{ blur: 1 }}
      loaderProps={{
        children: (
          <Stack align="center" gap="xs" role="status" aria-live="polite">
            {uploadPercent === null ? (
              <Text fw={600}>
                <Trans>Loading...</Trans>
              </Text>
            ) : (
              <>
                <Progress value={uploadPercent} w={240} aria-label={t`Upload progress`} />
                <Text fw={600}>
                  <Trans>{uploadPercent}% uploaded</Trans>
                </Text>
              </>
            )}
          </Stack>
        ),
      }}
    />
  );
}
