import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Modal,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconChartBar, IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { UPLOAD_TASK_POLL_MS } from '../../../common/constants';
import { type Mailing, MailingMessages } from '../../../common/mailings';
import {
  RESULT_DATE_FORMATS,
  RESULTS_COLUMNS,
  RESULTS_COUNTERS,
  ResultsFileMessages,
  resultDateExample,
  resultsCountsOf,
} from '../../../common/results-file';
import type { Task } from '../../../common/tasks';
import { showDanger, showSuccess } from '../../lib/alerts';
import { SkippedRows } from '../imports/skipped-rows';
import { TaskProgress } from '../tasks/task-progress';
import { CsvDropzone } from '../uploads/csv-dropzone';
import { failureText, useUploadTask } from '../uploads/use-upload-task';
import { mailingsKey, uploadResults } from './api';

/** A mailing row's results upload (DESIGN §6): the icon that opens the upload screen of its results file. */
export function ResultsUploadButton({ mailing }: { mailing: Mailing }) {
  const [isOpen, setOpen] = useState(false);
  return (
    <>
      <Tooltip label="Resultaten uploaden">
        <ActionIcon
          variant="subtle"
          aria-label={`Resultaten uploaden voor ${mailing.name}`}
          onClick={() => setOpen(true)}
        >
          <IconChartBar size={18} />
        </ActionIcon>
      </Tooltip>
      {isOpen && <ResultsUploadModal mailing={mailing} onClose={() => setOpen(false)} />}
    </>
  );
}

/**
 * The upload screen of a mailing's results file: what the file must hold (the columns and date
 * forms the server reads, from common/results-file.ts), the file, and when its task ends the rows
 * read, stored and skipped by reason with the skipped rows' download.
 */
function ResultsUploadModal({ mailing, onClose }: { mailing: Mailing; onClose: () => void }) {
  const client = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const upload = useUploadTask(UPLOAD_TASK_POLL_MS, {
    onDone: (task) => {
      showSuccess(MailingMessages.uploadDone, countsText(task));
      void client.invalidateQueries({ queryKey: mailingsKey(mailing.campaign) });
    },
    onFailed: (err) => {
      setError(failureText(err));
      showDanger(MailingMessages.uploadFailed, err);
    },
  });

  const handleUpload = () => {
    if (!file) return;
    setError(null);
    void upload.start((onProgress) => uploadResults(mailing.campaign, mailing._id, file, onProgress));
  };

  return (
    <Modal opened onClose={onClose} size="lg" title={ResultsFileMessages.title(mailing.name)}>
      <Stack gap="md">
        <ResultsFileRules />
        <CsvDropzone
          file={file}
          onFile={(f) => {
            setFile(f);
            upload.reset();
          }}
          emailColumn="email"
          disabled={upload.busy}
        />
        <Group>
          <Button
            leftSection={<IconUpload size={16} />}
            onClick={handleUpload}
            disabled={!file}
            loading={upload.busy}
          >
            {ResultsFileMessages.upload}
          </Button>
          <Button variant="default" onClick={onClose}>
            Sluiten
          </Button>
        </Group>
        {upload.phase === 'uploading' && (
          <Progress value={upload.progress} animated aria-label={`Upload ${upload.progress}%`} />
        )}
        {upload.phase === 'processing' && <TaskProgress task={upload.task} />}
        {upload.phase === 'done' && upload.task && <ResultsSummary task={upload.task} />}
        {upload.phase === 'failed' && error && (
          <Alert color="red" title={MailingMessages.uploadFailed}>
            {error}
          </Alert>
        )}
      </Stack>
    </Modal>
  );
}

/** The columns a results file needs and the forms its dates may take. */
function ResultsFileRules() {
  return (
    <Stack gap="xs">
      <Text size="sm">{ResultsFileMessages.intro}</Text>
      <Table withTableBorder aria-label={ResultsFileMessages.columnsLabel}>
        <Table.Tbody>
          {RESULTS_COLUMNS.map((c) => (
            <Table.Tr key={c.name}>
              <Table.Th scope="row">
                <Code>{c.name}</Code>
              </Table.Th>
              <Table.Td>
                <Badge size="xs" variant="light" color={c.required ? 'blue' : 'gray'}>
                  {c.required ? ResultsFileMessages.required : ResultsFileMessages.optional}
                </Badge>
              </Table.Td>
              <Table.Td>{c.description}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="sm" fw={600}>
        {ResultsFileMessages.datesTitle}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={4} aria-label={ResultsFileMessages.datesLabel}>
        {RESULT_DATE_FORMATS.map((format) => (
          <Text key={format} size="sm">
            <Code>{format}</Code>{' '}
            <Text span c="dimmed" size="sm">
              ({resultDateExample(format)})
            </Text>
          </Text>
        ))}
      </SimpleGrid>
      <Text size="sm" c="dimmed">
        {ResultsFileMessages.dates}
      </Text>
    </Stack>
  );
}

/** A finished results task's counts as one line (the success alert). */
function countsText(task: Task): string {
  const counts = resultsCountsOf(task.result);
  return RESULTS_COUNTERS.map(([key, label]) => `${label}: ${counts[key].toLocaleString('nl-NL')}`).join(
    ', ',
  );
}

/** What a finished results task did: rows read, stored, already stored and skipped, and why. */
function ResultsSummary({ task }: { task: Task }) {
  const counts = resultsCountsOf(task.result);
  return (
    <Stack gap="sm" aria-live="polite">
      <Alert color="green" title={ResultsFileMessages.done} />
      <Table withTableBorder maw={360} aria-label={ResultsFileMessages.resultLabel}>
        <Table.Tbody>
          {RESULTS_COUNTERS.map(([key, label]) => (
            <Table.Tr key={key}>
              <Table.Th scope="row">{label}</Table.Th>
              <Table.Td data-testid={`results-count-${key}`}>{counts[key].toLocaleString('nl-NL')}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <SkippedRows task={task} />
    </Stack>
  );
}
