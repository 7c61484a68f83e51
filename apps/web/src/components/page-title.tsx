import { Group, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A screen's heading with its actions on the right ('+ Add New'). */
export function PageTitle({ title, actions }: { title: string; actions?: ReactNode }) {
  return (
    <Group justify="space-between" mb="md">
      <Title order={2}>{title}</Title>
      {actions}
    </Group>
  );
}
