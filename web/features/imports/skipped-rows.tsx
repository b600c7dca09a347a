import { Group, Stack, Table, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import {
  ROW_SKIP_REASONS,
  SKIP_REASON_LABELS,
  SKIPPED_ROWS_KEPT,
  SkippedRowsMessages,
  skippedByOf,
} from '../../../common/skipped-rows';
import type { Task } from '../../../common/tasks';
import { CsvDownload } from '../../components/csv-download';

/** The browser URL of a task's skipped-rows download (a plain link, streamed by the server). */
export const skippedRowsUrl = (taskId: string) => `/api/tasks/${encodeURIComponent(taskId)}/skipped`;

/**
 * Why an import or a mailing's results file skipped rows: the count per reason and
 * the download of the first 10,000 skipped rows (line, reason, e-mail as in the file); nothing
 * when the task skipped none or keeps no reasons. `compact` (a /tasks card) shows the counts on
 * one line.
 */
export function SkippedRows({ task, compact = false }: { task: Task; compact?: boolean }) {
  const by = skippedByOf(task.result);
  if (!by) return null;
  // An import's result names its reasons, a results file's its own: a reason left out is none.
  const count = (r: (typeof ROW_SKIP_REASONS)[number]) => by[r] ?? 0;
  const reasons = ROW_SKIP_REASONS.filter((r) => count(r) > 0);
  const total = reasons.reduce((n, r) => n + count(r), 0);
  if (total === 0) return null;
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
          {reasons.map((r) => `${SKIP_REASON_LABELS[r]} ${count(r).toLocaleString('nl-NL')}`).join(', ')}
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
              <Table.Td data-testid={`skipped-${r}`}>{count(r).toLocaleString('nl-NL')}</Table.Td>
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
