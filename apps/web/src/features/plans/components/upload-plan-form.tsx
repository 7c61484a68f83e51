import '@mantine/dropzone/styles.css';
import { ActionIcon, Button, Group, List, NumberInput, Paper, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { planSummary, type PlanSummary } from '@portal/contract';
import { IconTrash, IconUpload } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import { errorMessage, notifyError, notifySuccess } from '../../../lib/notify.ts';
import { toPlanFormData, useUploadPlan } from '../api/plan-changes.ts';
import { parseAttachments } from '../lib/teeth.ts';
import { StageFilesList } from './stage-files-list.tsx';

interface IprRow {
  contact: string;
  amountMm: number | string;
  stage: number | string;
}

const asNumber = (value: number | string) => (value === '' ? Number.NaN : Number(value));
const typedCount = (value: number | string) => (Number.isInteger(asNumber(value)) ? asNumber(value) : undefined);

/**
 * Staff upload a plan version: stage counts, IPR per contact, attachment teeth, notes, and
 * the stage models (STL files named by arch and stage, or one ZIP of them) dropped or picked,
 * whose stages are listed per arch from their names before anything is sent.
 * The summary is checked here with the contract's schema; the server checks it again,
 * together with the file names, contents and stage coverage, and its messages show here.
 */
export function UploadPlanForm({ caseId, onDone }: { caseId: number; onDone: () => void }) {
  const upload = useUploadPlan(caseId);
  const [upperStages, setUpperStages] = useState<number | string>('');
  const [lowerStages, setLowerStages] = useState<number | string>('');
  const [ipr, setIpr] = useState<IprRow[]>([]);
  const [teeth, setTeeth] = useState('');
  const [notes, setNotes] = useState('');
  const [files, setFiles] = useState<File[]>([]);
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
    });
    const found: Record<string, string> = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) found[issue.path.join('.') || 'summary'] ??= issue.message;
    }
    if (attachments === undefined) {
      found.attachmentTeeth =
        'Attachment teeth must be FDI tooth numbers, each with :stage if placed later, e.g. 13, 23:5';
    }
    if (files.length === 0) found.stages = 'Add the stage models: STL files or one ZIP of them';
    setErrors(found);
    if (!parsed.success || Object.keys(found).length > 0) return;
    upload.mutateAsync(toPlanFormData(parsed.data as PlanSummary, files)).then(
      (answer) => {
        notifySuccess(answer.message);
        onDone();
      },
      (error: unknown) => {
        notifyError(errorMessage(error, 'The plan could not be uploaded'));
        if (error instanceof ApiError) setErrors(error.fieldErrors);
      },
    );
  };

  const fieldError = (prefix: string) =>
    Object.entries(errors).find(([key]) => key === prefix || key.startsWith(`${prefix}.`))?.[1];

  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-label="Upload a plan version" noValidate>
      <Stack gap="sm">
        <Group grow align="flex-start">
          <NumberInput
            label="Upper stages"
            description="Aligners for the upper arch (0 for none)"
            min={0}
            max={99}
            allowDecimal={false}
            value={upperStages}
            onChange={setUpperStages}
            error={errors.upperStages}
          />
          <NumberInput
            label="Lower stages"
            description="Aligners for the lower arch (0 for none)"
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
            IPR per contact
          </Text>
          {ipr.map((row, index) => {
            const set = (patch: Partial<IprRow>) =>
              setIpr((rows) => rows.map((current, at) => (at === index ? { ...current, ...patch } : current)));
            return (
              <Group key={index} align="flex-start" wrap="wrap" gap="xs">
                <TextInput
                  label={`Contact ${index + 1}`}
                  placeholder="11-21"
                  value={row.contact}
                  onChange={(event) => set({ contact: event.currentTarget.value })}
                  error={errors[`ipr.${index}.contact`]}
                />
                <NumberInput
                  label={`Amount (mm) ${index + 1}`}
                  min={0.1}
                  max={1}
                  step={0.1}
                  decimalScale={2}
                  value={row.amountMm}
                  onChange={(value) => set({ amountMm: value })}
                  error={errors[`ipr.${index}.amountMm`]}
                />
                <NumberInput
                  label={`At stage ${index + 1}`}
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
                  aria-label={`Remove IPR contact ${index + 1}`}
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
            Add IPR contact
          </Button>
        </Stack>
        <TextInput
          label="Attachment teeth"
          description="FDI numbers, separated by commas; add :stage for one placed after stage 0 (e.g. 13, 23:5)"
          value={teeth}
          onChange={(event) => setTeeth(event.currentTarget.value)}
          error={fieldError('attachmentTeeth') ?? fieldError('attachmentStages')}
        />
        <Textarea
          label="Notes"
          autosize
          minRows={2}
          maxLength={5000}
          value={notes}
          onChange={(event) => setNotes(event.currentTarget.value)}
          error={errors.notes ?? errors.summary}
        />
        <div>
          <Dropzone
            onDrop={(dropped) => {
              setFiles(dropped);
              setErrors((current) => ({ ...current, stages: '' }));
            }}
            accept={{ 'model/stl': ['.stl'], 'application/zip': ['.zip'] }}
            multiple
            aria-label="Stage models: STL files or one ZIP"
            p="md"
          >
            <Group justify="center" gap="sm" mih={60} style={{ pointerEvents: 'none' }}>
              <IconUpload size={28} aria-hidden />
              <div>
                <Text size="sm" fw={500}>
                  Drop the stage models here, or click to pick them
                </Text>
                <Text size="xs" c="dimmed">
                  STL files named by arch and stage (upper_03.stl, Mandibular Stage 05.stl), or one ZIP of them; stage 0
                  is the initial position
                </Text>
              </div>
            </Group>
          </Dropzone>
          {files.length > 0 && (
            <StageFilesList files={files} counts={{ upper: typedCount(upperStages), lower: typedCount(lowerStages) }} />
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
            Cancel
          </Button>
          <Button type="submit" loading={upload.isPending}>
            Upload version
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
