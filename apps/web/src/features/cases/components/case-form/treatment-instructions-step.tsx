import { Divider, SimpleGrid, Stack, Textarea } from '@mantine/core';
import { caseOptions } from '@portal/contract';
import { toothListLabels, useCaseFormContext, type ToothListField } from './case-form-values.ts';
import { ChoiceRadios, ChoiceSelect } from './choice-inputs.tsx';
import { RankedPreferences } from './ranked-preferences.tsx';
import { ToothListInput } from './tooth-list-input.tsx';

const goals = [
  ['rightCanine', 'Right Canine'],
  ['leftCanine', 'Left Canine'],
  ['rightMolar', 'Right Molar'],
  ['leftMolar', 'Left Molar'],
] as const;

export function TreatmentInstructionsStep() {
  const form = useCaseFormContext();
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <ChoiceRadios field="midline" label="Midline" options={caseOptions.midline} withAsterisk />
        <ChoiceRadios field="overjet" label="Overjet" options={caseOptions.overjet} withAsterisk />
        <ChoiceRadios field="overbite" label="Overbite" options={caseOptions.overbite} withAsterisk />
        <ChoiceRadios field="crossBite" label="Cross Bite" options={caseOptions.crossBite} withAsterisk />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
        {goals.map(([field, label]) => (
          <ChoiceSelect key={field} field={field} label={label} options={caseOptions.goal} />
        ))}
      </SimpleGrid>
      <Divider label="Preferences" labelPosition="left" />
      <RankedPreferences />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <ChoiceSelect field="ipr" label="IPR Prescription" options={caseOptions.ipr} />
        <ChoiceSelect
          field="auxilliaryType"
          label="Auxiliary Type (if required)"
          options={caseOptions.auxilliaryType}
        />
      </SimpleGrid>
      <Divider label="Teeth" labelPosition="left" />
      <ChoiceRadios field="toothNumbering" label="Tooth Numbering" options={caseOptions.toothNumbering} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {(Object.keys(toothListLabels) as ToothListField[]).map((field) => (
          <ToothListInput key={field} field={field} />
        ))}
      </SimpleGrid>
      <Textarea label="Special Instructions" rows={4} {...form.getInputProps('specialInstruction')} />
    </Stack>
  );
}
