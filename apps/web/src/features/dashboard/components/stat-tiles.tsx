import { Group, SimpleGrid, Skeleton, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { caseStatusLabels, type CaseStats, type CaseStatusFilter, type PlanState } from '@portal/contract';
import {
  IconCircleCheck,
  IconClipboardList,
  IconMessageReport,
  IconProgress,
  IconSparkles,
  IconThumbUp,
  IconTruckDelivery,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { approvalFor, type CaseViewer } from '../../../lib/case-viewer.ts';

/** What the list shows: a status, or (a plan tile) the cases whose newest plan version is in a state. */
export interface CaseFilter {
  status: CaseStatusFilter;
  planState?: PlanState;
}

interface Tile extends CaseFilter {
  label: string | ((viewer: CaseViewer) => string);
  count: (stats: CaseStats) => number;
  icon: ComponentType<{ size?: number }>;
  isStaffOnly?: boolean;
  isDoctorOnly?: boolean;
}

const tiles: Tile[] = [
  { status: 'all', label: 'Total Cases', count: (stats) => stats.total, icon: IconClipboardList },
  { status: 'new', label: 'New Cases', count: (stats) => stats.newcases, icon: IconSparkles, isStaffOnly: true },
  { status: 'inprogress', label: 'In Progress', count: (stats) => stats.inprogress, icon: IconProgress },
  { status: 'dispatched', label: 'Dispatched', count: (stats) => stats.dispatched, icon: IconTruckDelivery },
  { status: 'delivered', label: 'Delivered', count: (stats) => stats.delivered, icon: IconCircleCheck },
  {
    status: 'all',
    planState: 'awaiting_approval',
    label: (viewer) => `Awaiting ${approvalFor(viewer)}`,
    count: (stats) => stats.awaitingApproval,
    icon: IconThumbUp,
    isDoctorOnly: true,
  },
  {
    status: 'all',
    planState: 'changes_requested',
    label: 'Changes requested',
    count: (stats) => stats.changesRequested,
    icon: IconMessageReport,
    isStaffOnly: true,
  },
];

const planFilterLabels: Partial<Record<PlanState, (viewer: CaseViewer) => string>> = {
  awaiting_approval: (viewer) => `Cases awaiting ${approvalFor(viewer)}`,
  changes_requested: () => 'Cases with changes requested',
};

export const statusFilterLabel = ({ status, planState }: CaseFilter, viewer: CaseViewer) =>
  planState
    ? (planFilterLabels[planState]?.(viewer) ?? 'Cases')
    : status === 'all'
      ? 'All cases'
      : `${caseStatusLabels[status]} cases`;

const isSameFilter = (a: CaseFilter, b: CaseFilter) => a.status === b.status && a.planState === b.planState;

/** The stat tiles; each is a toggle button that filters the case list by its status. */
export function StatTiles({
  stats,
  selected,
  onSelect,
  viewer,
}: {
  stats: CaseStats | undefined;
  selected: CaseFilter;
  onSelect: (filter: CaseFilter) => void;
  viewer: CaseViewer;
}) {
  const isStaff = viewer === 'lab';
  const visible = tiles.filter((tile) => (isStaff ? !tile.isDoctorOnly : !tile.isStaffOnly));
  return (
    <SimpleGrid
      cols={{ base: 2, sm: 3, lg: visible.length }}
      spacing="sm"
      mb="lg"
      role="group"
      aria-label="Filter cases by status"
    >
      {visible.map((tile) => {
        const isSelected = isSameFilter(tile, selected);
        const Icon = tile.icon;
        return (
          <UnstyledButton
            key={`${tile.status}-${tile.planState ?? ''}`}
            aria-pressed={isSelected}
            onClick={() => onSelect({ status: tile.status, planState: tile.planState })}
            p="md"
            bg={isSelected ? 'teal.0' : 'white'}
            bd={isSelected ? '2px solid var(--mantine-color-teal-9)' : '2px solid var(--mantine-color-gray-3)'}
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
          >
            {/* The count on a line of its own, the tile's whole width: a lab's 250000 beside
                the icon ran out of a tile a sixth of the screen wide. */}
            <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
              <Text size="sm" fw={600} c={isSelected ? 'teal.9' : 'gray.8'} miw={0}>
                {typeof tile.label === 'string' ? tile.label : tile.label(viewer)}
              </Text>
              <ThemeIcon variant={isSelected ? 'filled' : 'light'} size="lg" radius="md" aria-hidden>
                <Icon size={20} />
              </ThemeIcon>
            </Group>
            {stats ? (
              <Text fz={28} fw={700} lh={1.2}>
                {tile.count(stats)}
              </Text>
            ) : (
              // The count is on its way: a placeholder of its size, no overlay.
              <Skeleton height={28} width={48} mt={3} mb={3} aria-label="Loading count" />
            )}
          </UnstyledButton>
        );
      })}
    </SimpleGrid>
  );
}
