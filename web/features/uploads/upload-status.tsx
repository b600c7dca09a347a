import { Alert, Paper, Progress, Stack, Table, Text } from '@mantine/core';
import { UPLOAD_COUNTERS, type UploadResult, uploadResultOf } from '../../../common/imports';
import type { Task } from '../../../common/tasks';
import { SkippedRows } from '../imports/skipped-rows';
import { TaskProgress } from '../tasks/task-progress';
import type { UploadPhase } from './use-upload-task';

/** The counters of a finished task as a small table (Rows, Saved, ...); only those the task reports. */
export function ResultCounters({ result, elapsedMs }: { result: UploadResult; elapsedMs?: number | null }) {
  const shown = UPLOAD_COUNTERS.filter(([key]) => result[key] !== undefined);
  if (shown.length === 0) return null;
  return (
    <Table withTableBorder maw={360} data-testid="upload-result" aria-label="Resultaat">
      <Table.Tbody>
        {shown.map(([key, label]) => (
          <Table.Tr key={key}>
            <Table.Th scope="row">{label}</Table.Th>
            <Table.Td data-testid={`result-${key}`}>{result[key]!.toLocaleString('nl-NL')}</Table.Td>
          </Table.Tr>
        ))}
        {elapsedMs != null && (
          <Table.Tr>
            <Table.Th scope="row">Tijd</Table.Th>
            <Table.Td>{elapsedMs.toLocaleString('nl-NL')} ms</Table.Td>
          </Table.Tr>
        )}
      </Table.Tbody>
    </Table>
  );
}

/**
 * Where an upload is: the bytes sent, then the task's state, rows done of total and percentage
 * (polled), then the outcome — `doneText` with the counters, or the failure in red.
 */
export function UploadStatus(props: {
  upload: { phase: UploadPhase; progress: number; task: Task | undefined; elapsedMs: number | null };
  doneText: string;
  error: string | null;
}) {
  const { phase, progress, task, elapsedMs } = props.upload;
  if (phase === 'idle' && !task && !props.error) return null;
  return (
    <Paper withBorder p="md" mt="md" aria-live="polite" data-testid="upload-status">
      <Stack gap="sm">
        {phase === 'uploading' && (
          <>
            <Text size="sm">Het bestand wordt geüpload: {progress}%</Text>
            <Progress value={progress} animated aria-label={`Upload ${progress}%`} />
          </>
        )}
        {phase === 'processing' && <TaskProgress task={task} />}
        {phase === 'done' && task && (
          <>
            <Alert color="green" title={props.doneText} />
            <ResultCounters result={uploadResultOf(task.result)} elapsedMs={elapsedMs} />
            <SkippedRows task={task} />
          </>
        )}
        {phase === 'failed' && props.error && (
          <Alert color="red" title="Mislukt">
            {props.error}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
