import { ActionIcon, Button, Group } from '@mantine/core';
import { IconTrash, IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { type EnrichmentFile, EnrichmentMessages } from '../../../common/enrichment';
import { confirmAction } from '../../components/confirm';
import { ListView } from '../../components/list-view';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { formatDateTime } from '../../lib/dates';
import { formatCount } from '../../lib/numbers';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { deleteEnrichmentFile, enrichmentFilesKey, listEnrichmentFiles } from './api';

/**
 * /enrichment 'Verrijkingsbestanden' (spec 001 §2): name, date, record count (matched addresses)
 * and delete per row, sorted by date ascending (the server's order).
 */
export function EnrichmentListPage() {
  const client = useQueryClient();
  const files = useQuery({ queryKey: enrichmentFilesKey, queryFn: listEnrichmentFiles });
  useFailedQueryAlert(files.error, EnrichmentMessages.listFailed);
  const remove = useMutation({
    mutationFn: deleteEnrichmentFile,
    onSuccess: (answer, name) => {
      showSuccess(answer.message, name);
      void client.invalidateQueries({ queryKey: enrichmentFilesKey });
    },
    onError: (err) => showDanger(EnrichmentMessages.deleteFailed, err),
  });

  return (
    <>
      <Group justify="space-between" align="flex-start">
        <PageTitle>Verrijkingsbestanden</PageTitle>
        <Button component={Link} to="/enrichment/upload" leftSection={<IconUpload size={16} />}>
          Verrijkingsbestand uploaden
        </Button>
      </Group>
      <ListView<EnrichmentFile>
        items={files.data}
        isLoading={files.isPending && !files.error}
        rowKey={(f) => f._id}
        searchText={(f) => f.name}
        emptyMessage={EnrichmentMessages.empty}
        columns={[
          { header: 'Naam', render: (f) => f.name },
          { header: 'Datum', render: (f) => formatDateTime(f.date) },
          { header: 'Aantal adressen', render: (f) => formatCount(f.recordCount) },
        ]}
        actions={(f) => (
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Verwijder ${f.name}`}
            loading={remove.isPending && remove.variables === f.name}
            onClick={() =>
              confirmAction({
                title: EnrichmentMessages.deleteTitle,
                message: EnrichmentMessages.deleteConfirm(f.name),
                onConfirm: () => remove.mutate(f.name),
              })
            }
          >
            <IconTrash size={18} />
          </ActionIcon>
        )}
      />
    </>
  );
}
