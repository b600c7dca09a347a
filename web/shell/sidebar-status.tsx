import { Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconDatabase } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { CONNECTOR_POLL_MS, WEB_VERSION } from '../../common/constants';
import { connectorStatusLabel } from '../../common/shell';
import { onTaskChange } from '../features/tasks/task-events';
import { fetchConnectorStatus, fetchVersion } from './api';

const CONNECTOR_KEY = ['connector', 'status'] as const;

const STATUS_COLOR: Record<string, string> = { idle: 'green', busy: 'orange', loading: 'gray' };

/**
 * Connector status icon (idle green, busy orange, else red; polled every 2 s) and the versions.
 * Until the first answer it reads 'laden...' in grey, not a red 'unknown'. A task
 * the screens see start or end asks the server again at once, so it follows the worker.
 */
export function SidebarStatus() {
  const client = useQueryClient();
  useEffect(() => onTaskChange(() => void client.invalidateQueries({ queryKey: CONNECTOR_KEY })), [client]);
  const connector = useQuery({
    queryKey: CONNECTOR_KEY,
    queryFn: fetchConnectorStatus,
    refetchInterval: CONNECTOR_POLL_MS,
    retry: false,
  });
  const version = useQuery({ queryKey: ['version'], queryFn: fetchVersion, retry: false });
  const status = connector.data?.status ?? (connector.isError ? 'error' : 'loading');
  const color = STATUS_COLOR[status] ?? 'red';
  const shown = connectorStatusLabel(status);
  return (
    <Stack gap={4} p="sm" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
      <Tooltip label={`Database connector: ${shown}`}>
        <Group gap={6} data-testid="connector-status" data-status={status} data-color={color}>
          <IconDatabase
            size={18}
            color={`var(--mantine-color-${color}-6)`}
            aria-label={`connector ${shown}`}
          />
          <Text size="xs">Connector: {shown}</Text>
        </Group>
      </Tooltip>
      <Text size="xs" c="dimmed" data-testid="version-info">
        Website: {WEB_VERSION} · API: {version.data?.api ?? 'Unknown'} · Updater:{' '}
        {version.data?.updater ?? 'Unknown'}
      </Text>
    </Stack>
  );
}
