import { useLingui } from '@lingui/react/macro';
import { Button, Collapse, Group, SegmentedControl, Stack, Switch, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { CaseAssigneeFilter, CaseRow, CaseStatusFilter } from '@portal/contract';
import { caseAssigneeFilters } from '@portal/contract/case-list';
import { caseStatuses } from '@portal/contract/case-statuses';
import { isPlanState } from '@portal/contract/plan-states';
import { IconFilter } from '@tabler/icons-react';
import { useId, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/page-title.tsx';
import { phoneMediaQuery } from '../../../components/phone-columns.tsx';
import { caseViewerOf } from '../../../lib/case-viewer.ts';
import { isDoctor, isDoctorSide, type Session } from '../../../lib/session.ts';
import { useCaseStats } from '../api/get-case-stats.ts';
import { CaseFilters, type ExtraFilters } from './case-filters.tsx';
import { CaseList } from './case-list.tsx';
import { StatTiles, statusFilterLabel, type CaseFilter } from './stat-tiles.tsx';

const isCaseStatusFilter = (value: string | null): value is CaseStatusFilter =>
  value === 'all' || (caseStatuses as readonly (string | null)[]).includes(value);
const isAssigneeFilter = (value: string | null): value is CaseAssigneeFilter =>
  (caseAssigneeFilters as readonly (string | null)[]).includes(value);

/** Stat tiles and the case list; a doctor sees their own cases, staff every case with its doctor. */
export function CaseDashboard({
  session,
  onView,
  drafts,
}: {
  session: Session;
  onView: (caseRow: CaseRow) => void;
  /** Shown between the tiles and the case list: the caller's case drafts. */
  drafts?: ReactNode;
}) {
  const { t } = useLingui();
  const isStaff = !isDoctorSide(session);
  // 0 is every case the caller reaches: staff's all, an assistant's their doctors' (docs/decisions/assistants.md § Assistants).
  const userId = isDoctor(session) ? session.userId : 0;
  // Every filter lives in the address (?status=new, ?plan=awaiting_approval, ?assignee=mine,
  // ?overdue=true, ?offTrack=true, ?doctor=12, ?from=2026-11-01&to=...), so Back, Reload and a shared link keep them.
  const [searchParams, setSearchParams] = useSearchParams();
  const plan = searchParams.get('plan');
  const planState = isPlanState(plan) ? plan : undefined;
  const statusParam = searchParams.get('status');
  const status: CaseStatusFilter = isCaseStatusFilter(statusParam) ? statusParam : 'all';
  const assigneeParam = searchParams.get('assignee');
  const assignee = isStaff && isAssigneeFilter(assigneeParam) ? assigneeParam : undefined;
  const filter: CaseFilter = planState ? { status: 'all', planState } : { status };
  const stats = useCaseStats(userId);
  const setParams = (change: (params: URLSearchParams) => void) =>
    setSearchParams((current) => {
      const params = new URLSearchParams(current);
      change(params);
      // Another filter: the list starts again at its first page.
      params.delete('page');
      return params;
    });
  const select = (next: CaseFilter) =>
    setParams((params) => {
      if (next.planState) params.set('plan', next.planState);
      else params.delete('plan');
      if (next.status !== 'all') params.set('status', next.status);
      else params.delete('status');
    });
  const isOverdue = isStaff && searchParams.get('overdue') === 'true';
  const setOverdue = (next: boolean) =>
    setParams((params) => {
      if (next) params.set('overdue', 'true');
      else params.delete('overdue');
    });
  // Doctors too: they look for their own off-track cases (docs/decisions/progress-scans.md § Off track on the lists).
  const isOffTrack = searchParams.get('offTrack') === 'true';
  const setOffTrack = (next: boolean) =>
    setParams((params) => {
      if (next) params.set('offTrack', 'true');
      else params.delete('offTrack');
    });
  const offTrackSwitch = (
    <Switch
      label={t`Off track only`}
      size="sm"
      checked={isOffTrack}
      onChange={(event) => setOffTrack(event.currentTarget.checked)}
    />
  );
  const doctorParam = searchParams.get('doctor');
  const dateParam = (name: string) => {
    const value = searchParams.get(name);
    return value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;
  };
  const extra: ExtraFilters = {
    doctor: isStaff && doctorParam && /^\d+$/.test(doctorParam) ? doctorParam : undefined,
    plan: planState,
    from: isStaff ? dateParam('from') : undefined,
    to: isStaff ? dateParam('to') : undefined,
  };
  const setExtra = (change: Partial<ExtraFilters>) =>
    setParams((params) => {
      for (const [name, value] of Object.entries(change)) {
        if (value === undefined) params.delete(name);
        else params.set(name, value);
      }
    });
  const selectAssignee = (next: string) =>
    setParams((params) => {
      if (isAssigneeFilter(next)) params.set('assignee', next);
      else params.delete('assignee');
    });

  const isPhone = useMediaQuery(phoneMediaQuery) ?? false;
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filtersId = useId();
  const activeFilters = [extra.doctor, extra.from, extra.to, isOverdue, isOffTrack, assignee].filter(Boolean).length;
  const staffSwitches = (
    <Group gap="md" wrap="wrap">
      {offTrackSwitch}
      <Switch
        label={t`Overdue only`}
        size="sm"
        checked={isOverdue}
        onChange={(event) => setOverdue(event.currentTarget.checked)}
      />
      <SegmentedControl
        aria-label={t`Technician`}
        size="xs"
        value={assignee ?? 'all'}
        onChange={selectAssignee}
        data={[
          { value: 'all', label: t`Everyone’s` },
          { value: 'mine', label: t`Mine` },
          { value: 'unassigned', label: t`Unassigned` },
        ]}
      />
    </Group>
  );

  return (
    <>
      <PageTitle title={t`Dashboard`} />
      <StatTiles stats={stats.data} selected={filter} onSelect={select} viewer={caseViewerOf(session)} />
      {drafts}
      <Group justify="space-between" align="flex-end" mb="xs" wrap="wrap">
        <Title order={3} size="h4">
          {statusFilterLabel(filter, caseViewerOf(session))}
        </Title>
        {isStaff && isPhone && (
          <Button
            variant="light"
            size="compact-md"
            leftSection={<IconFilter size={16} aria-hidden />}
            aria-expanded={filtersOpen}
            aria-controls={filtersId}
            onClick={() => setFiltersOpen((open) => !open)}
          >
            {activeFilters > 0 ? t`Filters (${activeFilters})` : t`Filters`}
          </Button>
        )}
        {isStaff && !isPhone && staffSwitches}
        {!isStaff && offTrackSwitch}
      </Group>
      {isStaff &&
        (isPhone ? (
          // On a phone the filters wait behind their button: open, they pushed the list below the fold (issue 41).
          <Collapse expanded={filtersOpen} id={filtersId}>
            <Stack gap="sm" mb="sm">
              {staffSwitches}
              <CaseFilters filters={extra} onChange={setExtra} />
            </Stack>
          </Collapse>
        ) : (
          <CaseFilters filters={extra} onChange={setExtra} />
        ))}
      <CaseList
        userId={extra.doctor ? Number(extra.doctor) : userId}
        from={extra.from}
        to={extra.to}
        status={filter.status}
        planState={filter.planState}
        assignee={assignee}
        isOverdue={isOverdue}
        isOffTrack={isOffTrack}
        showDoctor={!isDoctor(session)}
        isStaff={isStaff}
        onView={onView}
      />
    </>
  );
}
