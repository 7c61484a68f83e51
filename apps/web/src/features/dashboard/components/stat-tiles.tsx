import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Group, SimpleGrid, Skeleton, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import type { CaseStats, CaseStatusFilter, PlanState } from '@portal/contract';
import { caseStatusLabels } from '@portal/contract/case-statuses';
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
import type { CaseViewer } from '../../../lib/case-viewer.ts';
import { i18n } from '../../../lib/i18n.ts';
import { serverText } from '../../../lib/server-text.ts';

/** What the list shows: a status, or (a plan tile) the cases whose newest plan version is in a state. */
export interface CaseFilter {
  status: CaseStatusFilter;
  planState?: PlanState;
}

interface Tile extends CaseFilter {
  label: MessageDescriptor | ((viewer: CaseViewer) => MessageDescriptor);
  count: (stats: CaseStats) => number;
  icon: ComponentType<{ size?: number }>;
  isStaffOnly?: boolean;
  isDoctorOnly?: boolean;
}

const tiles: Tile[] = [
  { status: 'all', label: msg`Total Cases`, count: (stats) => stats.total, icon: IconClipboardList },
  { status: 'new', label: msg`New Cases`, count: (stats) => stats.newcases, icon: IconSparkles, isStaffOnly: true },
  { status: 'inprogress', label: msg`In Progress`, count: (stats) => stats.inprogress, icon: IconProgress },
  { status: 'dispatched', label: msg`Dispatched`, count: (stats) => stats.dispatched, icon: IconTruckDelivery },
  { status: 'delivered', label: msg`Delivered`, count: (stats) => stats.delivered, icon: IconCircleCheck },
  {
    status: 'all',
    planState: 'awaiting_approval',
    // Whose approval, as the viewer reads it: their assistant waits for the doctor's.
    label: (viewer) => (viewer === 'assistant' ? msg`Awaiting the doctor's approval` : msg`Awaiting your approval`),
    count: (stats) => stats.awaitingApproval,
    icon: IconThumbUp,
    isDoctorOnly: true,
  },
  {
    status: 'all',
    planState: 'changes_requested',
    label: msg`Changes requested`,
    count: (stats) => stats.changesRequested,
    icon: IconMessageReport,
    isStaffOnly: true,
  },
];

const planFilterLabels: Partial<Record<PlanState, (viewer: CaseViewer) => MessageDescriptor>> = {
  awaiting_approval: (viewer) =>
    viewer === 'assistant' ? msg`Cases awaiting the doctor's approval` : msg`Cases awaiting your approval`,
  changes_requested: () => msg`Cases with changes requested`,
};

/** The list's heading, in the language shown. */
export function statusFilterLabel({ status, planState }: CaseFilter, viewer: CaseViewer): string {
  if (planState) {
    const label = planFilterLabels[planState];
    return i18n._(label ? label(viewer) : msg`Cases`);
  }
  if (status === 'all') return i18n._(msg`All cases`);
  const statusLabel = serverText(caseStatusLabels[status]);
  return i18n._(msg`${statusLabel} cases`);
}

/** A tile's width, gap included, below which its longest word and its icon no longer fit side by side. */
const minTileWidth = 165;

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
  const { t } = useLingui();
  const isStaff = viewer === 'lab';
  const visible = tiles.filter((tile) => (isStaff ? !tile.isDoctorOnly : !tile.isStaffOnly));
  return (
    // Columns by the room the tiles have (a container query), not the window's: all in one row
    // only where each tile is wide enough for "Dispatched" beside its icon (issue 41: at 1280 px
    // with the menu open, six tiles of 158 px and wide padding ran the label under the icon).
    <SimpleGrid
      type="container"
      cols={{ base: 2, [`${minTileWidth * 3}px`]: 3, [`${minTileWidth * visible.length}px`]: visible.length }}
      spacing="sm"
      mb="lg"
      role="group"
      aria-label={t`Filter cases by status`}
    >
      {visible.map((tile) => {
        const isSelected = isSameFilter(tile, selected);
        const Icon = tile.icon;
        return (
          <UnstyledButton
            key={`${tile.status}-${tile.planState ?? ''}`}
            aria-pressed={isSelected}
            onClick={() => onSelect({ status: tile.status, planState: tile.planState })}
            p="sm"
            bg={isSelected ? 'teal.0' : 'white'}
            style={{
              border: `2px solid var(--mantine-color-${isSelected ? 'teal-9' : 'gray-3'})`,
              borderRadius: 'var(--mantine-radius-md)',
            }}
          >
            {/* The count on a line of its own, the tile's whole width: a lab's 250000 beside
                the icon ran out of a tile a sixth of the screen wide. */}
            <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
              {/* No shrinking below its longest word: it wraps between words, never under the icon. */}
              <Text size="sm" fw={600} c={isSelected ? 'teal.9' : 'gray.8'}>
                {i18n._(typeof tile.label === 'function' ? tile.label(viewer) : tile.label)}
              </Text>
              <ThemeIcon variant={isSelected ? 'filled' : 'light'} size="md" radius="md" aria-hidden>
                <Icon size={18} />
              </ThemeIcon>
            </Group>
            {stats ? (
              <Text fz={28} fw={700} lh={1.2}>
                {tile.count(stats)}
              </Text>
            ) : (
              // The count is on its way: a placeholder of its size, no overlay.
              <Skeleton height={28} width={48} mt={3} mb={3} aria-label={t`Loading count`} />
            )}
          </UnstyledButton>
        );
      })}
    </SimpleGrid>
  );
}
