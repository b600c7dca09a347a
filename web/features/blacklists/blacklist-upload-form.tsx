import { Button, Group, Paper, Stack, TextInput, Title } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { BlacklistMessages } from '../../../common/blacklists';
import { UPLOAD_TASK_POLL_MS } from '../../../common/constants';
import { hasEmailColumn } from '../../../common/imports';
import { showDanger, showSuccess } from '../../lib/alerts';
import { ApiError } from '../../lib/http';
import { CsvDropzone, useCsvHeaders } from '../uploads/csv-dropzone';
import { UploadStatus } from '../uploads/upload-status';
import { failureText, useUploadTask } from '../uploads/use-upload-task';
import { type BlacklistKind, uploadBlacklist } from './api';

/** One column a blacklist file must have: the form field that names it, its label and default name. */
export interface BlacklistColumn {
  field: string;
  label: string;
  defaultName: string;
}

/** The message when the file's first row lacks a column (spec 001 §5): by name for one, in general for several. */
function missingMessage(columns: BlacklistColumn[], names: Record<string, string>): string {
  return columns.length > 1
    ? BlacklistMessages.missingColumns
    : BlacklistMessages.noColumn(names[columns[0].field] || columns[0].defaultName);
}

/**
 * One of the three blacklist upload forms of /blacklist/upload (spec 001 §2, §5): the column
 * names (checked on the file's first row as soon as it is chosen: 'Ongeldig bestand'), the drop
 * zone, upload progress, the task followed until done, and its counters.
 */
export function BlacklistUploadForm(props: {
  kind: BlacklistKind;
  title: string;
  columns: BlacklistColumn[];
}) {
  const client = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [names, setNames] = useState<Record<string, string>>(() =>
    Object.fromEntries(props.columns.map((c) => [c.field, c.defaultName])),
  );
  const [error, setError] = useState<string | null>(null);
  const headers = useCsvHeaders(file);
  const columnOf = (c: BlacklistColumn) => names[c.field]?.trim() || c.defaultName;

  // spec 001 §5: the first row is checked before anything is sent.
  // biome-ignore lint/correctness/useExhaustiveDependencies: checked once per file read, not per keystroke in a column name.
  useEffect(() => {
    if (!file || !headers) return;
    if (props.columns.every((c) => hasEmailColumn(headers, columnOf(c)))) return;
    const message = missingMessage(props.columns, names);
    setError(message);
    showDanger(BlacklistMessages.invalidFileTitle, message);
    setFile(null);
  }, [headers]);

  const upload = useUploadTask(UPLOAD_TASK_POLL_MS, {
    onDone: () => {
      showSuccess(BlacklistMessages.uploadDone, BlacklistMessages.updated);
      setFile(null);
      void client.invalidateQueries({ queryKey: ['blacklist'] });
    },
    onFailed: (err) => {
      const text = failureText(err);
      setError(text);
      const refused = !(err instanceof ApiError) || err.status === 400;
      showDanger(refused ? BlacklistMessages.invalidFileTitle : BlacklistMessages.uploadFailedTitle, text);
    },
  });

  const send = () => {
    if (!file) return;
    setError(null);
    const columns = Object.fromEntries(props.columns.map((c) => [c.field, columnOf(c)]));
    void upload.start(async (onProgress) => {
      const started = await uploadBlacklist(props.kind, columns, file, onProgress);
      showSuccess(BlacklistMessages.uploadStarted);
      return started;
    });
  };

  return (
    <Paper withBorder p="md" data-testid={`blacklist-upload-${props.kind}`}>
      <Stack>
        <Title order={4}>{props.title}</Title>
        <Group align="flex-start">
          {props.columns.map((c) => (
            <TextInput
              key={c.field}
              label={c.label}
              value={names[c.field]}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setNames((n) => ({ ...n, [c.field]: value }));
              }}
              maxLength={200}
              disabled={upload.busy}
              w={200}
            />
          ))}
        </Group>
        <CsvDropzone
          file={file}
          onFile={(f) => {
            setFile(f);
            if (f) {
              setError(null);
              upload.reset();
            }
          }}
          emailColumn={columnOf(props.columns[0])}
          disabled={upload.busy}
        />
        <Group>
          <Button
            leftSection={<IconUpload size={16} />}
            onClick={send}
            disabled={!file || !headers || upload.busy}
            loading={upload.busy}
          >
            Uploaden
          </Button>
        </Group>
      </Stack>
      <UploadStatus upload={upload} doneText={BlacklistMessages.updated} error={error} />
    </Paper>
  );
}
