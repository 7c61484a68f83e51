import { Alert, SimpleGrid } from '@mantine/core';
import { scanFileTypes } from '@portal/contract';
import { IconAlertTriangle } from '@tabler/icons-react';
import { CaseFormStep } from './case-form-step.tsx';
import { useCaseFormContext, visiblePhotoFields, type ScanField } from './case-form-values.ts';
import { OtherFilesInput, PhotoInput, ScanInput } from './file-inputs.tsx';
import { PhotoBatchInput } from './photo-slots.tsx';
import { TermsField } from './terms-field.tsx';

/** The impression and its scans, then the image type and its photos, other files and the terms. */
export function PatientRecordsStep() {
  const form = useCaseFormContext();
  const scans = (
    <>
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
    </>
  );
  const photos = (
    <>
      <PhotoBatchInput />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {visiblePhotoFields(form.values.imageType).map((field) => (
          <PhotoInput key={field} field={field} />
        ))}
      </SimpleGrid>
      <OtherFilesInput />
      <TermsField />
    </>
  );
  return <CaseFormStep step={2} after={{ impression: scans, images: photos }} />;
}
