import { useLingui } from '@lingui/react/macro';
import { Group, TextInput } from '@mantine/core';
import { planStateLabels, type PlanState } from '@portal/contract/plan-states';
import { lazy, Suspense } from 'react';
import { serverText } from '../../../lib/server-text.ts';

/** The staff list's further filters, each a value of the address (the dashboard keeps them there). */
export interface ExtraFilters {
  /** A doctor's UserId. */
  doctor?: string;
  plan?: PlanState;
  /** Submitted from and to, YYYY-MM-DD. */
  from?: string;
  to?: string;
}

// Mantine's Select and Combobox load with the filters, not with every cold dashboard (a doctor's
// has none): docs/decisions/speed.md § On the wire.
const loadSelects = () => import('./case-filter-selects.tsx');
const DoctorFilter = lazy(() => loadSelects().then((module) => ({ default: module.DoctorFilter })));
const PlanFilter = lazy(() => loadSelects().then((module) => ({ default: module.PlanFilter })));

/** Doctor, plan state and submission dates, for staff. */
export function CaseFilters({
  filters,
  onChange,
}: {
  filters: ExtraFilters;
  onChange: (change: Partial<ExtraFilters>) => void;
}) {
  const { t } = useLingui();
  return (
    <Group gap="sm" align="flex-end" wrap="wrap" mb="sm" role="group" aria-label={t`Filters`}>
      {/* Until the Selects are in, inputs of their size and words hold their place (not comboboxes, nothing to pick yet). */}
      <Suspense
        fallback={
          <>
            <TextInput label={t`Doctor`} placeholder={t`Any doctor`} readOnly tabIndex={-1} w={220} />
            <TextInput
              label={t`Plan`}
              placeholder={t`Any plan state`}
              value={filters.plan ? serverText(planStateLabels[filters.plan]) : ''}
              readOnly
              tabIndex={-1}
              w={190}
            />
          </>
        }
      >
        <DoctorFilter value={filters.doctor} onChange={(doctor) => onChange({ doctor })} />
        <PlanFilter value={filters.plan} onChange={(plan) => onChange({ plan })} />
      </Suspense>
      <TextInput
        type="date"
        label={t`Submitted from`}
        value={filters.from ?? ''}
        onChange={(event) => onChange({ from: event.currentTarget.value || undefined })}
        w={170}
      />
      <TextInput
        type="date"
        label={t`Submitted to`}
        value={filters.to ?? ''}
        onChange={(event) => onChange({ to: event.currentTarget.value || undefined })}
        w={170}
      />
    </Group>
  );
}
