import { Fieldset, Select, SimpleGrid, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { genderOptions } from '@portal/contract';
import type { DoctorFormValues } from './doctor-form-values.ts';
import { CountrySelect } from './location-selects.tsx';
import { ProfilePictureInput } from '../../../components/profile-picture-input.tsx';

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
  return (
    <Fieldset legend="Personal Information">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="First Name" withAsterisk autoComplete="given-name" {...form.getInputProps('firstname')} />
        <TextInput label="Last Name" withAsterisk autoComplete="family-name" {...form.getInputProps('lastname')} />
        <TextInput
          label="Email"
          type="email"
          withAsterisk
          autoComplete="email"
          disabled={isEmailLocked}
          description={isEmailLocked ? "Only the administrator can change a doctor's e-mail address" : undefined}
          {...form.getInputProps('email')}
        />
        <TextInput label="Mobile No" type="tel" autoComplete="tel" {...form.getInputProps('mobileNo')} />
        <CountrySelect
          label="Location"
          placeholder="Search a country"
          withAsterisk
          {...form.getInputProps('countryId')}
        />
        <Select
          label="Gender"
          placeholder="Choose"
          withAsterisk
          data={genderOptions}
          {...form.getInputProps('gender')}
        />
        <TextInput label="Profession" {...form.getInputProps('profession')} />
        <TextInput label="Professional Specialization" {...form.getInputProps('professionSpecialization')} />
        <TextInput label="Academic Title" {...form.getInputProps('academicTitle')} />
      </SimpleGrid>
      <Textarea label="Description" mt="sm" autosize minRows={3} {...form.getInputProps('description')} />
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
