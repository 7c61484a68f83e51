import '@mantine/dropzone/styles.css';
import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Button, Group, List, NumberInput, Paper, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import {
  isAdjacentContact,
  planSummary,
  type PlanPrescription,
  type PlanSummary,
  type PlanVersion,
} from '@portal/contract';
import { IconTrash, IconUpload } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import { errorMessage, notifyError, notifySuccess } from '../../../lib/notify.ts';
import { serverFieldErrors, serverText } from '../../../lib/server-text.ts';
import { toPlanFormData, useUploadPlan } from '../api/plan-changes.ts';
import { usePlans } from '../api/get-plans.ts';
import { attachmentsInput, parseAttachments } from '../lib/teeth.ts';
import { useStageFiles } from '../lib/use-stage-files.ts';
import { SummaryFindings } from './plan-findings.tsx';
import { StageFilesList } from './stage-files-list.tsx';

interface IprRow {
  contact: string;
  amountMm: number | string;
  stage: number | string;
}

const iprRowsOf = (entries: PlanVersion['summary']['ipr']): IprRow[] =>
  entries.map((entry) => ({ contact: entry.contact, amountMm: entry.amountMm, stage: entry.stage ?? '' }));

const asNumber = (value: number | string) => (value === '' ? Number.NaN : Number(value));
const typedCount = (value: number | string) => (Number.isInteger(asNumber(value)) ? asNumber(value) : undefined);

/**
 * Staff upload a plan version: stage counts, IPR per contact, attachment teeth, notes, and
 * the stage models (STL files named by arch and stage, or one ZIP of them) dropped or picked,
 * whose stages are listed per arch from their names (a ZIP's from its list of entries) before
 * anything is sent, and fill the stage counts. IPR and attachments start from the latest version.
 * The summary is checked here with the contract's schema; the server checks it again,
 * together with the file names, contents and stage coverage, and its messages show here.
 */
export function UploadPlanForm({
  caseId,
  prescription,
  onDone,
}: {
  caseId: number;
  /** The case's prescription: the summary is checked against it as it is typed (plan-findings.tsx). */
  prescription: PlanPrescription;
  onDone: () => void;
}) {
  const { t } = useLingui();
  const upload = useUploadPlan(caseId);
  // A new version starts from the latest one's IPR and attachments (plans are listed newest first).
  const latest = usePlans(caseId).data?.[0];
  const [startedFrom] = useState(latest?.version);
  const [upperStages, setUpperStages] = useState<number | string>('');
  const [lowerStages, setLowerStages] = useState<number | string>('');
  const [ipr, setIpr] = useState<IprRow[]>(() => (latest ? iprRowsOf(latest.summary.ipr) : []));
  const [teeth, setTeeth] = useState(() => (latest ? attachmentsInput(latest.summary) : ''));
  const [notes, setNotes] = useState('');
  const [findingsReason, setFindingsReason] = useState('');
  const stageFiles = useStageFiles({ upper: setUpperStages, lower: setLowerStages });
  const { files } = stageFiles;
  const [errors, setErrors] = useState<Record<string, string>>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    const attachments = parseAttachments(teeth);
    const parsed = planSummary.safeParse({
      upperStages: asNumber(upperStages),
      lowerStages: asNumber(lowerStages),
      ipr: ipr.map((row) => ({
        contact: row.contact,
        amountMm: asNumber(row.amountMm),
        ...(row.stage !== '' && { stage: asNumber(row.stage) }),
      })),
      ...(attachments ?? { attachmentTeeth: [Number.NaN] }),
      notes,
      findingsReason,
    });
    const found: Record<string, string> = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) found[issue.path.join('.') || 'summary'] ??= serverText(issue.message);
    }
    if (attachments === undefined) {
      found.attachmentTeeth = t`Attachment teeth must be FDI tooth numbers, each with :stage if placed later, e.g. 13, 23:5`;
    }
    if (files.length === 0) found.stages = t`Add the stage models: STL files or one ZIP of them`;
    setErrors(found);
    if (!parsed.success || Object.keys(found).length > 0) return;
    upload.mutateAsync(toPlanFormData(parsed.data as PlanSummary, files)).then(
      (answer) => {
        // The server's sentence, in the language shown (the answer's words are English).
        const version = answer.version;
        notifySuccess(t`Plan version ${version} uploaded`);
        onDone();
      },
      (error: unknown) => {
        notifyError(errorMessage(error, t`The plan could not be uploaded`));
        if (error instanceof ApiError) setErrors(serverFieldErrors(error));
      },
    );
  };

  const fieldError = (prefix: string) =>
    Object.entries(errors).find(([key]) => key === prefix || key.startsWith(`${prefix}.`))?.[1];

  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-label={t`Upload a plan version`} noValidate>
      <Stack gap="sm">
        <Group grow align="flex-start">
          <NumberInput
            label={t`Upper stages`}
            description={t`Aligners for the upper arch (0 for none)`}
            min={0}
            max={99}
            allowDecimal={false}
            value={upperStages}
            onChange={setUpperStages}
            error={errors.upperStages}
          />
          <NumberInput
            label={t`Lower stages`}
            description={t`Aligners for the lower arch (0 for none)`}
            min={0}
            max={99}
            allowDecimal={false}
            value={lowerStages}
            onChange={setLowerStages}
            error={errors.lowerStages}
          />
        </Group>
        <Stack gap={6}>
          <Text size="sm" fw={500}>
            <Trans>IPR per contact</Trans>
          </Text>
          {startedFrom !== undefined && (
            <Text size="xs" c="dimmed">
              <Trans>
                IPR and attachment teeth start as in version {startedFrom}: change them as this version needs.
              </Trans>
            </Text>
          )}
          {ipr.map((row, index) => {
            const number = index + 1;
            const set = (patch: Partial<IprRow>) =>
              setIpr((rows) => rows.map((current, at) => (at === index ? { ...current, ...patch } : current)));
            return (
              <Group key={index} align="flex-start" wrap="wrap" gap="xs">
                {/* Each row reads "Contact", "Amount (mm)", "At stage"; a screen reader hears whose, as "IPR 1 contact". */}
                <TextInput
                  label={t`Contact`}
                  aria-label={t`IPR ${number} contact`}
                  placeholder="11-21"
                  value={row.contact}
                  onChange={(event) => set({ contact: event.currentTarget.value })}
                  error={errors[`ipr.${index}.contact`]}
                />
                <NumberInput
                  label={t`Amount (mm)`}
                  aria-label={t`IPR ${number} amount (mm)`}
                  min={0.1}
                  max={1}
                  step={0.1}
                  decimalScale={2}
                  value={row.amountMm}
                  onChange={(value) => set({ amountMm: value })}
                  error={errors[`ipr.${index}.amountMm`]}
                />
                <NumberInput
                  label={t`At stage`}
                  aria-label={t`IPR ${number} at stage`}
                  min={0}
                  max={99}
                  allowDecimal={false}
                  value={row.stage}
                  onChange={(value) => set({ stage: value })}
                  error={errors[`ipr.${index}.stage`]}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  mt={28}
                  aria-label={t`Remove IPR contact ${number}`}
                  onClick={() => setIpr((rows) => rows.filter((_, at) => at !== index))}
                >
                  <IconTrash size={16} aria-hidden />
                </ActionIcon>
              </Group>
            );
          })}
          <Button
            variant="default"
            size="xs"
            w="fit-content"
            onClick={() => setIpr((rows) => [...rows, { contact: '', amountMm: 0.2, stage: '' }])}
          >
            <Trans>Add IPR contact</Trans>
          </Button>
        </Stack>
        <TextInput
          label={t`Attachment teeth`}
          description={t`FDI numbers, separated by commas; add :stage for one placed after stage 0 (e.g. 13, 23:5)`}
          value={teeth}
          onChange={(event) => setTeeth(event.currentTarget.value)}
          error={fieldError('attachmentTeeth') ?? fieldError('attachmentStages')}
        />
        <Textarea
          label={t`Notes`}
          autosize
          minRows={2}
          maxLength={5000}
          value={notes}
          onChange={(event) => setNotes(event.currentTarget.value)}
          error={errors.notes ?? errors.summary}
        />
        <SummaryFindings
          prescription={prescription}
          summary={{
            upperStages: typedCount(upperStages) ?? 0,
            lowerStages: typedCount(lowerStages) ?? 0,
            // What is typed well enough to check; the rest is the schema's to refuse at Upload.
            ipr: ipr.flatMap((row) =>
              isAdjacentContact(row.contact.trim()) && Number.isFinite(asNumber(row.amountMm))
                ? [
                    {
                      contact: row.contact.trim(),
                      amountMm: asNumber(row.amountMm),
                      ...(typedCount(row.stage) !== undefined && { stage: typedCount(row.stage) }),
                    },
                  ]
                : [],
            ),
            attachmentTeeth: parseAttachments(teeth)?.attachmentTeeth ?? [],
          }}
        />
        <Textarea
          label={t`Reason for departing from the prescription`}
          description={t`If this version departs from the prescription or the limits, say why: the doctor reads it with the findings (those of the tooth movements show on the version once measured after upload)`}
          autosize
          minRows={1}
          maxLength={2000}
          value={findingsReason}
          onChange={(event) => setFindingsReason(event.currentTarget.value)}
          error={errors.findingsReason}
        />
        <div>
          <Dropzone
            onDrop={(dropped) => {
              stageFiles.choose(dropped);
              setErrors((current) => ({ ...current, stages: '' }));
            }}
            accept={{ 'model/stl': ['.stl'], 'application/zip': ['.zip'] }}
            multiple
            aria-label={t`Stage models: STL files or one ZIP`}
            p="md"
          >
            <Group justify="center" gap="sm" mih={60} style={{ pointerEvents: 'none' }}>
              <IconUpload size={28} aria-hidden />
              <div>
                <Text size="sm" fw={500}>
                  <Trans>Drop the stage models here, or click to pick them</Trans>
                </Text>
                <Text size="xs" c="dimmed">
                  <Trans>
                    STL files named by arch and stage (upper_03.stl, Mandibular Stage 05.stl), or one ZIP of them; stage
                    0 is the initial position
                  </Trans>
                </Text>
              </div>
            </Group>
          </Dropzone>
          {files.length > 0 && (
            <StageFilesList
              files={files}
              listing={stageFiles.listing}
              counts={{ upper: typedCount(upperStages), lower: typedCount(lowerStages) }}
            />
          )}
          {errors.stages && (
            <List size="sm" c="red.8" mt={6} role="alert">
              {errors.stages.split('; ').map((problem) => (
                <List.Item key={problem}>{problem}</List.Item>
              ))}
            </List>
          )}
        </div>
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" loading={upload.isPending}>
            <Trans>Upload version</Trans>
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
