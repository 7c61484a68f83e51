import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifySuccess } from '../../../lib/notify.ts';

/** Recovery codes, shown once: copy or download them, then go on. */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useLingui();
  const heading = t`Aligner Portal recovery codes (each works once)`;
  const text = `${heading}\n\n${codes.join('\n')}\n`;
  const copy = async () => {
    await navigator.clipboard.writeText(text);
    notifySuccess(t`Recovery codes copied`);
  };
  const download = () => {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    link.download = 'aligner-portal-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(link.href);
  };
  return (
    <Stack>
      <Alert color="teal" title={t`Save your recovery codes`}>
        <Trans>
          Each code signs you in once if you lose your authenticator app or passkey. They are shown only now.
        </Trans>
      </Alert>
      <SimpleGrid
        cols={{ base: 1, xs: 2 }}
        spacing="xs"
        component="ul"
        aria-label={t`Recovery codes`}
        p={0}
        m={0}
        style={{ listStyle: 'none' }}
      >
        {codes.map((code) => (
          <Text component="li" key={code} ff="monospace" size="sm">
            {code}
          </Text>
        ))}
      </SimpleGrid>
      <Group>
        <Button variant="default" onClick={() => void copy().catch(() => undefined)}>
          <Trans>Copy</Trans>
        </Button>
        <Button variant="default" onClick={download}>
          <Trans>Download</Trans>
        </Button>
      </Group>
      <Button onClick={onDone}>
        <Trans>I saved my codes</Trans>
      </Button>
    </Stack>
  );
}
