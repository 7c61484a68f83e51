import '@mantine/dates/styles.css';
import { Button, Group, Paper, Stepper, Text, useMatches } from '@mantine/core';
import { schemaResolver, type FormErrors } from '@mantine/form';
import { caseFileMessages, caseForm, caseFormSteps, caseSubmission } from '@portal/contract';
import { IconArrowLeft, IconArrowRight, IconExclamationMark, IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { PageTitle } from '../../../../components/page-title.tsx';
import { paths } from '../../../../config/paths.ts';
import { ApiError } from '../../../../lib/api-client.ts';
import { errorMessage, notifyError, notifySuccess } from '../../../../lib/notify.ts';
import { isDoctor, useSession, type Session } from '../../../../lib/session.ts';
import { toCaseFormData, useAddCase } from '../../api/add-case.ts';
import {
  CaseFormProvider,
  caseFileParts,
  firstStepWithError,
  initialCaseFormValues,
  stepOfField,
  submissionInput,
  useCaseForm,
} from './case-form-values.ts';
import { CaseDetailsStep } from './case-details-step.tsx';
import { PatientRecordsStep } from './patient-records-step.tsx';
import { TreatmentInstructionsStep } from './treatment-instructions-step.tsx';

const stepContents = [CaseDetailsStep, TreatmentInstructionsStep, PatientRecordsStep];
const steps = caseFormSteps.map((step, index) => ({ label: step.label, Content: stepContents[index]! }));
const lastStep = steps.length - 1;

/** The three-step case form (docs/spec.md section 2): doctors submit for themselves, staff for a doctor they pick. */
/**
 * `onSubmitted`: where a saved case leads (the route sends those who may read it to its
 * page); without it the form empties for the next case, as the spec's /cases does.
 */
export function CaseForm({ onSubmitted }: { onSubmitted?: (created: { CaseId: number; TrackingNo: string }) => void }) {
  const session = useSession() as Session;
  const navigate = useNavigate();
  const addCase = useAddCase();
  const [active, setActive] = useState(0);
  const orientation = useMatches<'vertical' | 'horizontal'>({ base: 'vertical', sm: 'horizontal' });
  const form = useCaseForm({
    mode: 'controlled',
    initialValues: initialCaseFormValues(isDoctor(session) ? session.userId : null),
    validate: schemaResolver(caseForm, { sync: true }),
    validateInputOnChange: true,
  });

  const goTo = (step: number) => {
    setActive(Math.min(lastStep, Math.max(0, step)));
    window.scrollTo({ top: 0 });
  };

  const showFirstError = (errors: FormErrors) => {
    const step = firstStepWithError(errors);
    if (step !== null) goTo(step);
  };

  const submit = form.onSubmit(
    async (values) => {
      try {
        const submission = caseSubmission.parse(submissionInput(values));
        const answer = await addCase(toCaseFormData(submission, caseFileParts(values)));
        notifySuccess(`${answer.message || 'Saved successfully'} (${answer.TrackingNo})`);
        if (onSubmitted) {
          onSubmitted(answer);
          return;
        }
        form.reset();
        goTo(0);
        void navigate(paths.cases);
      } catch (error) {
        notifyError(errorMessage(error, 'Something went wrong...'));
        if (error instanceof ApiError) {
          form.setErrors(error.fieldErrors);
          showFirstError(error.fieldErrors);
        }
      }
    },
    (errors) => {
      showFirstError(errors);
      if (errors.maxillaryScan) notifyError(caseFileMessages.maxillaryScanRequired);
    },
  );

  const hasErrorOnStep = (step: number) =>
    Object.entries(form.errors).some(([field, message]) => message && stepOfField(field) === step);

  return (
    <>
      <PageTitle title="Add Case" />
      <CaseFormProvider form={form}>
        <Paper component="form" onSubmit={submit} noValidate withBorder p={{ base: 'sm', sm: 'lg' }}>
          <Stepper active={active} onStepClick={goTo} size="sm" mb="lg" orientation={orientation}>
            {steps.map(({ label, Content }, step) => {
              const hasError = hasErrorOnStep(step);
              return (
                <Stepper.Step
                  key={label}
                  label={label}
                  color={hasError ? 'red' : undefined}
                  completedIcon={hasError ? <IconExclamationMark size={18} aria-hidden /> : undefined}
                  description={
                    hasError && (
                      <Text span size="xs" c="red.9">
                        Needs attention
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
              Previous
            </Button>
            <Group gap="sm">
              {active < lastStep && (
                <Button
                  variant="light"
                  rightSection={<IconArrowRight size={16} aria-hidden />}
                  onClick={() => goTo(active + 1)}
                >
                  Next
                </Button>
              )}
              <Button type="submit" leftSection={<IconSend size={16} aria-hidden />}>
                Submit
              </Button>
            </Group>
          </Group>
        </Paper>
      </CaseFormProvider>
    </>
  );
}
