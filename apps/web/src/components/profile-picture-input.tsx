import { Trans, useLingui } from '@lingui/react/macro';
import { Button, FileInput, Group, Image, Stack } from '@mantine/core';
import { caseFileMessages } from '@portal/contract';
import { IconPhoto } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { fileUrl } from '../lib/api-client.ts';
import { serverText } from '../lib/server-text.ts';

const allowedTypes = ['image/jpeg', 'image/png'];

/**
 * A profile picture for the user and doctor forms: JPEG or PNG only (anything else clears
 * the input and says 'Only JPG and PNG files are allowed!'), a 100 px preview of the chosen
 * or stored picture, and 'Remove Picture'.
 */
export function ProfilePictureInput({
  value,
  storedPicture,
  isStoredRemoved,
  onChange,
  onRemove,
}: {
  value: File | null;
  storedPicture: string | null;
  isStoredRemoved: boolean;
  onChange: (file: File | null) => void;
  onRemove: () => void;
}) {
  const { t } = useLingui();
  const [error, setError] = useState<string | null>(null);
  const chosenUrl = useMemo(() => (value ? URL.createObjectURL(value) : null), [value]);
  useEffect(() => () => (chosenUrl ? URL.revokeObjectURL(chosenUrl) : undefined), [chosenUrl]);
  const previewUrl = chosenUrl ?? (isStoredRemoved ? undefined : fileUrl(storedPicture));

  return (
    <Stack gap="xs">
      <FileInput
        label={t`Profile Picture`}
        placeholder={t`Choose a JPG or PNG picture`}
        accept={allowedTypes.join(',')}
        leftSection={<IconPhoto size={16} aria-hidden />}
        clearable
        clearButtonProps={{ 'aria-label': t`Clear profile picture` }}
        value={value}
        error={error}
        onChange={(file) => {
          const isAllowed = file === null || allowedTypes.includes(file.type);
          setError(isAllowed ? null : serverText(caseFileMessages.photoType));
          onChange(isAllowed ? file : null);
        }}
      />
      {previewUrl && (
        <Group gap="sm" align="end">
          <Image src={previewUrl} w={100} h={100} fit="cover" radius="sm" alt={t`Profile picture preview`} />
          <Button
            variant="default"
            size="xs"
            onClick={() => {
              setError(null);
              onChange(null);
              onRemove();
            }}
          >
            <Trans>Remove Picture</Trans>
          </Button>
        </Group>
      )}
    </Stack>
  );
}
