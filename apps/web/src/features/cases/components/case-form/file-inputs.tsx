import { FileInput, Image, Stack } from '@mantine/core';
import { caseFileMessages } from '@portal/contract';
import { IconFile3d, IconPhoto } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { isImageFileName, isPhotoFile, isScanFile } from '../../lib/file-checks.ts';
import { photoLabels, scanLabels, useCaseFormContext, type PhotoField, type ScanField } from './case-form-values.ts';

/** A file of a single-file field; a file of the wrong kind is refused, the input cleared and the message shown. */
function useCheckedFile(field: ScanField | PhotoField, isAllowed: (file: File) => boolean, message: string) {
  const form = useCaseFormContext();
  const input = form.getInputProps(field);
  return {
    ...input,
    onChange: (file: File | null) => {
      if (file && !isAllowed(file)) {
        form.setFieldValue(field, null);
        form.setFieldError(field, message);
      } else {
        input.onChange(file);
      }
    },
  };
}

export function ScanInput({ field }: { field: ScanField }) {
  const form = useCaseFormContext();
  const input = useCheckedFile(field, isScanFile, caseFileMessages.scanType);
  const isRequired = field === 'maxillaryScan' && form.values.impressionType === 'Digital Impression';
  return (
    <FileInput
      label={scanLabels[field]}
      clearButtonProps={{ 'aria-label': `Clear ${scanLabels[field]}` }}
      withAsterisk={isRequired}
      accept=".stl,.zip,.rar"
      placeholder="STL, ZIP or RAR"
      clearable
      leftSection={<IconFile3d size={16} aria-hidden />}
      {...input}
    />
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
  const form = useCaseFormContext();
  const input = useCheckedFile(field, isPhotoFile, caseFileMessages.photoType);
  const preview = useObjectUrl(form.values[field]);
  return (
    <Stack gap={6}>
      <FileInput
        label={photoLabels[field]}
        clearButtonProps={{ 'aria-label': `Clear ${photoLabels[field]}` }}
        accept="image/jpeg,image/png"
        placeholder="JPG or PNG"
        clearable
        leftSection={<IconPhoto size={16} aria-hidden />}
        {...input}
      />
      {preview && <Image src={preview} w={150} radius="sm" alt={`${photoLabels[field]} preview`} />}
    </Stack>
  );
}

/** Several JPG or PNG files; any other file is dropped with the contract's message. */
export function OtherFilesInput() {
  const form = useCaseFormContext();
  return (
    <FileInput
      label="Other Files"
      clearButtonProps={{ 'aria-label': 'Clear Other Files' }}
      description="JPG or PNG images, several at once"
      multiple
      accept=".jpg,.jpeg,.png"
      placeholder="JPG or PNG"
      clearable
      leftSection={<IconPhoto size={16} aria-hidden />}
      value={form.values.otherFiles}
      error={form.errors.otherFiles}
      onChange={(files) => {
        const kept = files.filter(isImageFileName);
        form.setFieldValue('otherFiles', kept);
        if (kept.length < files.length) form.setFieldError('otherFiles', caseFileMessages.otherFileType);
      }}
    />
  );
}
