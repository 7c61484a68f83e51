import { Box, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export interface DetailItem {
  label: string;
  value: ReactNode;
  /** Long text (complaint, instructions) takes the whole row. */
  isWide?: boolean;
}

/** Label and value pairs as a description list, in as many columns as fit. */
export function DetailList({ items }: { items: DetailItem[] }) {
  return (
    <Box
      component="dl"
      m={0}
      style={{
        display: 'grid',
        gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))',
        gap: 'var(--mantine-spacing-sm) var(--mantine-spacing-lg)',
      }}
    >
      {items.map((item) => (
        <div key={item.label} style={item.isWide ? { gridColumn: '1 / -1' } : undefined}>
          <Text component="dt" size="sm" c="dimmed" fw={500}>
            {item.label}
          </Text>
          <Text component="dd" m={0} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {item.value}
          </Text>
        </div>
      ))}
    </Box>
  );
}
