import { Trans } from '@lingui/react/macro';
import { Button, Group, Stack } from '@mantine/core';
import { type FormEvent, useRef } from 'react';
import { useForm, type FormErrors } from '@mantine/form';
import { clinicListMessage, clinicNotAddedMessage, doctorForm, type Clinic, type Doctor } from '@portal/contract';
import { isSupportedLocale } from '@portal/contract/locales';
import { ApiError } from '../../../lib/api-client.ts';
import { i18n } from '../../../lib/i18n.ts';
import { localizedResolver } from '../../../lib/localized-resolver.ts';
import { serverText } from '../../../lib/server-text.ts';
import { isAdministrator, useSession } from '../../../lib/session.ts';
import { errorMessage, fallbackMessages, notifyError, toastMs } from '../../../lib/notify.ts';
import { useAddDoctor } from '../api/add-doctor.ts';
import { useEditDoctor } from '../api/edit-doctor.ts';
import { ClinicInformationSection, useClinicDraft } from './clinic-information-section.tsx';
import {
  initialDoctorValues,
  toDoctorFormData,
  type DoctorFormMode,
  type DoctorFormValues,
} from './doctor-form-values.ts';
import { LoginInformationSection } from './login-information-section.tsx';
import { PersonalInformationSection } from './personal-information-section.tsx';

const toastFor = { register: toastMs.registration, profile: toastMs.profile, staff: toastMs.default } as const;

/** Server messages about one clinic ('clinicList.0.cityId') show under the clinic table. */
function toFormErrors(fieldErrors: Record<string, string>): FormErrors {
  const errors: FormErrors = {};
  for (const [key, message] of Object.entries(fieldErrors)) {
    errors[key.startsWith('clinicList.') ? 'clinicList' : key] ??= serverText(message);
  }
  return errors;
}

/**
 * The one doctor form behind Register, the Doctors screen and Profile. It validates with
 * the contract's doctorForm on every change and on submit, sends the multipart body, and
 * hands the server's message to `onSaved`.
 */
export function DoctorForm({
  mode,
  doctor,
  clinics,
  onSaved,
  onCancel,
}: {
  mode: DoctorFormMode;
  doctor?: Doctor;
  clinics?: Clinic[];
  onSaved: (message: string, change: { hasNewPassword: boolean }) => void | Promise<void>;
  onCancel: () => void;
}) {
  const addDoctor = useAddDoctor();
  const editDoctor = useEditDoctor();
  const session = useSession();
  // Only the administrator sets another's password or e-mail (the server refuses the rest).
  const areCredentialsLocked = mode === 'staff' && doctor !== undefined && !(session && isAdministrator(session));
  const toast = toastFor[mode];
  const form = useForm<DoctorFormValues>({
    mode: 'controlled',
    initialValues: initialDoctorValues(mode, doctor, clinics),
    validate: localizedResolver(doctorForm),
    validateInputOnChange: true,
  });

  const save = async (values: DoctorFormValues) => {
    const body = toDoctorFormData(values, doctor === undefined);
    // A doctor registering keeps the language they read the form in (the picker, or their browser's).
    if (mode === 'register' && isSupportedLocale(i18n.locale)) body.append('locale', i18n.locale);
    try {
      const answer = doctor
        ? await editDoctor.mutateAsync({ doctorId: doctor.DoctorId, form: body })
        : await addDoctor.mutateAsync(body);
      await onSaved(serverText(answer.message), { hasNewPassword: values.password !== '' });
    } catch (error) {
      if (error instanceof ApiError) form.setErrors(toFormErrors(error.fieldErrors));
      notifyError(errorMessage(error, fallbackMessages.saveFailed), toast);
    }
  };

  const clinicDraft = useClinicDraft(form.values.countryId);
  const formRef = useRef<HTMLFormElement>(null);

  /** Submit with errors: the first invalid field (in the form's order) is focused and scrolled to. */
  const showFirstError = () =>
    requestAnimationFrame(() => {
      const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-clinic-list-error]');
      first?.scrollIntoView({ block: 'center' });
      first?.focus({ preventScroll: true });
    });

  // A clinic typed but not added is added on Submit; one that is not valid stops the submit.
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (clinicDraft.isFilled()) {
      const clinic = clinicDraft.take();
      if (!clinic) {
        form.validate();
        notifyError(serverText(clinicNotAddedMessage), toast);
        showFirstError();
        return;
      }
      form.setFieldValue('clinicList', [...form.getValues().clinicList, clinic]);
    }
    form.onSubmit(save, (errors) => {
      if (errors.clinicList) notifyError(serverText(clinicListMessage), toast);
      showFirstError();
    })(event);
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate>
      <Stack>
        <PersonalInformationSection
          form={form}
          storedPicture={doctor?.ProfilePic ?? null}
          isEmailLocked={areCredentialsLocked}
        />
        <ClinicInformationSection
          clinics={form.values.clinicList}
          clinicDraft={clinicDraft}
          error={typeof form.errors.clinicList === 'string' ? form.errors.clinicList : undefined}
          onChange={(clinicList) => form.setFieldValue('clinicList', clinicList)}
        />
        <LoginInformationSection
          form={form}
          mode={mode}
          isEditing={doctor !== undefined}
          resetLinkFor={areCredentialsLocked ? doctor?.DoctorId : undefined}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" loading={addDoctor.isPending || editDoctor.isPending}>
            <Trans>Submit</Trans>
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
