import { Group, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A screen's heading with optional actions on the right. */
export function PageTitle({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <Group justify="space-between" mb="md">
      <Title order={2}>{children}</Title>
      {actions && <Group gap="xs">{actions}</Group>}
    </Group>
  );
}
