import { Alert, Button, Checkbox, Group, Paper, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import {
  type AvgBulkErasureResult,
  AvgBulkErasureResultSchema,
  AvgErasureMessages,
} from '../../../common/avg-erasure';
import { UPLOAD_TASK_POLL_MS } from '../../../common/constants';
import { showDanger, showSuccess } from '../../lib/alerts';
import { formatCount } from '../../lib/numbers';
import { TaskProgress } from '../tasks/task-progress';
import { CsvDropzone } from '../uploads/csv-dropzone';
import { failureText, useUploadTask } from '../uploads/use-upload-task';
import { uploadAvgEraseFile } from './api';
import { BULK_ERASURE_CONFIRM, BULK_ERASURE_COUNTERS } from './erasure-summary';

/**
 * 'Adressen uit een bestand verwijderen': a file of addresses erased as a task (`avg-erase`). The
 * upload needs the confirmation ticked (the erasure cannot be undone); shows the upload's progress,
 * the task's, and then the result per kind of line.
 */
export function AvgBulkErasure() {
  const [file, setFile] = useState<File | null>(null);
  const [isConfirmed, setConfirmed] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<AvgBulkErasureResult | null>(null);
  const upload = useUploadTask(UPLOAD_TASK_POLL_MS, {
    onDone: (task) => {
      const parsed = AvgBulkErasureResultSchema.safeParse(task.result);
      setResult(parsed.success ? parsed.data : null);
      setFile(null);
      setConfirmed(false);
    },
    onFailed: (err) => {
      const text = failureText(err);
      setError(text);
      showDanger(AvgErasureMessages.failed, text);
    },
  });

  const handleSend = () => {
    if (!file || !isConfirmed) return;
    setError(null);
    setResult(null);
    void upload.start(async (onProgress) => {
      const started = await uploadAvgEraseFile(file, onProgress);
      showSuccess(AvgErasureMessages.bulkStarted);
      return started;
    });
  };

  return (
    <Paper withBorder p="md" data-testid="avg-bulk-erasure">
      <Stack>
        <Title order={4}>{AvgErasureMessages.bulkTitle}</Title>
        <Text size="sm">{AvgErasureMessages.bulkHelp}</Text>
        <CsvDropzone
          file={file}
          onFile={(f) => {
            setFile(f);
            setConfirmed(false);
            if (f) {
              setError(null);
              upload.reset();
            }
          }}
          disabled={upload.busy}
        />
        <Checkbox
          label={BULK_ERASURE_CONFIRM}
          checked={isConfirmed}
          disabled={!file || upload.busy}
          onChange={(e) => setConfirmed(e.currentTarget.checked)}
        />
        <Group>
          <Button
            color="red"
            leftSection={<IconTrash size={16} />}
            onClick={handleSend}
            disabled={!file || !isConfirmed || upload.busy}
            loading={upload.busy}
          >
            Adressen verwijderen
          </Button>
        </Group>
        <BulkStatus upload={upload} result={result} error={error} />
      </Stack>
    </Paper>
  );
}

function BulkStatus(props: {
  upload: ReturnType<typeof useUploadTask>;
  result: AvgBulkErasureResult | null;
  error: string | null;
}) {
  const { phase, progress, task } = props.upload;
  if (phase === 'uploading') {
    return (
      <Stack gap={4} aria-live="polite">
        <Text size="sm">Het bestand wordt geüpload: {progress}%</Text>
        <Progress value={progress} animated aria-label={`Upload ${progress}%`} />
      </Stack>
    );
  }
  if (phase === 'processing') return <TaskProgress task={task} />;
  if (phase === 'failed' && props.error) {
    return (
      <Alert color="red" title="Mislukt">
        {props.error}
      </Alert>
    );
  }
  if (phase !== 'done' || !props.result) return null;
  const result = props.result;
  return (
    <Stack gap="xs" aria-live="polite">
      <Alert color="green" title={AvgErasureMessages.bulkDone} />
      <Table
        withTableBorder
        maw={420}
        aria-label="Resultaat van het verwijderen"
        data-testid="avg-bulk-result"
      >
        <Table.Tbody>
          {BULK_ERASURE_COUNTERS.map(([key, label]) => (
            <Table.Tr key={key}>
              <Table.Th scope="row">{label}</Table.Th>
              <Table.Td data-testid={`avg-bulk-${key}`}>{formatCount(result[key])}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
