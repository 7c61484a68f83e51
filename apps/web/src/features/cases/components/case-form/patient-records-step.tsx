import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Alert, SimpleGrid } from '@mantine/core';
import { scanFileTypes } from '@portal/contract';
import { IconAlertTriangle, IconScan } from '@tabler/icons-react';
import { intlLocale } from '../../../../lib/i18n.ts';
import { CaseFormStep } from './case-form-step.tsx';
import {
  scanFieldsFromProgressScan,
  scanLabels,
  useCaseFormContext,
  visiblePhotoFields,
  type ScanField,
} from './case-form-values.ts';
import { OtherFilesInput, PhotoInput, ScanInput } from './file-inputs.tsx';
import { PhotoBatchInput } from './photo-slots.tsx';
import { TermsField } from './terms-field.tsx';

const archWords = { upper: msg`upper`, lower: msg`lower` };

/** The impression and its scans, then the image type and its photos, other files and the terms. */
export function PatientRecordsStep() {
  const { t, i18n } = useLingui();
  const form = useCaseFormContext();
  // A refinement from a progress scan: the scan's files are the order's scans of its arches.
  const fromScan = scanFieldsFromProgressScan(form.values.progressScanArches);
  // "upper and lower" (at most two: English's list as the spec writes it).
  const listed = (names: string[]) => new Intl.ListFormat(intlLocale(), { type: 'conjunction' }).format(names);
  const count = fromScan.length;
  const arches = listed(form.values.progressScanArches.map((arch) => i18n._(archWords[arch])));
  const scanNames = listed(fromScan.map((field) => i18n._(scanLabels[field])));
  const scans = (
    <>
      {fromScan.length > 0 && (
        <Alert color="blue" variant="light" icon={<IconScan aria-hidden />} title={t`Scans from the progress scan`}>
          <Plural
            value={count}
            one={`The progress scan's ${arches} scan is sent as this refinement's ${scanNames}.`}
            other={`The progress scan's ${arches} scans are sent as this refinement's ${scanNames}.`}
          />
        </Alert>
      )}
      {form.values.impressionType === 'Digital Impression' && !fromScan.includes('maxillaryScan') && (
        <Alert
          color="yellow"
          icon={<IconAlertTriangle aria-hidden />}
          title={t`Scans needed`}
          // Mantine's yellow title text is too faint on its pale background (axe: color-contrast).
          styles={{ title: { color: 'var(--mantine-color-black)' } }}
        >
          <Trans>Maxillary scans are required when submitting a digital impression.</Trans>
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {(Object.keys(scanFileTypes) as ScanField[])
          .filter((field) => !fromScan.includes(field))
          .map((field) => (
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
