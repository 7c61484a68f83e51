import { useLingui } from '@lingui/react/macro';
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { CaseDoctorOption } from '@portal/contract';
import { planStateLabels, planStates, type PlanState } from '@portal/contract/plan-states';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../../lib/api-client.ts';
import { serverText } from '../../../lib/server-text.ts';
import { caseKeys } from '../../../lib/shared-queries.ts';

/*
 * The staff filters' two Selects, apart from the rest of the dashboard: Mantine's Select and
 * Combobox load with them, not with every cold dashboard (docs/decisions/speed.md § On the wire).
 */

const searchDelayMs = 300;

/** One doctor, searched on the server by name; the picked one stays named while another search shows. */
export function DoctorFilter({ value, onChange }: { value?: string; onChange: (value?: string) => void }) {
  const { t } = useLingui();
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
      label={t`Doctor`}
      placeholder={t`Any doctor`}
      searchable
      clearable
      searchValue={typed ?? picked?.label ?? ''}
      onSearchChange={setTyped}
      // The server has searched already: every option it answered is shown.
      filter={({ options: all }) => all}
      nothingFoundMessage={found.isFetching ? t`Searching...` : t`No doctor found`}
      data={options}
      value={value ?? null}
      onChange={(next) => onChange(next ?? undefined)}
      w={220}
    />
  );
}

/** One plan state, or any. */
export function PlanFilter({ value, onChange }: { value?: PlanState; onChange: (value?: PlanState) => void }) {
  const { t } = useLingui();
  return (
    <Select
      label={t`Plan`}
      placeholder={t`Any plan state`}
      clearable
      data={planStates.map((state) => ({ value: state, label: serverText(planStateLabels[state]) }))}
      value={value ?? null}
      onChange={(plan) => onChange((plan as PlanState | null) ?? undefined)}
      w={190}
    />
  );
}
