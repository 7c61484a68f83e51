import '@mantine/dates/styles.css';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Button, Group, List, Modal, Paper, Stepper, Text, useMatches } from '@mantine/core';
import type { FormErrors } from '@mantine/form';
import {
  caseFileMessages,
  caseForm,
  caseFormSteps,
  caseSubmission,
  type CaseDraft,
  type CaseOrderType,
  type CaseRow,
} from '@portal/contract';
import {
  IconArrowLeft,
  IconArrowRight,
  IconCheck,
  IconExclamationMark,
  IconGitBranch,
  IconSend,
  IconUpload,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { PageTitle } from '../../../../components/page-title.tsx';
import { casePath, paths } from '../../../../config/paths.ts';
import { ApiError } from '../../../../lib/api-client.ts';
import { formatSize } from '../../../../lib/format-size.ts';
import { localizedResolver } from '../../../../lib/localized-resolver.ts';
import { errorMessage, notifyError, notifySuccess } from '../../../../lib/notify.ts';
import { serverFieldErrors, serverText } from '../../../../lib/server-text.ts';
import { isAssistant, isDoctor, useSession, type Session } from '../../../../lib/session.ts';
import { toCaseFormData, useAddCase, type CaseFilePart } from '../../api/add-case.ts';
import { useCaseDraft } from '../../api/case-drafts.ts';
import { useDoctorPreferences } from '../../api/doctor-preferences.ts';
import { useServedDoctors } from '../../api/get-served-doctors.ts';
import { caseDraftKeys } from '../../api/query-keys.ts';
import {
  CaseFormProvider,
  caseFileParts,
  firstStepWithError,
  initialCaseFormValues,
  orderFormValues,
  type OrderFromScan,
  stepOfField,
  submissionInput,
  useCaseForm,
  type CaseFormValues,
} from './case-form-values.ts';
import { CaseDetailsStep } from './case-details-step.tsx';
import { FileUploadsProvider, useFileUploads } from './file-uploads.tsx';
import { PatientRecordsStep } from './patient-records-step.tsx';
import { TreatmentInstructionsStep } from './treatment-instructions-step.tsx';
import { restoredCaseFormValues, unfinishedUploads } from './case-draft-values.ts';
import { saveStateLabels, useCaseDraftAutosave } from './use-case-draft.ts';

const stepContents = [CaseDetailsStep, TreatmentInstructionsStep, PatientRecordsStep];
const steps = caseFormSteps.map((step, index) => ({ label: step.label, Content: stepContents[index]! }));
const lastStep = steps.length - 1;
const validateCaseForm = localizedResolver(caseForm);

const hasErrorOn = (errors: FormErrors, step: number) =>
  Object.entries(errors).some(([field, message]) => message && stepOfField(field) === step);
const errorsOnStep = (errors: FormErrors, step: number): FormErrors =>
  Object.fromEntries(Object.entries(errors).filter(([field, message]) => message && stepOfField(field) === step));

type Submitted = (created: { CaseId: number; TrackingNo: string }) => void;

/** An order from an earlier case: the form starts as that case, without its files. */
export interface CaseOrderStart {
  parent: CaseRow;
  orderType: CaseOrderType;
  /** A refinement from a progress scan of the parent: its off-track teeth and its files as the scans. */
  fromScan?: OrderFromScan & { label: string };
}

/**
 * The three-step case form (docs/spec.md section 2): doctors submit for themselves, staff for a doctor they pick,
 * an assistant for their one doctor or one of theirs they pick (docs/decisions/assistants.md § Assistants).
 * `onSubmitted`: where a saved case leads (the route sends those who may read it to its
 * page); without it the form empties for the next case, as the spec's /cases does.
 * `order`: a refinement, retainer or replacement of an earlier case, prefilled from it (not
 * kept as a draft). `draftId`: the draft to open; the form saves itself as a draft as it is
 * filled in and tells `onDraftCreated` the id of a new one (docs/decisions/case-form.md § Drafts).
 */
export function CaseForm({
  onSubmitted,
  order,
  draftId = null,
  onDraftCreated = () => {},
}: {
  onSubmitted?: Submitted;
  order?: CaseOrderStart;
  draftId?: number | null;
  onDraftCreated?: (draftId: number) => void;
}) {
  const { t } = useLingui();
  const session = useSession() as Session;
  const defaults = useDoctorPreferences({ enabled: isDoctor(session) });
  const draft = useCaseDraft(draftId);
  const served = useServedDoctors({ enabled: isAssistant(session) });
  // A doctor's form starts from their saved defaults; without them (not loaded) from the table's.
  if (
    (isDoctor(session) && defaults.isPending) ||
    (isAssistant(session) && served.isPending) ||
    (draftId !== null && draft.isPending)
  )
    return (
      <Text c="dimmed">
        <Trans>Loading...</Trans>
      </Text>
    );
  if (isAssistant(session) && served.data?.length === 0) {
    return (
      <>
        <PageTitle title={t`Add Case`} />
        <Alert color="yellow" title={t`No doctor to submit for`} role="alert">
          <Trans>
            You do not work for any doctor at the moment. A doctor who invites you as their assistant makes their cases
            yours to add.
          </Trans>
        </Alert>
      </>
    );
  }
  // A draft gone (submitted or deleted in another tab) opens a fresh form.
  const opened = draft.data;
  // An assistant of one doctor submits for them without a choice; of several, they pick as staff do.
  const onlyDoctor = served.data?.length === 1 ? served.data[0]!.userId : null;
  const doctorId = isDoctor(session) ? session.userId : isAssistant(session) ? onlyDoctor : null;
  return (
    <FileUploadsProvider>
      <CaseFormSteps
        initialValues={
          order
            ? orderFormValues(initialCaseFormValues(doctorId), order.parent, order.orderType, order.fromScan)
            : restoredCaseFormValues(doctorId, defaults.data ?? {}, opened)
        }
        draftId={order ? null : (opened?.draftId ?? null)}
        initialStep={order ? 0 : (opened?.step ?? 0)}
        unfinished={order ? [] : unfinishedUploads(opened)}
        onSubmitted={onSubmitted}
        onDraftCreated={onDraftCreated}
        order={order}
      />
    </FileUploadsProvider>
  );
}

function OrderNotice({ parent, orderType, fromScan }: CaseOrderStart) {
  const { t } = useLingui();
  const order = serverText(orderType);
  const trackingNo = parent.TrackingNo;
  const scanLabel = fromScan?.label;
  const parentLink = (
    <Anchor component={Link} to={casePath(parent.CaseId)} c="inherit" underline="always" fw={600}>
      {trackingNo}
    </Anchor>
  );
  return (
    <Alert variant="light" icon={<IconGitBranch size={18} aria-hidden />} title={t`New ${order}`} mb="md">
      {fromScan ? (
        <Trans>
          {order} of {parentLink}: the patient and the prescription are copied from it, the off-track teeth are in the
          special instructions, and the {scanLabel} is sent as its scans; add photos if you wish.
        </Trans>
      ) : (
        <Trans>
          {order} of {parentLink}: the patient and the prescription are copied from it; add the new scans and photos.
        </Trans>
      )}
    </Alert>
  );
}

/** A draft's uploads that had not finished: each resumes when its file is chosen again. */
function UnfinishedUploadsNotice({ uploads }: { uploads: CaseDraft['uploads'] }) {
  const { t } = useLingui();
  const [isShown, setShown] = useState(uploads.length > 0);
  if (!isShown) return null;
  return (
    <Alert
      variant="light"
      color="yellow"
      icon={<IconUpload size={18} aria-hidden />}
      title={t`Some files had not finished uploading`}
      withCloseButton
      closeButtonLabel={t`Dismiss`}
      onClose={() => setShown(false)}
      mb="md"
    >
      <Text size="sm">
        <Plural
          value={uploads.length}
          one="Choose this file again on the Patients's Records step; the upload continues where it stopped:"
          other="Choose these files again on the Patients's Records step; the upload continues where it stopped:"
        />
      </Text>
      <List size="sm" mt={4}>
        {uploads.map((upload) => (
          <List.Item key={upload.uploadId}>
            {upload.fileName} ({formatSize(upload.size)})
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

function CaseFormSteps({
  initialValues,
  draftId,
  initialStep,
  unfinished,
  onSubmitted,
  onDraftCreated,
  order,
}: {
  initialValues: CaseFormValues;
  draftId: number | null;
  initialStep: number;
  unfinished: CaseDraft['uploads'];
  onSubmitted?: Submitted;
  onDraftCreated: (draftId: number) => void;
  order?: CaseOrderStart;
}) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const addCase = useAddCase();
  const queryClient = useQueryClient();
  const uploads = useFileUploads();
  const [isWaiting, setWaiting] = useState(false);

  /** Waits for the files still uploading; finished ones are named, the rest (failed, cancelled) go as bytes. */
  const uploadedParts = async (parts: CaseFilePart[]) => {
    const named: Record<string, string | string[]> = {};
    const sent: CaseFilePart[] = [];
    for (const part of parts) {
      const uploadId = await uploads.get(part.file)?.finished;
      if (!uploadId) sent.push(part);
      else if (part.field === 'otherFiles') named.otherFiles = [...((named.otherFiles as string[]) ?? []), uploadId];
      else named[part.field] = uploadId;
    }
    return { named: Object.keys(named).length > 0 ? JSON.stringify(named) : undefined, sent };
  };
  const [active, setActive] = useState(initialStep);
  // Steps whose Next (or a Submit) found them valid: only these get the tick.
  const [validSteps, setValidSteps] = useState<ReadonlySet<number>>(new Set());
  // The furthest step the doctor has opened: a step's toast waits until they have been there.
  const [reached, setReached] = useState(initialStep);
  const orientation = useMatches<'vertical' | 'horizontal'>({ base: 'vertical', sm: 'horizontal' });
  const form = useCaseForm({
    mode: 'controlled',
    initialValues,
    validate: validateCaseForm,
    validateInputOnChange: true,
  });
  const autosave = useCaseDraftAutosave({
    values: form.values,
    step: active,
    draftId,
    onCreated: onDraftCreated,
    uploadIdOf: uploads.idOf,
    uploadsVersion: uploads.version,
    enabled: !order,
  });

  const goTo = (step: number) => {
    const shown = Math.min(lastStep, Math.max(0, step));
    setActive(shown);
    setReached((furthest) => Math.max(furthest, shown));
    window.scrollTo({ top: 0 });
  };

  const showFirstError = (errors: FormErrors) => {
    const step = firstStepWithError(errors);
    setValidSteps(new Set(steps.map((_, index) => index).filter((index) => !hasErrorOn(errors, index))));
    if (step !== null) goTo(step);
    return step;
  };

  /** Next checks the fields of this step only: its errors are shown and it stays, or it is ticked and the next opens. */
  const next = () => {
    const stepErrors = errorsOnStep(validateCaseForm(form.getValues()), active);
    const otherErrors = Object.fromEntries(
      Object.entries(form.errors).filter(([field]) => stepOfField(field) !== active),
    );
    form.setErrors({ ...otherErrors, ...stepErrors });
    const isValid = Object.keys(stepErrors).length === 0;
    setValidSteps((valid) => {
      const updated = new Set(valid);
      if (isValid) updated.add(active);
      else updated.delete(active);
      return updated;
    });
    if (isValid) goTo(active + 1);
  };

  const submit = form.onSubmit(
    async (values) => {
      // No save may run into the submission: the case takes the draft's place.
      autosave.saver.stop();
      try {
        setWaiting(true);
        const files = await uploadedParts(caseFileParts(values));
        const draftId = autosave.saver.draftId() ?? undefined;
        const submission = caseSubmission.parse({ ...submissionInput(values), uploads: files.named, draftId });
        const answer = await addCase(toCaseFormData(submission, files.sent));
        void queryClient.invalidateQueries({ queryKey: caseDraftKeys.all });
        const saved = answer.message ? serverText(answer.message) : t`Saved successfully`;
        notifySuccess(`${saved} (${answer.TrackingNo})`);
        if (onSubmitted) {
          onSubmitted(answer);
          return;
        }
        form.reset();
        setValidSteps(new Set());
        setReached(0);
        goTo(0);
        void navigate(paths.cases);
      } catch (error) {
        autosave.saver.resume();
        notifyError(errorMessage(error, t`Something went wrong...`));
        if (error instanceof ApiError) {
          const fieldErrors = serverFieldErrors(error);
          form.setErrors(fieldErrors);
          showFirstError(fieldErrors);
        }
      } finally {
        setWaiting(false);
      }
    },
    (errors) => {
      const shown = showFirstError(errors) ?? 0;
      if (errors.maxillaryScan && Math.max(reached, shown) >= stepOfField('maxillaryScan'))
        notifyError(serverText(caseFileMessages.maxillaryScanRequired));
    },
  );

  const hasErrorOnStep = (step: number) => hasErrorOn(form.errors, step);
  const saveState = saveStateLabels[autosave.state];

  // Enter in a field would submit the whole form and check steps not seen yet: before the last
  // step it is Next. A select's Enter that picks an option is already prevented by Mantine; a
  // modal's input (the tooth picker) is portaled out of the form and submits nothing.
  const enterAsNext = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key !== 'Enter' || event.defaultPrevented || event.nativeEvent.isComposing) return;
    const isFormField = event.target instanceof HTMLInputElement && event.target.form === event.currentTarget;
    if (!isFormField || active === lastStep) return;
    event.preventDefault();
    next();
  };

  return (
    <>
      <PageTitle title={t`Add Case`} />
      {order && <OrderNotice {...order} />}
      <UnfinishedUploadsNotice uploads={unfinished} />
      {!order && (
        <Text size="sm" c={autosave.state === 'failed' ? 'red.9' : 'dimmed'} ta="right" mb="xs" aria-live="polite">
          {saveState && i18n._(saveState)}
        </Text>
      )}
      <Modal
        opened={autosave.blocker.state === 'blocked'}
        onClose={() => autosave.blocker.reset?.()}
        title={t`Leave the case form?`}
      >
        <Text size="sm">
          <Trans>Your latest changes are not saved yet. If you leave now they may be lost.</Trans>
        </Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => autosave.blocker.reset?.()}>
            <Trans>Stay</Trans>
          </Button>
          <Button color="red" onClick={() => autosave.blocker.proceed?.()}>
            <Trans>Leave</Trans>
          </Button>
        </Group>
      </Modal>
      <CaseFormProvider form={form}>
        <Paper
          component="form"
          onSubmit={submit}
          onKeyDown={enterAsNext}
          noValidate
          withBorder
          p={{ base: 'sm', sm: 'lg' }}
        >
          <Stepper active={active} onStepClick={goTo} size="sm" mb="lg" orientation={orientation}>
            {steps.map(({ label, Content }, step) => {
              const hasError = hasErrorOnStep(step);
              const isTicked = validSteps.has(step) && !hasError;
              return (
                <Stepper.Step
                  key={label}
                  label={serverText(label)}
                  color={hasError ? 'red' : isTicked ? undefined : 'gray'}
                  completedIcon={
                    hasError ? (
                      <IconExclamationMark size={18} aria-hidden />
                    ) : isTicked ? (
                      <IconCheck size={18} role="img" aria-label={t`Complete`} />
                    ) : (
                      step + 1
                    )
                  }
                  description={
                    hasError && (
                      <Text span size="xs" c="red.9">
                        <Trans>Needs attention</Trans>
                      </Text>
                    )
                  }
                >
                  <Content />
                </Stepper.Step>
              );
            })}
          </Stepper>
          <Group justify="space-between" mt="xl">
            <Button
              variant="default"
              leftSection={<IconArrowLeft size={16} aria-hidden />}
              disabled={active === 0}
              onClick={() => goTo(active - 1)}
            >
              <Trans>Previous</Trans>
            </Button>
            <Group gap="sm">
              {active < lastStep && (
                <Button variant="light" rightSection={<IconArrowRight size={16} aria-hidden />} onClick={next}>
                  <Trans>Next</Trans>
                </Button>
              )}
              <Button type="submit" loading={isWaiting} leftSection={<IconSend size={16} aria-hidden />}>
                <Trans>Submit</Trans>
              </Button>
            </Group>
          </Group>
        </Paper>
      </CaseFormProvider>
    </>
  );
}
