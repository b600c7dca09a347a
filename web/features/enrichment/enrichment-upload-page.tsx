import { Autocomplete, Button, Group, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  canUploadEnrichment,
  ENRICHMENT_TASK_POLL_MS,
  EnrichmentMappingsSchema,
  EnrichmentMessages,
  EnrichmentNameSchema,
  enrichmentResultOf,
} from '../../../common/enrichment';
import { GlobalAttributeMessages } from '../../../common/global-attributes';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { globalMappingsKey, listGlobalMappings } from '../export-columns/api';
import { CsvDropzone, useCsvHeaders, useCsvParseFailedAlert } from '../uploads/csv-dropzone';
import { UploadStatus } from '../uploads/upload-status';
import { failureText, useUploadTask } from '../uploads/use-upload-task';
import { enrichmentFilesKey, uploadEnrichmentFile } from './api';

/** One column of the chosen file: its mapped attribute ('' for none) and Match (true) or Verrijk. */
interface Column {
  field: string;
  mapped: string;
  match: boolean;
}

function ColumnRow(props: {
  column: Column;
  attributes: string[];
  disabled: boolean;
  onChange: (c: Column) => void;
}) {
  const { column } = props;
  // spec 001 §2: Match and Verrijk are disabled until a mapping is chosen.
  const isMapped = column.mapped.trim() !== '';
  const choose = (match: boolean) => props.onChange({ ...column, match });
  return (
    <Table.Tr data-testid="enrichment-column" data-field={column.field}>
      <Table.Td>
        <Text fw={500}>{column.field || '(leeg)'}</Text>
      </Table.Td>
      <Table.Td>
        <Autocomplete
          aria-label={`Kenmerk voor ${column.field}`}
          placeholder="Kenmerk"
          data={props.attributes}
          limit={50}
          maxLength={200}
          value={column.mapped}
          disabled={props.disabled}
          onChange={(mapped) => props.onChange({ ...column, mapped })}
        />
      </Table.Td>
      <Table.Td>
        <Button.Group>
          <Button
            size="xs"
            variant={isMapped && column.match ? 'filled' : 'default'}
            disabled={!isMapped || props.disabled}
            aria-pressed={isMapped && column.match}
            aria-label={`Match ${column.field}`}
            onClick={() => choose(true)}
          >
            Match
          </Button>
          <Button
            size="xs"
            variant={isMapped && !column.match ? 'filled' : 'default'}
            disabled={!isMapped || props.disabled}
            aria-pressed={isMapped && !column.match}
            aria-label={`Verrijk ${column.field}`}
            onClick={() => choose(false)}
          >
            Verrijk
          </Button>
        </Button.Group>
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * /enrichment/upload (spec 001 §2, §5): one .csv file whose header row is read in the browser, a
 * required file name, per column a mapped attribute (autocomplete) and Match or Verrijk; the upload
 * button only with a mapped column on Match. The upload is a task polled every second (§9); when
 * it is done the list of files opens.
 */
export function EnrichmentUploadPage() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const headers = useCsvHeaders(file);
  useCsvParseFailedAlert(file, headers);
  const [columns, setColumns] = useState<Column[]>([]);
  useEffect(
    () => setColumns((headers ?? []).map((field) => ({ field, mapped: '', match: false }))),
    [headers],
  );
  const attributes = useQuery({ queryKey: globalMappingsKey, queryFn: listGlobalMappings });
  useFailedQueryAlert(attributes.error, GlobalAttributeMessages.fetchFailed);

  const upload = useUploadTask(ENRICHMENT_TASK_POLL_MS, {
    onDone: (task) => {
      const { saved, erased } = enrichmentResultOf(task.result);
      showSuccess(EnrichmentMessages.uploadedTitle, EnrichmentMessages.uploaded(saved, erased));
      void client.invalidateQueries({ queryKey: enrichmentFilesKey });
      void client.invalidateQueries({ queryKey: globalMappingsKey });
      navigate('/enrichment');
    },
    onFailed: (err) => {
      const text = failureText(err);
      setError(text);
      showDanger(EnrichmentMessages.failedTitle(file?.name ?? ''), text);
    },
  });

  const send = () => {
    if (!file) return;
    const parsedName = EnrichmentNameSchema.safeParse(name);
    setNameError(parsedName.success ? null : parsedName.error.issues[0].message);
    const mappings = EnrichmentMappingsSchema.safeParse(columns);
    if (!mappings.success) setError([...new Set(mappings.error.issues.map((i) => i.message))].join('\n'));
    if (!parsedName.success || !mappings.success) return;
    setError(null);
    void upload.start((onProgress) => uploadEnrichmentFile(parsedName.data, mappings.data, file, onProgress));
  };

  return (
    <>
      <PageTitle>Verrijkingsbestand uploaden</PageTitle>
      <Paper withBorder p="md" maw={900}>
        <Stack>
          <CsvDropzone
            file={file}
            headers={headers}
            onFile={(f) => {
              setFile(f);
              setError(null);
              upload.reset();
            }}
            disabled={upload.busy}
          />
          <TextInput
            label="Bestandsnaam"
            placeholder="Bestandsnaam"
            required
            maxLength={200}
            value={name}
            error={nameError}
            disabled={upload.busy}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setNameError(null);
            }}
          />
          {file && headers && headers.length > 0 && (
            <Table verticalSpacing={4} aria-label="Kolommen koppelen">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Kolom</Table.Th>
                  <Table.Th>Kenmerk</Table.Th>
                  <Table.Th>Match of verrijk</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {columns.map((column, i) => (
                  <ColumnRow
                    // biome-ignore lint/suspicious/noArrayIndexKey: a header may repeat a name; its place tells them apart.
                    key={i}
                    column={column}
                    attributes={attributes.data ?? []}
                    disabled={upload.busy}
                    onChange={(c) => setColumns((cs) => cs.map((x, j) => (j === i ? c : x)))}
                  />
                ))}
              </Table.Tbody>
            </Table>
          )}
          <Group>
            <Button
              leftSection={<IconUpload size={16} />}
              onClick={send}
              disabled={!file || !headers || !canUploadEnrichment(columns) || upload.busy}
              loading={upload.busy}
            >
              Uploaden
            </Button>
          </Group>
        </Stack>
        <UploadStatus upload={upload} doneText={EnrichmentMessages.uploadedTitle} error={error} />
      </Paper>
    </>
  );
}
