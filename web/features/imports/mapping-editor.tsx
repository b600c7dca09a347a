import {
  Alert,
  Anchor,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconDeviceFloppy, IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { GlobalAttributeMessages } from '../../../common/global-attributes';
import { MappingScreenMessages, type UploadResult } from '../../../common/imports';
import {
  checkRows,
  clearMapping,
  type EditorRow,
  extraRow,
  idCounter,
  mergeRows,
  toSaveBody,
  withPostcodeCompanions,
} from '../../../common/mapping-editor';
import { MappingMessages } from '../../../common/mappings';
import type { Task } from '../../../common/tasks';
import { CsvDownload } from '../../components/csv-download';
import { PageTitle } from '../../components/page-title';
import { useUnsavedChangesPrompt } from '../../components/unsaved-changes';
import { showDanger, showSuccess } from '../../lib/alerts';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { datasetCsvUrl } from '../datasets/api';
import { useDataset } from '../datasets/use-dataset';
import { globalMappingsKey, listGlobalMappings } from '../export-columns/api';
import { TaskProgress } from '../tasks/task-progress';
import { ResultCounters } from '../uploads/upload-status';
import {
  getHeaders,
  getMappings,
  headersKey,
  importPaths,
  mappingsKey,
  previewKey,
  saveMappings,
} from './api';
import { ColumnHead, ColumnRowView, ExtraHead, ExtraRowView } from './mapping-rows';
import { RecordPreview } from './record-preview';
import { RemapButton } from './remap-button';

const MappingScreenTexts = {
  /** A column's 'Waarden' with unsaved changes that cannot be saved: the title above the reasons. */
  valuesNeedSave: 'De waarden openen pas na opslaan, en opslaan lukt nog niet',
} as const;

/** Per row, its accessible name: the file column (extras: 'extra kenmerk n'), numbered from the second row of a column on. */
function rowLabels(rows: EditorRow[]): Map<string, string> {
  const seen = new Map<string, number>();
  const labels = new Map<string, string>();
  for (const row of rows) {
    const base = row.type === 'column' ? row.field : 'extra kenmerk';
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    labels.set(row.id, row.type === 'extra' ? `${base} ${n}` : n > 1 ? `${base} (${n})` : base);
  }
  return labels;
}

/**
 * /partners/{p}/datasets/{d}/headers 'Map': the column mapping editor (spec 000 §4). Rows merge the
 * saved mapping with the last file's unmapped headers; mapping postcode adds its pc companions;
 * Opslaan saves the mapped rows; 'Mapping doorvoeren' applies the saved mapping to the records.
 */
export function MappingEditorPage() {
  const { partnerId, datasetId } = useParams() as { partnerId: string; datasetId: string };
  const client = useQueryClient();
  const dataset = useDataset(partnerId, datasetId);
  const headers = useQuery({
    queryKey: headersKey(partnerId, datasetId),
    queryFn: () => getHeaders(partnerId, datasetId),
    retry: false,
  });
  const mappings = useQuery({
    queryKey: mappingsKey(partnerId, datasetId),
    queryFn: () => getMappings(partnerId, datasetId),
    retry: false,
  });
  const suggestions = useQuery({ queryKey: globalMappingsKey, queryFn: listGlobalMappings });
  const loadError = headers.error ?? mappings.error;
  useFailedQueryAlert(loadError, MappingScreenMessages.loadFailed);
  useFailedQueryAlert(suggestions.error, GlobalAttributeMessages.fetchFailed);

  const makeId = useRef(idCounter('n')).current;
  const [rows, setRows] = useState<EditorRow[] | null>(null);
  const [savedBody, setSavedBody] = useState('');
  const [showErrors, setShowErrors] = useState(false);
  const [remapResult, setRemapResult] = useState<UploadResult | null>(null);
  // The running remap (undefined until first read), null when none runs.
  const [remapTask, setRemapTask] = useState<Task | undefined | null>(null);
  useEffect(() => {
    if (rows || !headers.data || !mappings.data) return;
    const merged = mergeRows(mappings.data, headers.data);
    setRows(merged);
    setSavedBody(JSON.stringify(toSaveBody(merged)));
  }, [rows, headers.data, mappings.data]);

  const check = useMemo(() => (rows ? checkRows(rows) : null), [rows]);
  const dirty = rows !== null && JSON.stringify(check?.body) !== savedBody;
  const labels = useMemo(() => rowLabels(rows ?? []), [rows]);
  const fieldCounts = useMemo(() => {
    const counts = new Map<string, number>();
    for (const r of rows ?? [])
      if (r.type === 'column' && r.mapped.trim()) counts.set(r.field, (counts.get(r.field) ?? 0) + 1);
    return counts;
  }, [rows]);

  const update = useCallback((id: string, change: (rows: EditorRow[], index: number) => EditorRow[]) => {
    setRows((current) => {
      if (!current) return current;
      const index = current.findIndex((r) => r.id === id);
      return index < 0 ? current : change(current, index);
    });
  }, []);
  const onChange = useCallback(
    (id: string, patch: Partial<EditorRow>) =>
      update(id, (rs, i) => rs.map((r, j) => (j === i ? ({ ...r, ...patch } as EditorRow) : r))),
    [update],
  );
  const onMapped = useCallback(
    (id: string, mapped: string) =>
      update(id, (rs, i) => {
        const next = rs.map((r, j) => (j === i ? { ...r, mapped } : r));
        return withPostcodeCompanions(next, i, makeId);
      }),
    [update, makeId],
  );
  // An empty attribute removes the mapping once the user leaves the field (spec 000 §4).
  const onBlurMapped = useCallback(
    (id: string) =>
      update(id, (rs, i) =>
        rs[i].type === 'column' && rs[i].mapped.trim() === '' ? clearMapping(rs, i) : rs,
      ),
    [update],
  );
  const onRemove = useCallback((id: string) => update(id, clearMapping), [update]);

  const save = useMutation({
    mutationFn: (body: ReturnType<typeof toSaveBody>) => saveMappings(partnerId, datasetId, body),
    onSuccess: (answer, body) => {
      showSuccess(
        MappingMessages.saved,
        answer.message === MappingMessages.saved ? undefined : answer.message,
      );
      setSavedBody(JSON.stringify(body));
      setShowErrors(false);
      void client.invalidateQueries({ queryKey: mappingsKey(partnerId, datasetId) });
      void client.invalidateQueries({ queryKey: globalMappingsKey });
      void client.invalidateQueries({ queryKey: previewKey(partnerId, datasetId) });
    },
    onError: (err) => showDanger(MappingMessages.saveFailed, err),
  });
  const onSave = () => {
    if (!check) return;
    if (check.messages.length > 0) {
      setShowErrors(true);
      showDanger(MappingMessages.saveFailed, check.messages.join('\n'));
      return;
    }
    save.mutate(check.body);
  };

  // Leaving with unsaved changes asks first.
  const { prompt, allowNextNavigation } = useUnsavedChangesPrompt(dirty);
  const navigate = useNavigate();
  // A column's 'Waarden' needs its mapping saved (the value editor reads the saved mapping): with
  // unsaved changes it saves them first and then opens the values, or says why it cannot.
  const latest = useRef({ dirty, check, saveAsync: save.mutateAsync });
  latest.current = { dirty, check, saveAsync: save.mutateAsync };
  const onOpenValues = useCallback(
    (href: string) => {
      const { dirty: isDirty, check: current, saveAsync } = latest.current;
      if (!isDirty || !current) {
        void navigate(href);
        return;
      }
      if (current.messages.length > 0) {
        setShowErrors(true);
        showDanger(MappingScreenTexts.valuesNeedSave, current.messages.join('\n'));
        return;
      }
      saveAsync(current.body).then(
        () => {
          allowNextNavigation();
          void navigate(href);
        },
        // onError of the mutation has shown why the save failed; the editor stays.
        () => {},
      );
    },
    [navigate, allowNextNavigation],
  );

  const title = (
    <PageTitle
      actions={
        <>
          <Button variant="default" component={Link} to={importPaths.datasets(partnerId)}>
            Terug naar bestanden
          </Button>
          <CsvDownload href={datasetCsvUrl(partnerId, datasetId)} label="Download CSV" />
        </>
      }
    >
      Map
    </PageTitle>
  );
  if (loadError) {
    return (
      <>
        {title}
        <Alert color="red" aria-label={MappingScreenMessages.loadFailed}>
          {loadError.message}
        </Alert>
      </>
    );
  }
  if (!rows) {
    return (
      <>
        {title}
        <Center py="xl">
          <Loader aria-label="Laden" />
        </Center>
      </>
    );
  }

  const columns = rows.filter((r) => r.type === 'column');
  const extras = rows.filter((r) => r.type === 'extra');
  const rowProps = (row: EditorRow) => ({
    label: labels.get(row.id) ?? '',
    suggestions: suggestions.data ?? [],
    errors: showErrors ? check?.rowErrors[row.id] : undefined,
    onChange,
    onMapped,
    onBlurMapped,
    onRemove,
  });
  return (
    <>
      {title}
      {prompt}
      <Text mb="md" c="dimmed">
        Kolommen van bestand <strong>{dataset.data?.name ?? datasetId}</strong> van partner {partnerId}. Kies
        per kolom het kenmerk waarop hij wordt opgeslagen; kolommen zonder kenmerk worden alleen bewaard.
      </Text>
      {headers.data?.length === 0 && (
        <Alert color="blue" mb="md" title="Geen kolommen">
          {MappingScreenMessages.noFileYet}{' '}
          <Anchor component={Link} to={importPaths.upload(partnerId, datasetId)}>
            Upload CSV
          </Anchor>
        </Alert>
      )}
      <Stack>
        <Paper withBorder>
          <Table.ScrollContainer minWidth={1200}>
            <Table verticalSpacing="xs" aria-label="Kolommen">
              <ColumnHead />
              <Table.Tbody>
                {columns.map((row) => (
                  <ColumnRowView
                    key={row.id}
                    row={row}
                    {...rowProps(row)}
                    onOpenValues={onOpenValues}
                    valuesHref={
                      row.mapped.trim()
                        ? importPaths.values(
                            partnerId,
                            datasetId,
                            row.field,
                            (fieldCounts.get(row.field) ?? 0) > 1 ? row.mapped.trim() : undefined,
                          )
                        : null
                    }
                  />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
        <Title order={4}>Extra kenmerken</Title>
        <Text size="sm" c="dimmed">
          Een extra kenmerk geeft elk record van dit bestand dezelfde vaste waarde.
        </Text>
        {extras.length > 0 && (
          <Paper withBorder>
            <Table verticalSpacing="xs" aria-label="Extra kenmerken">
              <ExtraHead />
              <Table.Tbody>
                {extras.map((row) => (
                  <ExtraRowView key={row.id} row={row} {...rowProps(row)} />
                ))}
              </Table.Tbody>
            </Table>
          </Paper>
        )}
        <Group>
          <Button
            variant="default"
            leftSection={<IconPlus size={16} />}
            onClick={() => setRows((rs) => [...(rs ?? []), extraRow(makeId())])}
          >
            Extra kenmerk toevoegen
          </Button>
        </Group>
        <Group>
          <Button leftSection={<IconDeviceFloppy size={16} />} onClick={onSave} loading={save.isPending}>
            Opslaan
          </Button>
          <RemapButton
            partnerId={partnerId}
            datasetId={datasetId}
            dirty={dirty}
            onFinished={setRemapResult}
            onTask={setRemapTask}
          />
          {dirty && (
            <Text size="sm" c="orange" data-testid="unsaved">
              {MappingScreenMessages.unsaved}
            </Text>
          )}
        </Group>
        {remapTask !== null && <TaskProgress task={remapTask} />}
        {remapResult && <ResultCounters result={remapResult} />}
        <RecordPreview partnerId={partnerId} datasetId={datasetId} />
      </Stack>
    </>
  );
}
