import { Group, Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { planStateLabels, planStates, type CaseDoctorOption, type PlanState } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../../lib/api-client.ts';
import { caseKeys } from '../../../lib/shared-queries.ts';

/** The staff list's further filters, each a value of the address (the dashboard keeps them there). */
export interface ExtraFilters {
  /** A doctor's UserId. */
  doctor?: string;
  plan?: PlanState;
  /** Submitted from and to, YYYY-MM-DD. */
  from?: string;
  to?: string;
}

const searchDelayMs = 300;

/** One doctor, searched on the server by name; the picked one stays named while another search shows. */
function DoctorFilter({ value, onChange }: { value?: string; onChange: (value?: string) => void }) {
  // Until something is typed or picked here, the box shows the doctor the address names.
  const [typed, setTyped] = useState<string>();
  const [debouncedSearch] = useDebouncedValue(typed ?? '', searchDelayMs);
  const found = useQuery({
    queryKey: [...caseKeys.doctorOptions(), debouncedSearch],
    queryFn: () => api.call('GET /api/case/doctor-options', { query: { search: debouncedSearch } }),
  });
  const named = useQuery({
    queryKey: [...caseKeys.doctorOptions(), 'user', value],
    queryFn: () => api.call('GET /api/case/doctor-options', { query: { userId: Number(value) } }),
    enabled: value !== undefined,
  });
  const option = (doctor: CaseDoctorOption) => ({ value: String(doctor.userId), label: doctor.name });
  const options = (found.data ?? []).map(option);
  const picked = named.data?.map(option)[0];
  if (picked && !options.some((known) => known.value === picked.value)) options.unshift(picked);
  return (
    <Select
      label="Doctor"
      placeholder="Any doctor"
      searchable
      clearable
      searchValue={typed ?? picked?.label ?? ''}
      onSearchChange={setTyped}
      // The server has searched already: every option it answered is shown.
      filter={({ options: all }) => all}
      nothingFoundMessage={found.isFetching ? 'Searching...' : 'No doctor found'}
      data={options}
      value={value ?? null}
      onChange={(next) => onChange(next ?? undefined)}
      w={220}
    />
  );
}

/** Doctor, plan state and submission dates, for staff. */
export function CaseFilters({
  filters,
  onChange,
}: {
  filters: ExtraFilters;
  onChange: (change: Partial<ExtraFilters>) => void;
}) {
  return (
    <Group gap="sm" align="flex-end" wrap="wrap" mb="sm" role="group" aria-label="Filters">
      <DoctorFilter value={filters.doctor} onChange={(doctor) => onChange({ doctor })} />
      <Select
        label="Plan"
        placeholder="Any plan state"
        clearable
        data={planStates.map((state) => ({ value: state, label: planStateLabels[state] }))}
        value={filters.plan ?? null}
        onChange={(plan) => onChange({ plan: (plan as PlanState | null) ?? undefined })}
        w={190}
      />
      <TextInput
        type="date"
        label="Submitted from"
        value={filters.from ?? ''}
        onChange={(event) => onChange({ from: event.currentTarget.value || undefined })}
        w={170}
      />
      <TextInput
        type="date"
        label="Submitted to"
        value={filters.to ?? ''}
        onChange={(event) => onChange({ to: event.currentTarget.value || undefined })}
        w={170}
      />
    </Group>
  );
}
