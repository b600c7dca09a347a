import { Group, Stack, Table, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import {
  SKIP_REASON_LABELS,
  SKIP_REASONS,
  SKIPPED_ROWS_KEPT,
  SkippedRowsMessages,
  skippedByOf,
} from '../../../common/skipped-rows';
import type { Task } from '../../../common/tasks';
import { CsvDownload } from '../../components/csv-download';

/** The browser URL of a task's skipped-rows download (a plain link, streamed by the server). */
export const skippedRowsUrl = (taskId: string) => `/api/tasks/${encodeURIComponent(taskId)}/skipped`;

/**
 * Why an import skipped rows (issue 15 §4): the count per reason and the download of the first
 * 10,000 skipped rows (line, reason, e-mail as in the file); nothing when the task skipped none or
 * keeps no reasons. `compact` (a /tasks card) shows the counts on one line.
 */
export function SkippedRows({ task, compact = false }: { task: Task; compact?: boolean }) {
  const by = skippedByOf(task.result);
  if (!by) return null;
  const total = by.invalid + by.repeated + by.excluded;
  if (total === 0) return null;
  const reasons = SKIP_REASONS.filter((r) => by[r] > 0);
  const download = (
    <CsvDownload
      href={skippedRowsUrl(task._id)}
      label={SkippedRowsMessages.download}
      icon={compact ? <IconDownload size={16} /> : undefined}
    />
  );
  if (compact) {
    return (
      <Group gap="xs" wrap="nowrap" data-testid="skipped-rows">
        <Text size="sm">
          Overgeslagen:{' '}
          {reasons.map((r) => `${SKIP_REASON_LABELS[r]} ${by[r].toLocaleString('nl-NL')}`).join(', ')}
        </Text>
        {download}
      </Group>
    );
  }
  return (
    <Stack gap="xs" data-testid="skipped-rows">
      <Text fw={600}>{SkippedRowsMessages.title}</Text>
      <Table withTableBorder maw={360} aria-label={SkippedRowsMessages.title}>
        <Table.Tbody>
          {reasons.map((r) => (
            <Table.Tr key={r}>
              <Table.Th scope="row">{SKIP_REASON_LABELS[r]}</Table.Th>
              <Table.Td data-testid={`skipped-${r}`}>{by[r].toLocaleString('nl-NL')}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group>{download}</Group>
      {total > SKIPPED_ROWS_KEPT && (
        <Text size="sm" c="dimmed">
          {SkippedRowsMessages.kept(SKIPPED_ROWS_KEPT)}
        </Text>
      )}
    </Stack>
  );
}
