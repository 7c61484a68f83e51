import { Trans, useLingui } from '@lingui/react/macro';
import { Paper, Radio, Stack, Text, Title } from '@mantine/core';
import { toothNotations, type ToothNotation } from '@portal/contract';
import { notifySaveError } from '../../../lib/notify.ts';
import { useSaveToothNotation, useToothNotation } from '../api/tooth-notation.ts';

const isToothNotation = (value: string): value is ToothNotation =>
  (toothNotations as readonly string[]).includes(value);

/**
 * The caller's own tooth notation, beside the language on the profile or account page: every
 * screen names teeth in it at once (docs/decisions/tooth-notation.md).
 */
export function ToothNotationSection() {
  const { t } = useLingui();
  const notation = useToothNotation();
  const save = useSaveToothNotation();
  const choices: Record<ToothNotation, { label: string; description: string }> = {
    FDI: { label: t`FDI`, description: t`Two digits, quadrant then tooth: 11 to 48` },
    Universal: { label: t`Universal`, description: t`1 to 32, from the upper right third molar` },
    Palmer: { label: t`Palmer`, description: t`1 to 8 in each quadrant's corner, as 1┘ or └1` },
  };
  return (
    <Paper component="section" aria-labelledby="tooth-notation-title" withBorder p={{ base: 'sm', sm: 'lg' }} mt="xl">
      <Title order={2} size="h3" id="tooth-notation-title">
        <Trans>Tooth numbering</Trans>
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        <Trans>
          Teeth are numbered this way on every screen you read. A case&apos;s own tooth numbering stays on its
          prescription.
        </Trans>
      </Text>
      {notation && (
        <Radio.Group
          aria-labelledby="tooth-notation-title"
          value={notation}
          onChange={(value) => {
            if (isToothNotation(value)) save.mutate(value, { onError: (error) => notifySaveError(error) });
          }}
        >
          <Stack gap="sm">
            {toothNotations.map((value) => (
              <Radio key={value} value={value} label={choices[value].label} description={choices[value].description} />
            ))}
          </Stack>
        </Radio.Group>
      )}
    </Paper>
  );
}
