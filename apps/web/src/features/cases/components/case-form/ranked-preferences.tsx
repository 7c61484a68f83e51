import { Group, Radio, SimpleGrid } from '@mantine/core';
import { caseOptions, rankedPreferenceLabels } from '@portal/contract';
import { useCaseFormContext } from './case-form-values.ts';

type RankField = keyof typeof rankedPreferenceLabels;
const rankFields = Object.keys(rankedPreferenceLabels) as RankField[];

/** IPR, Proclination, Expansion, Extraction: each a rank, and a rank another one holds cannot be picked. */
export function RankedPreferences() {
  const form = useCaseFormContext();
  const holderOf = (rank: string) => rankFields.find((field) => form.values[field] === rank);
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
      {rankFields.map((field) => (
        <Radio.Group key={field} label={rankedPreferenceLabels[field]} {...form.getInputProps(field)}>
          <Group mt="xs" gap="sm">
            {caseOptions.preference.map((rank) => {
              const holder = holderOf(rank);
              return <Radio key={rank} value={rank} label={rank} disabled={holder !== undefined && holder !== field} />;
            })}
          </Group>
        </Radio.Group>
      ))}
    </SimpleGrid>
  );
}
