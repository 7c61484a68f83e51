import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Fieldset, Group, SimpleGrid, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { clinicEntry } from '@portal/contract';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { confirmDelete } from '../../../components/confirm-delete.tsx';
import { localizedResolver } from '../../../lib/localized-resolver.ts';
import type { ClinicRow } from './doctor-form-values.ts';
import { CityName, CitySelect, CountrySelect } from './location-selects.tsx';

interface ClinicDraft {
  clinicName: string;
  countryId: string | null;
  cityId: string | null;
  contactNo: string;
  address: string;
}

const emptyDraft: ClinicDraft = { clinicName: '', countryId: null, cityId: null, contactNo: '', address: '' };

const hasText = (value: string) => value.trim() !== '';

// Only typed texts may break mid-word, so that a long one fits 375 px: set on the whole table,
// it let the browser narrow every column as if any word could break ("Cit y", "Ber lin"). The
// name's column takes what the Delete button leaves: only a word wider than that breaks.
const typedText = { overflowWrap: 'anywhere' } as const;

/**
 * The clinic being typed in Clinic Information, before Add Clinic. Its country starts as the
 * doctor's country and follows it until the person picks another one.
 */
export function useClinicDraft(doctorCountryId: string | null) {
  const draft = useForm<ClinicDraft>({
    mode: 'controlled',
    initialValues: { ...emptyDraft, countryId: doctorCountryId },
    validate: localizedResolver(clinicEntry),
    validateInputOnChange: true,
  });
  const [followedCountryId, setFollowedCountryId] = useState(doctorCountryId);
  // Adjusted while rendering, as React advises: the draft's country follows the doctor's while untouched.
  if (followedCountryId !== doctorCountryId) {
    setFollowedCountryId(doctorCountryId);
    if (draft.values.countryId === followedCountryId && draft.values.cityId === null) {
      draft.setValues({ countryId: doctorCountryId });
    }
  }

  /** Whether the person typed or chose anything of a clinic (the preset country aside). */
  const isFilled = () => {
    const { clinicName, cityId, contactNo, address } = draft.getValues();
    return hasText(clinicName) || cityId !== null || hasText(contactNo) || hasText(address);
  };

  /** The draft as a clinic row, or null (with its errors shown) when it is not valid. */
  const take = (): ClinicRow | null => {
    if (draft.validate().hasErrors) return null;
    const { clinicName, contactNo, address, countryId, cityId } = draft.getValues();
    draft.setValues({ ...emptyDraft, countryId: doctorCountryId });
    draft.clearErrors();
    return {
      clinicId: 0,
      countryId: Number(countryId),
      cityId: Number(cityId),
      clinicName: clinicName.trim(),
      contactNo: contactNo.trim(),
      address: address.trim(),
    };
  };

  return { form: draft, isFilled, take };
}
export type ClinicDraftForm = ReturnType<typeof useClinicDraft>;

/**
 * Clinic Information: a small form whose 'Add Clinic' puts the clinic in the table below,
 * and the table, where each clinic can be deleted. `error` is the form's clinic-list error.
 * On a phone the table keeps Clinic Name, City and Action, with contact and address under the name.
 */
export function ClinicInformationSection({
  clinics,
  clinicDraft,
  error,
  onChange,
}: {
  clinics: ClinicRow[];
  clinicDraft: ClinicDraftForm;
  error?: string;
  onChange: (clinics: ClinicRow[]) => void;
}) {
  const { t } = useLingui();
  const draft = clinicDraft.form;
  const countryId = draft.values.countryId === null ? null : Number(draft.values.countryId);

  const deleteLabel = (clinicName: string) => t`Delete ${clinicName}`;

  const addClinic = () => {
    const clinic = clinicDraft.take();
    if (clinic) onChange([...clinics, clinic]);
  };

  const deleteClinic = async (index: number, name: string) => {
    if (await confirmDelete(t`Clinic ''${name}''`)) onChange(clinics.filter((_, position) => position !== index));
  };

  return (
    <Fieldset legend={t`Clinic Information`}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label={t`Clinic Name`} withAsterisk {...draft.getInputProps('clinicName')} />
        <TextInput label={t`Contact No`} {...draft.getInputProps('contactNo')} />
        <CountrySelect
          label={t`Country`}
          placeholder={t`Search a country`}
          value={draft.values.countryId}
          onChange={(value) => draft.setValues({ countryId: value, cityId: null })}
        />
        <CitySelect label={t`City`} withAsterisk countryId={countryId} {...draft.getInputProps('cityId')} />
      </SimpleGrid>
      <TextInput label={t`Address`} mt="sm" {...draft.getInputProps('address')} />
      <Group justify="flex-end" mt="sm">
        <Button variant="default" leftSection={<IconPlus size={16} aria-hidden />} onClick={addClinic}>
          <Trans>Add Clinic</Trans>
        </Button>
      </Group>

      <Table striped withTableBorder aria-label={t`Clinics`} mt="md">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <Trans>Clinic Name</Trans>
            </Table.Th>
            <Table.Th visibleFrom="sm">
              <Trans>City</Trans>
            </Table.Th>
            <Table.Th visibleFrom="sm">
              <Trans>Contact No</Trans>
            </Table.Th>
            <Table.Th visibleFrom="sm">
              <Trans>Address</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Action</Trans>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {clinics.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={5}>
                <Text size="sm" c="dimmed">
                  <Trans>No clinic added yet</Trans>
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {clinics.map((clinic, index) => (
            <Table.Tr key={`${clinic.clinicId}-${index}`}>
              <Table.Td style={typedText}>
                {clinic.clinicName}
                {/* On a phone the other columns are a line under the name, which keeps the width. */}
                <Text size="xs" c="dimmed" hiddenFrom="sm">
                  <CityName countryId={clinic.countryId} cityId={clinic.cityId} />
                  {[clinic.contactNo, clinic.address].map((text) => (text ? ` · ${text}` : '')).join('')}
                </Text>
              </Table.Td>
              <Table.Td visibleFrom="sm">
                <CityName countryId={clinic.countryId} cityId={clinic.cityId} />
              </Table.Td>
              <Table.Td visibleFrom="sm" style={typedText}>
                {clinic.contactNo}
              </Table.Td>
              <Table.Td visibleFrom="sm" style={typedText}>
                {clinic.address}
              </Table.Td>
              <Table.Td>
                <Button
                  variant="default"
                  size="xs"
                  aria-label={deleteLabel(clinic.clinicName)}
                  onClick={() => void deleteClinic(index, clinic.clinicName)}
                >
                  <Trans>Delete</Trans>
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {error && (
        <Text c="var(--mantine-color-error)" size="sm" mt="xs" role="alert" tabIndex={-1} data-clinic-list-error>
          {error}
        </Text>
      )}
    </Fieldset>
  );
}
