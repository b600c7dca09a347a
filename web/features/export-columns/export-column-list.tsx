import { ActionIcon, Badge, Button } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import {
  DEFAULT_EXPORT_COLUMN_TYPE,
  type ExportColumn,
  ExportColumnMessages,
  exportColumnTypeLabel,
} from '../../../common/export-columns';
import { confirmAction } from '../../components/confirm';
import { ListView } from '../../components/list-view';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { deleteExportColumn, exportColumnsKey, listExportColumns } from './api';

/** /csv-columns 'CSV Export kolommen': the columns of mailing exports sorted by id, each with its type and delete. */
export function ExportColumnListPage() {
  const client = useQueryClient();
  const columns = useQuery({ queryKey: exportColumnsKey, queryFn: listExportColumns });
  useFailedQueryAlert(columns.error, ExportColumnMessages.fetchFailed);
  const remove = useMutation({
    mutationFn: deleteExportColumn,
    onSuccess: () => {
      showSuccess(ExportColumnMessages.deleted);
      void client.invalidateQueries({ queryKey: exportColumnsKey });
    },
    onError: (err) => showDanger(ExportColumnMessages.deleteFailed, err),
  });

  return (
    <>
      <PageTitle
        actions={
          <Button component={Link} to="/csv-columns/new">
            Nieuwe kolom
          </Button>
        }
      >
        CSV Export kolommen
      </PageTitle>
      <ListView<ExportColumn>
        items={columns.data}
        isLoading={columns.isPending && !columns.error}
        rowKey={(c) => c._id}
        searchText={(c) => `${c._id} ${c.type} ${exportColumnTypeLabel(c.type)}`}
        emptyMessage="Geen export kolommen gevonden."
        columns={[
          { header: 'Kolom', render: (c) => c._id },
          {
            header: 'Type',
            render: (c) => (
              <Badge variant="light" color="gray">
                {exportColumnTypeLabel(c.type || DEFAULT_EXPORT_COLUMN_TYPE)}
              </Badge>
            ),
          },
        ]}
        actions={(c) => (
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Verwijder ${c._id}`}
            onClick={() =>
              confirmAction({
                title: ExportColumnMessages.confirmTitle,
                message: ExportColumnMessages.confirm(c._id),
                onConfirm: () => remove.mutate(c._id),
              })
            }
          >
            <IconX size={18} />
          </ActionIcon>
        )}
      />
    </>
  );
}
