import { useLingui } from '@lingui/react/macro';
import { FileInput, Image, Stack } from '@mantine/core';
import { caseFileMessages } from '@portal/contract';
import { IconFile3d, IconPhoto } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { serverText } from '../../../../lib/server-text.ts';
import { isImageFileName, isPhotoFile, isScanFile } from '../../lib/file-checks.ts';
import { photoLabels, scanLabels, useCaseFormContext, type PhotoField, type ScanField } from './case-form-values.ts';
import { UploadProgress, useFileUploads } from './file-uploads.tsx';
import { MovePhotoMenu } from './photo-slots.tsx';
import { UploadedFile } from './uploaded-file.ts';

/**
 * A file of a single-file field; a file of the wrong kind is refused, the input cleared and
 * the message shown; an accepted one starts uploading at once.
 */
function useCheckedFile(field: ScanField | PhotoField, isAllowed: (file: File) => boolean, message: string) {
  const form = useCaseFormContext();
  const uploads = useFileUploads();
  const input = form.getInputProps(field);
  return {
    ...input,
    onChange: (file: File | null) => {
      const previous = form.values[field];
      if (previous && previous !== file) uploads.cancel(previous);
      if (file && !isAllowed(file)) {
        form.setFieldValue(field, null);
        form.setFieldError(field, serverText(message));
      } else {
        if (file) uploads.start(file);
        input.onChange(file);
      }
    },
  };
}

/** The progress and cancel button of a single field's file. */
function FieldUpload({ field }: { field: ScanField | PhotoField }) {
  const form = useCaseFormContext();
  const file = form.values[field];
  return file ? <UploadProgress file={file} onCancel={() => form.setFieldValue(field, null)} /> : null;
}

export function ScanInput({ field }: { field: ScanField }) {
  const { t, i18n } = useLingui();
  const form = useCaseFormContext();
  const label = i18n._(scanLabels[field]);
  const input = useCheckedFile(field, isScanFile, caseFileMessages.scanType);
  const isRequired = field === 'maxillaryScan' && form.values.impressionType === 'Digital Impression';
  return (
    <Stack gap={6}>
      <FileInput
        label={label}
        clearButtonProps={{ 'aria-label': t`Clear ${label}` }}
        withAsterisk={isRequired}
        accept=".stl,.zip,.rar"
        placeholder={t`STL, ZIP or RAR`}
        clearable
        leftSection={<IconFile3d size={16} aria-hidden />}
        {...input}
      />
      <FieldUpload field={field} />
    </Stack>
  );
}

/** A temporary URL for showing a picked file, released when the file changes or the slot goes away. */
function useObjectUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return;
    }
    const created = URL.createObjectURL(file);
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [file]);
  return url;
}

export function PhotoInput({ field }: { field: PhotoField }) {
  const { t, i18n } = useLingui();
  const form = useCaseFormContext();
  const label = i18n._(photoLabels[field]);
  const input = useCheckedFile(field, isPhotoFile, caseFileMessages.photoType);
  const photo = form.values[field];
  // A draft's photo is on the server only: its name and "uploaded" show, no preview.
  const preview = useObjectUrl(photo instanceof UploadedFile ? null : photo);
  return (
    <Stack gap={6}>
      <FileInput
        label={label}
        clearButtonProps={{ 'aria-label': t`Clear ${label}` }}
        accept="image/jpeg,image/png"
        placeholder={t`JPG or PNG`}
        clearable
        leftSection={<IconPhoto size={16} aria-hidden />}
        {...input}
      />
      <FieldUpload field={field} />
      <MovePhotoMenu field={field} />
      {preview && <Image src={preview} w={150} radius="sm" alt={t`${label} preview`} />}
    </Stack>
  );
}

/** Several JPG or PNG files; any other file is dropped with the contract's message. */
export function OtherFilesInput() {
  const { t } = useLingui();
  const form = useCaseFormContext();
  const uploads = useFileUploads();
  return (
    <Stack gap={6}>
      <FileInput
        label={t`Other Files`}
        clearButtonProps={{ 'aria-label': t`Clear Other Files` }}
        description={t`JPG or PNG images, several at once`}
        multiple
        accept=".jpg,.jpeg,.png"
        placeholder={t`JPG or PNG`}
        clearable
        leftSection={<IconPhoto size={16} aria-hidden />}
        value={form.values.otherFiles}
        error={form.errors.otherFiles}
        onChange={(files) => {
          const kept = files.filter(isImageFileName);
          for (const file of form.values.otherFiles) if (!kept.includes(file)) uploads.cancel(file);
          for (const file of kept) uploads.start(file);
          form.setFieldValue('otherFiles', kept);
          if (kept.length < files.length) form.setFieldError('otherFiles', serverText(caseFileMessages.otherFileType));
        }}
      />
      {form.values.otherFiles.map((file) => (
        <UploadProgress
          key={`${file.name}-${file.size}-${file.lastModified}`}
          file={file}
          onCancel={() =>
            form.setFieldValue(
              'otherFiles',
              form.values.otherFiles.filter((kept) => kept !== file),
            )
          }
        />
      ))}
    </Stack>
  );
}
