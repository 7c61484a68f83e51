import { Button, Group, Radio } from '@mantine/core';
import type { CaseFieldEntry } from '@portal/contract';
import { useCaseFormContext } from './case-form-values.ts';
import { chooseRank } from './rank-choice.ts';

/**
 * A ranked preference (IPR, Proclination, ...): every rank can be chosen; one another
 * preference holds swaps with this one's, and Clear gives the rank up.
 */
export function RankInput({ field }: { field: Extract<CaseFieldEntry, { kind: 'rank' }> }) {
  const form = useCaseFormContext();
  const choose = (rank: string) => form.setValues(chooseRank(form.getValues(), field.sent, rank));
  const { onChange: _onChange, ...inputProps } = form.getInputProps(field.sent);
  return (
    <Radio.Group label={field.label} {...inputProps} value={form.values[field.sent] ?? ''} onChange={choose}>
      <Group mt="xs" gap="sm">
        {field.options.map((rank) => (
          <Radio key={rank} value={rank} label={rank} />
        ))}
        {form.values[field.sent] && (
          <Button variant="subtle" size="compact-xs" onClick={() => choose('')} aria-label={`Clear ${field.label}`}>
            Clear
          </Button>
        )}
      </Group>
    </Radio.Group>
  );
}
