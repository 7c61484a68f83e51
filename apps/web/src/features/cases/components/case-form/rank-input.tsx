import { Group, Radio } from '@mantine/core';
import { fieldsOfKind, type CaseFieldEntry } from '@portal/contract';
import { useCaseFormContext } from './case-form-values.ts';

const rankFields = fieldsOfKind('rank');

/** A ranked preference (IPR, Proclination, ...): a rank another one holds cannot be picked. */
export function RankInput({ field }: { field: Extract<CaseFieldEntry, { kind: 'rank' }> }) {
  const form = useCaseFormContext();
  const holderOf = (rank: string) => rankFields.find((other) => form.values[other.sent] === rank)?.sent;
  return (
    <Radio.Group label={field.label} {...form.getInputProps(field.sent)}>
      <Group mt="xs" gap="sm">
        {field.options.map((rank) => {
          const holder = holderOf(rank);
          return (
            <Radio key={rank} value={rank} label={rank} disabled={holder !== undefined && holder !== field.sent} />
          );
        })}
      </Group>
    </Radio.Group>
  );
}
