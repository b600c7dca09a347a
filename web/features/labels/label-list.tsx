import { ActionIcon, Button } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { LabelMessages, labelDeletedMessage } from '../../../common/labels';
import { confirmAction } from '../../components/confirm';
import { ListView } from '../../components/list-view';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { deleteLabel, labelsKey, listLabels } from './api';

/**
 * /types: the labels with search and delete (with confirmation). Labels are plain names, so
 * there is no edit screen: renaming is delete and create (docs/decisions.md, Master data).
 */
export function LabelListPage() {
  const client = useQueryClient();
  const labels = useQuery({ queryKey: labelsKey, queryFn: listLabels });
  useFailedQueryAlert(labels.error, LabelMessages.fetchFailed);
  const remove = useMutation({
    mutationFn: deleteLabel,
    onSuccess: (_answer, name) => {
      showSuccess(labelDeletedMessage(name));
      void client.invalidateQueries({ queryKey: labelsKey });
    },
    onError: (err) => showDanger(LabelMessages.deleteFailed, err),
  });

  return (
    <>
      <PageTitle
        actions={
          <Button component={Link} to="/types/new">
            Nieuw label
          </Button>
        }
      >
        Labels
      </PageTitle>
      <ListView<string>
        items={labels.data}
        isLoading={labels.isPending && !labels.error}
        rowKey={(name) => name}
        searchText={(name) => name}
        emptyMessage="Geen labels gevonden."
        columns={[{ header: 'Label', render: (name) => name }]}
        actions={(name) => (
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Verwijder ${name}`}
            onClick={() =>
              confirmAction({
                title: 'Label verwijderen?',
                message: `Weet je zeker dat je het label ${name} wilt verwijderen?`,
                onConfirm: () => remove.mutate(name),
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
