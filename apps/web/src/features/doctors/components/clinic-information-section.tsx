import { Button, Fieldset, Group, SimpleGrid, Table, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { clinicEntry } from '@portal/contract';
import { IconPlus } from '@tabler/icons-react';
import { confirmDelete } from '../../../components/confirm-delete.tsx';
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

/**
 * Clinic Information: a small form whose 'Add Clinic' puts the clinic in the table below,
 * and the table, where each clinic can be deleted. `error` is the form's clinic-list error.
 */
export function ClinicInformationSection({
  clinics,
  error,
  onChange,
}: {
  clinics: ClinicRow[];
  error?: string;
  onChange: (clinics: ClinicRow[]) => void;
}) {
  const draft = useForm<ClinicDraft>({
    mode: 'controlled',
    initialValues: emptyDraft,
    validate: schemaResolver(clinicEntry, { sync: true }),
    validateInputOnChange: true,
  });
  const countryId = draft.values.countryId === null ? null : Number(draft.values.countryId);

  const addClinic = () => {
    if (draft.validate().hasErrors) return;
    const { clinicName, contactNo, address } = draft.values;
    onChange([
      ...clinics,
      {
        clinicId: 0,
        countryId: Number(draft.values.countryId),
        cityId: Number(draft.values.cityId),
        clinicName: clinicName.trim(),
        contactNo: contactNo.trim(),
        address: address.trim(),
      },
    ]);
    draft.reset();
  };

  const deleteClinic = async (index: number) => {
    if (await confirmDelete()) onChange(clinics.filter((_, position) => position !== index));
  };

  return (
    <Fieldset legend="Clinic Information">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Clinic Name" withAsterisk {...draft.getInputProps('clinicName')} />
        <TextInput label="Contact No" {...draft.getInputProps('contactNo')} />
        <CountrySelect
          label="Country"
          placeholder="Search a country"
          value={draft.values.countryId}
          onChange={(value) => draft.setValues({ countryId: value, cityId: null })}
        />
        <CitySelect label="City" withAsterisk countryId={countryId} {...draft.getInputProps('cityId')} />
      </SimpleGrid>
      <TextInput label="Address" mt="sm" {...draft.getInputProps('address')} />
      <Group justify="flex-end" mt="sm">
        <Button variant="default" leftSection={<IconPlus size={16} aria-hidden />} onClick={addClinic}>
          Add Clinic
        </Button>
      </Group>

      <Table.ScrollContainer minWidth={560} mt="md">
        <Table striped withTableBorder aria-label="Clinics">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Clinic Name</Table.Th>
              <Table.Th>City</Table.Th>
              <Table.Th>Contact No</Table.Th>
              <Table.Th>Address</Table.Th>
              <Table.Th>Action</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {clinics.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={5}>
                  <Text size="sm" c="dimmed">
                    No clinic added yet
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {clinics.map((clinic, index) => (
              <Table.Tr key={`${clinic.clinicId}-${index}`}>
                <Table.Td>{clinic.clinicName}</Table.Td>
                <Table.Td>
                  <CityName countryId={clinic.countryId} cityId={clinic.cityId} />
                </Table.Td>
                <Table.Td>{clinic.contactNo}</Table.Td>
                <Table.Td>{clinic.address}</Table.Td>
                <Table.Td>
                  <Button
                    variant="default"
                    size="xs"
                    aria-label={`Delete ${clinic.clinicName}`}
                    onClick={() => void deleteClinic(index)}
                  >
                    Delete
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {error && (
        <Text c="var(--mantine-color-error)" size="sm" mt="xs" role="alert">
          {error}
        </Text>
      )}
    </Fieldset>
  );
}
