import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Fieldset, Select, SimpleGrid, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { genderOptions } from '@portal/contract';
import type { DoctorFormValues } from './doctor-form-values.ts';
import { CountrySelect } from './location-selects.tsx';
import { ProfilePictureInput } from '../../../components/profile-picture-input.tsx';

/** The words of the gender select; its values go to the server as they are. */
const genderLabels = { Male: msg`Male`, Female: msg`Female`, Other: msg`Other` } as const;

/** Personal Information: name, contact, Location, gender, profession and the picture. */
export function PersonalInformationSection({
  form,
  storedPicture,
  isEmailLocked = false,
}: {
  form: UseFormReturnType<DoctorFormValues>;
  storedPicture: string | null;
  isEmailLocked?: boolean;
}) {
  const { t, i18n } = useLingui();
  return (
    <Fieldset legend={t`Personal Information`}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label={t`First Name`} withAsterisk autoComplete="given-name" {...form.getInputProps('firstname')} />
        <TextInput label={t`Last Name`} withAsterisk autoComplete="family-name" {...form.getInputProps('lastname')} />
        <TextInput
          label={t`Email`}
          type="email"
          withAsterisk
          autoComplete="email"
          disabled={isEmailLocked}
          description={isEmailLocked ? t`Only the administrator can change a doctor's e-mail address` : undefined}
          {...form.getInputProps('email')}
        />
        <TextInput label={t`Mobile No`} type="tel" autoComplete="tel" {...form.getInputProps('mobileNo')} />
        <CountrySelect
          label={t`Location`}
          placeholder={t`Search a country`}
          withAsterisk
          {...form.getInputProps('countryId')}
        />
        <Select
          label={t`Gender`}
          placeholder={t`Choose`}
          withAsterisk
          data={genderOptions.map((value) => ({ value, label: i18n._(genderLabels[value]) }))}
          {...form.getInputProps('gender')}
        />
        <TextInput label={t`Profession`} {...form.getInputProps('profession')} />
        <TextInput label={t`Professional Specialization`} {...form.getInputProps('professionSpecialization')} />
        <TextInput label={t`Academic Title`} {...form.getInputProps('academicTitle')} />
      </SimpleGrid>
      <Textarea label={t`Description`} mt="sm" autosize minRows={3} {...form.getInputProps('description')} />
      <SimpleGrid cols={{ base: 1, sm: 2 }} mt="sm">
        <ProfilePictureInput
          value={form.values.profilePic}
          storedPicture={storedPicture}
          isStoredRemoved={form.values.removeProfilePic}
          onChange={(file) => form.setFieldValue('profilePic', file)}
          onRemove={() => form.setFieldValue('removeProfilePic', storedPicture !== null)}
        />
      </SimpleGrid>
    </Fieldset>
  );
}
