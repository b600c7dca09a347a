import { Badge, Group, Loader, Table, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { LIVE_COUNT_PAUSE_MS, LiveCountMessages, PREVIEW_SIZE } from '../../../common/live-count';
import { ScrollTable } from '../../components/scroll-table';
import { type BuilderDraft, countKeyOf } from '../selections/builder-store';
import { previewDraft } from './api';
import { draftBodyOf, pendingFiles, pendingFileText } from './live-count-runner';

/**
 * The preview: the first PREVIEW_SIZE addresses the draft's count finds, each with the dataset it
 * would be allocated from and that record's attributes (an encrypted one reads 'versleuteld').
 * Read when shown, again for every change of the tree or settings (the one in flight aborted).
 */
export function PreviewPanel({ draft }: { draft: BuilderDraft }) {
  const pending = pendingFiles(draft);
  const { campaign, mailing } = draft;
  // After the same pause as the count: typing in a line does not read a preview per key.
  const [key] = useDebouncedValue(countKeyOf(draft), LIVE_COUNT_PAUSE_MS);
  const preview = useQuery({
    queryKey: ['selection-preview', campaign, mailing, draft.selection, key],
    queryFn: ({ signal }) => previewDraft(campaign ?? '', mailing ?? '', draftBodyOf(draft), signal),
    enabled: Boolean(campaign && mailing) && pending.length === 0,
    staleTime: 30_000,
    retry: false,
  });
  if (pending.length > 0) return <Text c="dimmed">{pendingFileText(pending)}</Text>;
  if (preview.isPending)
    return (
      <Group gap={6}>
        <Loader size="xs" />
        <Text size="sm" c="dimmed">
          Voorbeeld laden...
        </Text>
      </Group>
    );
  if (preview.isError)
    return (
      <Text c="red" data-testid="preview-error">
        {preview.error.message}
      </Text>
    );
  const rows = preview.data.rows;
  // The tree changed (the pause not over yet, or the new preview on its way): the rows shown are
  // the previous ones, greyed, and say so.
  const isRefreshing = key !== countKeyOf(draft) || preview.isFetching;
  const refreshing = isRefreshing && (
    <Group gap={6} mb="xs" data-testid="preview-refreshing">
      <Loader size="xs" />
      <Text size="sm" c="dimmed">
        Voorbeeld wordt bijgewerkt...
      </Text>
    </Group>
  );
  if (rows.length === 0)
    return (
      <>
        {refreshing}
        <Text c="dimmed" style={{ opacity: isRefreshing ? 0.5 : 1 }}>
          Geen adressen gevonden voor deze selectie.
        </Text>
      </>
    );
  return (
    <>
      {refreshing}
      <div data-stale={isRefreshing} style={{ opacity: isRefreshing ? 0.5 : 1 }}>
        <Text size="sm" c="dimmed" mb="xs">
          De eerste {rows.length} adressen (ten hoogste {PREVIEW_SIZE}), met het bestand waaruit elk zou
          worden toegewezen.
        </Text>
        <ScrollTable striped verticalSpacing={4} data-testid="preview-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>E-mailadres</Table.Th>
              <Table.Th>Bestand</Table.Th>
              <Table.Th>Kenmerken</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.email} data-testid="preview-row">
                <Table.Td>{row.email}</Table.Td>
                <Table.Td>{row.dataset.name}</Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {row.values.map((v) => (
                      <Badge key={v.name} variant="light" color={v.encrypted ? 'gray' : 'blue'} tt="none">
                        {v.label}: {v.encrypted ? LiveCountMessages.encrypted : (v.value ?? '')}
                      </Badge>
                    ))}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </ScrollTable>
      </div>
    </>
  );
}
