import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Radio, Text } from '@mantine/core';
import type { CaseFieldEntry } from '@portal/contract';
import { useState } from 'react';
import { serverText } from '../../../../lib/server-text.ts';
import { useCaseFormContext } from './case-form-values.ts';
import { chooseRank, rankSwapNote } from './rank-choice.ts';

/**
 * A ranked preference (IPR, Proclination, ...): every rank can be chosen; one another
 * preference holds swaps with this one's, said under this one, and Clear gives the rank up.
 */
export function RankInput({ field }: { field: Extract<CaseFieldEntry, { kind: 'rank' }> }) {
  const { t } = useLingui();
  const form = useCaseFormContext();
  const label = serverText(field.label);
  const [swapNote, setSwapNote] = useState<string | null>(null);
  const choose = (rank: string) => {
    const values = form.getValues();
    setSwapNote(rankSwapNote(values, field.sent, rank));
    form.setValues(chooseRank(values, field.sent, rank));
  };
  const { onChange: _onChange, ...inputProps } = form.getInputProps(field.sent);
  return (
    <Radio.Group label={label} {...inputProps} value={form.values[field.sent] ?? ''} onChange={choose}>
      <Group mt="xs" gap="sm">
        {field.options.map((rank) => (
          <Radio key={rank} value={rank} label={serverText(rank)} />
        ))}
        {form.values[field.sent] && (
          <Button variant="subtle" size="compact-xs" onClick={() => choose('')} aria-label={t`Clear ${label}`}>
            <Trans>Clear</Trans>
          </Button>
        )}
      </Group>
      {/* Always there, so a screen reader announces the swap when the text appears. */}
      <Text size="sm" c="blue.8" mt={swapNote ? 4 : 0} aria-live="polite">
        {swapNote}
      </Text>
    </Radio.Group>
  );
}
