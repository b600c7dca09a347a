import { Anchor, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { UPLOAD_TASK_POLL_MS } from '../../../common/constants';
import {
  emailColumnOf,
  hasEmailColumn,
  UploadMessages,
  uploadResultOf,
  uploadSummary,
} from '../../../common/imports';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { CsvDropzone, useCsvHeaders } from '../uploads/csv-dropzone';
import { UploadStatus } from '../uploads/upload-status';
import { failureText, useUploadTask } from '../uploads/use-upload-task';
import { importPaths, uploadImport } from './api';
import { DatasetPicker, useDatasetChoice } from './dataset-picker';

/**
 * /upload/{partnerId?}/{datasetId?} 'Upload CSV': choose partner and dataset (kept in the URL),
 * drop one .csv file, upload it with progress, then follow the import task every 2 s until it is
 * done ('Upload geslaagd' with the counters) or failed ('Error while uploading {file}').
 */
export function UploadPage() {
  const choice = useDatasetChoice(importPaths.upload);
  const client = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [fileName, setFileName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const emailColumn = emailColumnOf(choice.dataset);
  // Uploading stays off until the file's first row is read and holds the e-mail column.
  const headers = useCsvHeaders(file);
  const hasEmail = headers !== null && hasEmailColumn(headers, emailColumn);

  const upload = useUploadTask(UPLOAD_TASK_POLL_MS, {
    onDone: (task, elapsedMs) => {
      showSuccess(UploadMessages.completeTitle, uploadSummary(uploadResultOf(task.result), elapsedMs));
      setFile(null);
      if (choice.partnerId) void client.invalidateQueries({ queryKey: ['datasets', choice.partnerId] });
    },
    onFailed: (err) => {
      const text = failureText(err);
      setError(text);
      showDanger(UploadMessages.failedTitle(fileName || file?.name || ''), text);
    },
  });

  const ready = Boolean(choice.partner && choice.dataset && file && hasEmail) && !upload.busy;
  const send = () => {
    if (!choice.partnerId || !choice.dataset || !file) {
      showDanger(UploadMessages.refusedTitle, UploadMessages.chooseFirst);
      return;
    }
    const dataset = choice.dataset;
    const partnerId = choice.partnerId;
    setError(null);
    setFileName(file.name);
    void upload.start((onProgress) => uploadImport(partnerId, dataset.name, file, onProgress));
  };

  return (
    <>
      <PageTitle>Upload CSV</PageTitle>
      <Paper withBorder p="md" maw={900}>
        <Stack>
          <DatasetPicker choice={choice} disabled={upload.busy} />
          <Text size="sm" data-testid="upload-help">
            Het CSV-bestand moet een kolom bevatten met de naam '{emailColumn}'. Alle rijen van het bestand
            vervangen de huidige inhoud van het gekozen bestand: adressen die niet in het nieuwe bestand
            staan, worden verwijderd.
          </Text>
          <CsvDropzone
            file={file}
            onFile={(f) => {
              setFile(f);
              if (f) upload.reset();
            }}
            emailColumn={emailColumn}
            headers={headers}
            disabled={upload.busy}
          />
          <Group>
            <Button
              leftSection={<IconUpload size={16} />}
              onClick={send}
              disabled={!ready}
              loading={upload.busy}
            >
              Uploaden
            </Button>
            {choice.partnerId && choice.dataset && (
              <>
                <Anchor component={Link} to={importPaths.headers(choice.partnerId, choice.dataset._id)}>
                  Kolommen mappen
                </Anchor>
                <Anchor component={Link} to={importPaths.datasets(choice.partnerId)}>
                  Naar de bestanden van deze partner
                </Anchor>
              </>
            )}
          </Group>
        </Stack>
        <UploadStatus upload={upload} doneText={UploadMessages.uploaded} error={error} />
      </Paper>
    </>
  );
}
