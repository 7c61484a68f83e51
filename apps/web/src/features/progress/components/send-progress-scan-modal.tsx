import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, FileInput, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { IconFile3d } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import { errorMessage, notifySuccess } from '../../../lib/notify.ts';
import { toProgressScanFormData, useSendProgressScan } from '../api/send-progress-scan.ts';

/** The approved version's stage counts: the aligner worn is one of its stages. */
export interface ApprovedStages {
  version: number;
  upperStages: number;
  lowerStages: number;
}

const isStl = (file: File) => file.name.toLowerCase().endsWith('.stl');

/**
 * "Add a progress scan": the aligner the patient wears now (a stage of the approved version)
 * and the upper and/or lower intraoral scan (STL). Checked here for what the form itself
 * knows; the server checks the files' contents and answers its reason, shown here.
 */
export function SendProgressScanModal({
  caseId,
  approved,
  onSent,
  onClose,
}: {
  caseId: number;
  approved: ApprovedStages;
  onSent: (progressScanId: number) => void;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const send = useSendProgressScan(caseId);
  const version = approved.version;
  const upperStages = approved.upperStages;
  const lowerStages = approved.lowerStages;
  const lastStage = Math.max(approved.upperStages, approved.lowerStages);
  const [stage, setStage] = useState<number | string>('');
  const [upper, setUpper] = useState<File | null>(null);
  const [lower, setLower] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    const found: Record<string, string> = {};
    const worn = typeof stage === 'number' ? stage : Number.NaN;
    if (!Number.isInteger(worn) || worn < 1 || worn > lastStage) {
      found.stage = t`The aligner worn is a stage from 1 to ${lastStage}`;
    } else {
      if (upper && worn > upperStages) found.upper = t`The plan's upper arch ends at stage ${upperStages}`;
      if (lower && worn > lowerStages) found.lower = t`The plan's lower arch ends at stage ${lowerStages}`;
    }
    if (upper && !isStl(upper)) found.upper = t`The upper scan must be an STL file`;
    if (lower && !isStl(lower)) found.lower = t`The lower scan must be an STL file`;
    if (!upper && !lower) found.upper = t`Add the upper or the lower scan (or both)`;
    setErrors(found);
    setRefusal('');
    if (Object.keys(found).length > 0) return;
    send.mutateAsync(toProgressScanFormData(worn, { upper, lower })).then(
      (answer) => {
        notifySuccess(t`Progress scan sent: fitting it to the plan`);
        onSent(answer.progressScanId);
      },
      (error: unknown) => {
        setRefusal(errorMessage(error, t`The progress scan could not be sent`));
        if (error instanceof ApiError) setErrors(error.fieldErrors);
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title={t`Add a progress scan`} centered>
      <form onSubmit={submit} noValidate aria-label={t`Add a progress scan`}>
        <Stack gap="sm">
          <Text size="sm">
            <Trans>
              Compared, tooth by tooth, with version {version} of the plan at the aligner the patient wears now.
            </Trans>
          </Text>
          <NumberInput
            label={t`Aligner worn now`}
            description={t`A stage of version ${version}: 1 to ${lastStage}`}
            min={1}
            max={lastStage}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            value={stage}
            onChange={setStage}
            error={errors.stage}
            required
            data-autofocus
          />
          <FileInput
            label={t`Upper scan`}
            clearButtonProps={{ 'aria-label': t`Clear the upper scan` }}
            description={t`STL, as the intraoral scanner exports it`}
            placeholder={t`Choose the upper STL`}
            accept=".stl,model/stl"
            clearable
            leftSection={<IconFile3d size={16} aria-hidden />}
            value={upper}
            onChange={setUpper}
            error={errors.upper}
          />
          <FileInput
            label={t`Lower scan`}
            clearButtonProps={{ 'aria-label': t`Clear the lower scan` }}
            description={t`STL; send one arch or both`}
            placeholder={t`Choose the lower STL`}
            accept=".stl,model/stl"
            clearable
            leftSection={<IconFile3d size={16} aria-hidden />}
            value={lower}
            onChange={setLower}
            error={errors.lower}
          />
          {refusal && (
            <Alert
              color="red"
              variant="light"
              role="alert"
              p="xs"
              title={t`Not sent`}
              styles={{ title: { color: 'var(--mantine-color-text)' } }}
            >
              {refusal}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" loading={send.isPending}>
              <Trans>Send scan</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
