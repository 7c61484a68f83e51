import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, FileInput, Menu } from '@mantine/core';
import { caseFileMessages } from '@portal/contract';
import { IconArrowsExchange, IconPhotoPlus } from '@tabler/icons-react';
import { serverText } from '../../../../lib/server-text.ts';
import { isPhotoFile } from '../../lib/file-checks.ts';
import { photoLabels, useCaseFormContext, visiblePhotoFields, type PhotoField } from './case-form-values.ts';
import { useFileUploads } from './file-uploads.tsx';

/** Several photos at once: each fills the next empty photo slot, in the slots' order, and starts uploading. */
export function PhotoBatchInput() {
  const { t } = useLingui();
  const form = useCaseFormContext();
  const uploads = useFileUploads();
  return (
    <FileInput
      label={t`Add several photos`}
      description={t`Each fills the next empty photo slot, in order`}
      multiple
      accept="image/jpeg,image/png"
      placeholder={t`JPG or PNG`}
      leftSection={<IconPhotoPlus size={16} aria-hidden />}
      value={[]}
      error={form.errors.photoBatch}
      onChange={(files) => {
        const photos = files.filter(isPhotoFile);
        const empty = visiblePhotoFields(form.values.imageType).filter((field) => !form.values[field]);
        photos.slice(0, empty.length).forEach((file, index) => {
          uploads.start(file);
          form.setFieldValue(empty[index]!, file);
        });
        const left = photos.length - Math.min(photos.length, empty.length);
        if (photos.length < files.length) form.setFieldError('photoBatch', serverText(caseFileMessages.photoType));
        else if (left > 0)
          form.setFieldError(
            'photoBatch',
            t`${plural(left, {
              one: '# photo(s) did not fit: every photo slot is filled',
              other: '# photo(s) did not fit: every photo slot is filled',
            })}`,
          );
        else form.clearFieldError('photoBatch');
      }}
    />
  );
}

/** Moves a slot's photo to another slot; a photo already there takes this slot's place. */
export function MovePhotoMenu({ field }: { field: PhotoField }) {
  const { t, i18n } = useLingui();
  const form = useCaseFormContext();
  const file = form.values[field];
  if (!file) return null;
  const label = i18n._(photoLabels[field]);
  const targets = visiblePhotoFields(form.values.imageType).filter((other) => other !== field);
  return (
    <Menu position="bottom-start" withinPortal>
      <Menu.Target>
        <Button
          variant="subtle"
          size="compact-xs"
          leftSection={<IconArrowsExchange size={14} aria-hidden />}
          style={{ alignSelf: 'flex-start' }}
          aria-label={t`Move ${label} photo to another slot`}
        >
          <Trans>Move to</Trans>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {targets.map((target) => (
          <Menu.Item
            key={target}
            onClick={() => {
              form.setFieldValue(field, form.values[target]);
              form.setFieldValue(target, file);
            }}
          >
            {i18n._(photoLabels[target])}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
