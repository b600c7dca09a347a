import {
  Alert,
  Anchor,
  Button,
  Center,
  Checkbox,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconCopy, IconDeviceFloppy, IconDownload, IconSearch } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { SEARCH_MAX_LENGTH } from '../../../common/constants';
import { MappingScreenMessages } from '../../../common/imports';
import { MappingMessages } from '../../../common/mappings';
import {
  findColumnMapping,
  mergeValueMappings,
  toValues,
  type ValueRow,
  valueRows,
  withValues,
} from '../../../common/value-mapping-editor';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { useDataset } from '../datasets/use-dataset';
import {
  getMappings,
  getUniqueValues,
  getValueMappings,
  importPaths,
  mappingsKey,
  saveMappings,
  uniqueValuesKey,
} from './api';

/**
 * /partners/{p}/datasets/{d}/{mapping}/mappings 'Kenmerken': the value mapping of one mapped file
 * column (spec 000 §4). One row per unique value with its count; existing value mappings of the
 * attribute can be loaded or copied in without overwriting; Opslaan writes the mapping list back.
 */
export function ValueMappingEditorPage() {
  const {
    partnerId,
    datasetId,
    mapping: field,
  } = useParams() as { partnerId: string; datasetId: string; mapping: string };
  const [search] = useSearchParams();
  const client = useQueryClient();
  const dataset = useDataset(partnerId, datasetId);
  const mappings = useQuery({
    queryKey: mappingsKey(partnerId, datasetId),
    queryFn: () => getMappings(partnerId, datasetId),
    retry: false,
  });
  const target = mappings.data ? findColumnMapping(mappings.data, field, search.get('mapped')) : null;
  const editable = Boolean(target && !target.encrypted);
  const unique = useQuery({
    queryKey: uniqueValuesKey(partnerId, datasetId, field),
    queryFn: () => getUniqueValues(partnerId, datasetId, field),
    enabled: editable,
    retry: false,
  });

  useEffect(() => {
    if (mappings.error) showDanger(MappingScreenMessages.loadFailed, mappings.error);
    else if (mappings.data && !target) showDanger(MappingMessages.noMapping, MappingMessages.noMappingBody);
    else if (target?.encrypted) showDanger(MappingMessages.encryptedTitle, MappingMessages.encryptedBody);
  }, [mappings.error, mappings.data, target]);
  useFailedQueryAlert(unique.error, MappingScreenMessages.uniqueValuesFailed);

  const [rows, setRows] = useState<ValueRow[] | null>(null);
  const [term, setTerm] = useState('');
  const [note, setNote] = useState('');
  useEffect(() => {
    if (rows || !target || target.encrypted || unique.isPending) return;
    setRows(valueRows(unique.data ?? [], target.values));
  }, [rows, target, unique.isPending, unique.data]);

  const load = useMutation({
    mutationFn: (copy: boolean) => getValueMappings(target!.mapped, copy),
    onSuccess: (loaded) => {
      const before = rows ?? [];
      const after = mergeValueMappings(before, loaded);
      const changed = after.filter((r, i) => !before[i] || before[i].mapped !== r.mapped).length;
      setRows(after);
      setNote(
        `${loaded.length} waardemappings gevonden, ${changed} ${changed === 1 ? 'waarde' : 'waarden'} overgenomen.`,
      );
    },
    onError: (err) => showDanger(MappingMessages.valueMappingsFailed, err),
  });
  const save = useMutation({
    mutationFn: () =>
      saveMappings(partnerId, datasetId, withValues(mappings.data!, target!, toValues(rows ?? []))),
    onSuccess: () => {
      showSuccess(MappingMessages.saved);
      void client.invalidateQueries({ queryKey: mappingsKey(partnerId, datasetId) });
    },
    onError: (err) => showDanger(MappingMessages.saveFailed, err),
  });

  const visible = useMemo(() => {
    const needle = term.trim().toLowerCase();
    return (rows ?? [])
      .map((row, index) => ({ row, index }))
      .filter(
        ({ row }) =>
          !needle || row.original.toLowerCase().includes(needle) || row.mapped.toLowerCase().includes(needle),
      );
  }, [rows, term]);
  const setRow = (index: number, patch: Partial<ValueRow>) =>
    setRows((rs) => (rs ?? []).map((r, i) => (i === index ? { ...r, ...patch } : r)));

  const headersPath = importPaths.headers(partnerId, datasetId);
  const back = (
    <Button variant="default" component={Link} to={headersPath}>
      Terug naar Map
    </Button>
  );
  const heading = <PageTitle actions={back}>Kenmerken</PageTitle>;

  if (mappings.isPending) {
    return (
      <>
        {heading}
        <Center py="xl">
          <Loader aria-label="Laden" />
        </Center>
      </>
    );
  }
  if (mappings.error || !target || target.encrypted) {
    const [title, body] = mappings.error
      ? [MappingScreenMessages.loadFailed, mappings.error.message]
      : !target
        ? [
            MappingMessages.noMapping,
            `${MappingMessages.noMappingBody}: de kolom ${field} heeft nog geen kenmerk.`,
          ]
        : [MappingMessages.encryptedTitle, MappingMessages.encryptedBody];
    return (
      <>
        {heading}
        {/* The title is in the red notification; the block keeps the explanation on the screen. */}
        <Alert color="red" data-testid="value-editor-blocked" aria-label={title}>
          <Stack gap="xs">
            <Text size="sm">{body}</Text>
            <Anchor component={Link} to={headersPath}>
              Terug naar het mappen van de kolommen
            </Anchor>
          </Stack>
        </Alert>
      </>
    );
  }

  return (
    <>
      {heading}
      <Text mb="md" c="dimmed">
        Waarden van kolom <strong>{field}</strong> (kenmerk <strong>{target.mapped}</strong>) in bestand{' '}
        {dataset.data?.name ?? datasetId}. Lege waarden worden niet gemapt; rijen zonder nieuwe waarde worden
        niet opgeslagen.
      </Text>
      <Stack>
        <Group>
          <Button
            variant="default"
            leftSection={<IconDownload size={16} />}
            onClick={() => load.mutate(false)}
            loading={load.isPending && load.variables === false}
            disabled={!rows}
          >
            Bestaande waardemappings laden
          </Button>
          <Button
            variant="default"
            leftSection={<IconCopy size={16} />}
            onClick={() => load.mutate(true)}
            loading={load.isPending && load.variables === true}
            disabled={!rows}
          >
            Kopieer
          </Button>
          {note && (
            <Text size="sm" data-testid="load-note">
              {note}
            </Text>
          )}
        </Group>
        <TextInput
          placeholder="Zoeken"
          aria-label="Zoeken"
          leftSection={<IconSearch size={16} />}
          maxLength={SEARCH_MAX_LENGTH}
          value={term}
          onChange={(e) => setTerm(e.currentTarget.value)}
          maw={400}
        />
        {!rows ? (
          <Center py="xl">
            <Loader aria-label="Laden" />
          </Center>
        ) : (
          <Paper withBorder>
            <Table verticalSpacing="xs" aria-label="Waarden">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Origineel</Table.Th>
                  <Table.Th>Aantal</Table.Th>
                  <Table.Th>Nieuwe waarde</Table.Th>
                  <Table.Th>Hoofdletterongevoelig</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {visible.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={4}>
                      <Text c="dimmed">Geen waarden gevonden.</Text>
                    </Table.Td>
                  </Table.Tr>
                )}
                {visible.map(({ row, index }) => (
                  <Table.Tr key={row.original} data-testid="value-row">
                    <Table.Td>{row.original === '' ? <Text c="dimmed">(leeg)</Text> : row.original}</Table.Td>
                    <Table.Td>{row.amount === null ? '–' : row.amount.toLocaleString('nl-NL')}</Table.Td>
                    <Table.Td>
                      <TextInput
                        aria-label={`Nieuwe waarde voor ${row.original}`}
                        value={row.mapped}
                        maxLength={1000}
                        disabled={row.original === ''}
                        onChange={(e) => setRow(index, { mapped: e.currentTarget.value })}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Checkbox
                        aria-label={`Hoofdletterongevoelig ${row.original}`}
                        checked={row.insensitive}
                        disabled={row.original === ''}
                        onChange={(e) => setRow(index, { insensitive: e.currentTarget.checked })}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Paper>
        )}
        <Group>
          <Button
            leftSection={<IconDeviceFloppy size={16} />}
            onClick={() => save.mutate()}
            loading={save.isPending}
            disabled={!rows}
          >
            Opslaan
          </Button>
        </Group>
      </Stack>
    </>
  );
}
