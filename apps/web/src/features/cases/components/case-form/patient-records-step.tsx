import { Alert, Divider, SimpleGrid, Stack } from '@mantine/core';
import { caseOptions, scanFileTypes } from '@portal/contract';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useCaseFormContext, visiblePhotoFields, type ScanField } from './case-form-values.ts';
import { ChoiceRadios } from './choice-inputs.tsx';
import { OtherFilesInput, PhotoInput, ScanInput } from './file-inputs.tsx';
import { TermsField } from './terms-field.tsx';

export function PatientRecordsStep() {
  const form = useCaseFormContext();
  return (
    <Stack gap="lg">
      <ChoiceRadios field="impressionType" label="Impression Type" options={caseOptions.impressionType} withAsterisk />
      {form.values.impressionType === 'Digital Impression' && (
        <Alert
          color="yellow"
          icon={<IconAlertTriangle aria-hidden />}
          title="Scans needed"
          // Mantine's yellow title text is too faint on its pale background (axe: color-contrast).
          styles={{ title: { color: 'var(--mantine-color-black)' } }}
        >
          Maxillary scans are required when submitting a digital impression.
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {(Object.keys(scanFileTypes) as ScanField[]).map((field) => (
          <ScanInput key={field} field={field} />
        ))}
      </SimpleGrid>
      <Divider label="Photos and X-rays" labelPosition="left" />
      <ChoiceRadios field="imageType" label="Image Type" options={caseOptions.imageType} />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {visiblePhotoFields(form.values.imageType).map((field) => (
          <PhotoInput key={field} field={field} />
        ))}
      </SimpleGrid>
      <OtherFilesInput />
      <TermsField />
    </Stack>
  );
}
