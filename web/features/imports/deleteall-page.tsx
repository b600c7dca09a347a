import { Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { UPLOAD_TASK_POLL_MS } from '../../../common/constants';
import { DeleteAllMessages, hasEmailColumn, UploadMessages, uploadResultOf } from '../../../common/imports';
import { confirmAction } from '../../components/confirm';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { CsvDropzone, useCsvHeaders } from '../uploads/csv-dropzone';
import { UploadStatus } from '../uploads/upload-status';
import { failureText, useUploadTask } from '../uploads/use-upload-task';
import { importPaths, uploadDeleteAll } from './api';
import { DatasetPicker, useDatasetChoice } from './dataset-picker';

const EMAIL_COLUMN_MAX = 200;

/**
 * /deleteall/{partnerId?}/{datasetId?} 'Verwijder uit bestand': removes the addresses listed in a
 * CSV file (column 'E-mailkolom') from the chosen dataset, after a confirmation; the task is
 * followed until it reports how many addresses were removed.
 */
export function DeleteAllPage() {
  const choice = useDatasetChoice(importPaths.deleteAll);
  const client = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [emailColumn, setEmailColumn] = useState('email');
  const [error, setError] = useState<string | null>(null);
  const [doneText, setDoneText] = useState('');
  const columnError = emailColumn.trim() === '' ? DeleteAllMessages.emailColumnRequired : null;
  // Deleting stays off until the file's first row is read and holds the e-mail column.
  const headers = useCsvHeaders(file);
  const hasEmail = headers !== null && hasEmailColumn(headers, emailColumn);

  const upload = useUploadTask(UPLOAD_TASK_POLL_MS, {
    onDone: (task) => {
      const { deleted = 0, read = 0 } = uploadResultOf(task.result);
      const text = DeleteAllMessages.done(deleted, read);
      setDoneText(text);
      showSuccess(DeleteAllMessages.doneTitle(deleted), text);
      setFile(null);
      if (choice.partnerId) void client.invalidateQueries({ queryKey: ['datasets', choice.partnerId] });
    },
    onFailed: (err) => {
      const text = failureText(err);
      setError(text);
      showDanger(DeleteAllMessages.failedTitle, text);
    },
  });

  const ready = Boolean(choice.partner && choice.dataset && file && hasEmail && !columnError) && !upload.busy;
  const send = () => {
    const { partnerId, dataset } = choice;
    if (!partnerId || !dataset || !file) {
      showDanger(UploadMessages.refusedTitle, UploadMessages.chooseFirst);
      return;
    }
    confirmAction({
      title: DeleteAllMessages.confirmTitle,
      message: DeleteAllMessages.confirm(dataset.name),
      onConfirm: () => {
        setError(null);
        void upload.start((onProgress) =>
          uploadDeleteAll(partnerId, dataset._id, emailColumn.trim(), file, onProgress),
        );
      },
    });
  };

  return (
    <>
      <PageTitle>{DeleteAllMessages.title}</PageTitle>
      <Paper withBorder p="md" maw={900}>
        <Stack>
          <DatasetPicker choice={choice} disabled={upload.busy} />
          <TextInput
            label="E-mailkolom"
            description="De kolom van het CSV-bestand met de e-mailadressen die uit het bestand moeten worden verwijderd"
            value={emailColumn}
            onChange={(e) => setEmailColumn(e.currentTarget.value)}
            maxLength={EMAIL_COLUMN_MAX}
            error={columnError}
            disabled={upload.busy}
            maw={420}
            withAsterisk
          />
          <CsvDropzone
            file={file}
            onFile={(f) => {
              setFile(f);
              if (f) upload.reset();
            }}
            emailColumn={emailColumn.trim() || 'email'}
            headers={headers}
            disabled={upload.busy}
          />
          <Text size="sm" c="dimmed">
            Alleen de adressen uit het CSV-bestand worden uit het gekozen bestand verwijderd; de rest blijft
            staan.
          </Text>
          <Group>
            <Button
              color="red"
              leftSection={<IconTrash size={16} />}
              onClick={send}
              disabled={!ready}
              loading={upload.busy}
            >
              Verwijderen
            </Button>
          </Group>
        </Stack>
        <UploadStatus upload={upload} doneText={doneText} error={error} />
      </Paper>
    </>
  );
}
