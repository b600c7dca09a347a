import { ActionIcon, Button } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { type TestPerson, TestPersonMessages } from '../../../common/datasets';
import { fullName, GENDER_LABELS, type Gender } from '../../../common/person';
import { confirmAction } from '../../components/confirm';
import { ListView } from '../../components/list-view';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { datasetKey, deleteTestPerson, listTestPersons, testPersonsKey } from './api';
import { datasetPaths, useDataset } from './use-dataset';

/** /partners/{id}/datasets/{datasetId}/testpersons: the dataset's test persons with new, edit and delete. */
export function TestPersonListPage() {
  const { partnerId, datasetId } = useParams() as { partnerId: string; datasetId: string };
  const client = useQueryClient();
  const dataset = useDataset(partnerId, datasetId);
  const persons = useQuery({
    queryKey: testPersonsKey(partnerId, datasetId),
    queryFn: () => listTestPersons(partnerId, datasetId),
    retry: false,
  });
  useFailedQueryAlert(persons.error, TestPersonMessages.fetchFailed);
  const paths = datasetPaths(partnerId, datasetId);

  const remove = useMutation({
    mutationFn: (person: TestPerson) => deleteTestPerson(partnerId, datasetId, person._id),
    onSuccess: () => {
      showSuccess(TestPersonMessages.deleted);
      void client.invalidateQueries({ queryKey: datasetKey(partnerId, datasetId) });
    },
    onError: (err) => showDanger(TestPersonMessages.deleteFailed, err),
  });

  const label = (p: TestPerson) => fullName(p) || p.email;

  return (
    <>
      <PageTitle
        actions={
          <>
            <Button variant="default" component={Link} to={paths.edit}>
              Terug
            </Button>
            <Button component={Link} to={`${paths.testPersons}/new`}>
              Nieuwe testpersoon
            </Button>
          </>
        }
      >
        Testpersonen van {dataset.data?.name ?? 'bestand'}
      </PageTitle>
      <ListView<TestPerson>
        items={persons.error ? [] : persons.data}
        rowKey={(p) => p._id}
        searchText={(p) => `${fullName(p)} ${p.email} ${p._id}`}
        emptyMessage="Geen testpersonen gevonden."
        columns={[
          { header: 'Naam', render: (p) => fullName(p) },
          { header: 'Geslacht', render: (p) => GENDER_LABELS[p.gender as Gender] ?? p.gender },
          { header: 'E-mail', render: (p) => p.email },
        ]}
        actions={(p) => (
          <>
            <ActionIcon
              variant="subtle"
              component={Link}
              to={`${paths.testPersons}/${encodeURIComponent(p._id)}/edit`}
              aria-label={`Bewerk ${label(p)}`}
            >
              <IconPencil size={18} />
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Verwijder ${label(p)}`}
              onClick={() =>
                confirmAction({
                  title: 'Testpersoon verwijderen?',
                  message: `Weet je zeker dat je testpersoon ${label(p)} wilt verwijderen?`,
                  onConfirm: () => remove.mutate(p),
                })
              }
            >
              <IconTrash size={18} />
            </ActionIcon>
          </>
        )}
      />
    </>
  );
}
