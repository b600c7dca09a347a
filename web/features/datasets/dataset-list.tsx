import { ActionIcon, Badge, Button, Group, Text, Tooltip } from '@mantine/core';
import { IconColumns, IconDownload, IconPencil, IconTrash, IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { type DatasetListItem, DatasetMessages } from '../../../common/datasets';
import { confirmAction } from '../../components/confirm';
import { CsvDownload } from '../../components/csv-download';
import { ListView } from '../../components/list-view';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { getPartner, partnerKey } from '../partners/api';
import { datasetCsvUrl, datasetsKey, deleteDataset, listDatasets } from './api';

const count = (n: number) => n.toLocaleString('nl-NL');

function RowAction(props: {
  label: string;
  to?: string;
  href?: string;
  color?: string;
  onClick?: () => void;
  icon: ReactNode;
}) {
  const link = props.to
    ? { component: Link, to: props.to }
    : props.href
      ? { component: 'a', href: props.href, download: true }
      : {};
  return (
    <Tooltip label={props.label}>
      <ActionIcon
        variant="subtle"
        color={props.color}
        aria-label={props.label}
        onClick={props.onClick}
        {...(link as object)}
      >
        {props.icon}
      </ActionIcon>
    </Tooltip>
  );
}

/** /partners/{id}/datasets: the partner's datasets with the total record count and their row actions. */
export function DatasetListPage() {
  const { partnerId } = useParams() as { partnerId: string };
  const client = useQueryClient();
  const partner = useQuery({
    queryKey: partnerKey(partnerId),
    queryFn: () => getPartner(partnerId),
    retry: false,
  });
  const datasets = useQuery({
    queryKey: datasetsKey(partnerId),
    queryFn: () => listDatasets(partnerId),
    retry: false,
  });
  useFailedQueryAlert(datasets.error, DatasetMessages.fetchFailed);

  const remove = useMutation({
    mutationFn: (ds: DatasetListItem) => deleteDataset(partnerId, ds._id),
    onSuccess: () => {
      showSuccess(DatasetMessages.deleted);
      void client.invalidateQueries({ queryKey: datasetsKey(partnerId) });
      void client.invalidateQueries({ queryKey: partnerKey(partnerId) });
    },
    onError: (err) => showDanger(DatasetMessages.deleteFailed, err),
  });

  const total = (datasets.data ?? []).reduce((sum, ds) => sum + ds.recordCount, 0);
  const base = `/partners/${encodeURIComponent(partnerId)}/datasets`;

  return (
    <>
      <PageTitle
        actions={
          <Group>
            <Button variant="default" component={Link} to="/partners">
              Terug
            </Button>
            <Button component={Link} to={`${base}/new`}>
              Nieuw bestand
            </Button>
          </Group>
        }
      >
        Bestanden van {partner.data?.name ?? partnerId}
      </PageTitle>
      {datasets.data && (
        <Text mb="sm" data-testid="total-records">
          Totaal aantal records: <strong>{count(total)}</strong>
        </Text>
      )}
      <ListView<DatasetListItem>
        items={datasets.error ? [] : datasets.data}
        rowKey={(ds) => ds._id}
        searchText={(ds) => `${ds.name} ${ds.description} ${ds.types.join(' ')} ${ds._id}`}
        emptyMessage="Geen bestanden gevonden."
        columns={[
          { header: 'Naam', render: (ds) => ds.name },
          { header: 'Omschrijving', render: (ds) => ds.description },
          {
            header: 'Labels',
            render: (ds) => (
              <Group gap={4}>
                {ds.types.map((t) => (
                  <Badge key={t} variant="light" size="sm">
                    {t}
                  </Badge>
                ))}
              </Group>
            ),
          },
          { header: 'Actief', render: (ds) => (ds.active ? 'Ja' : 'Nee') },
          { header: 'Sortering', render: (ds) => ds.sort },
          { header: 'Records', render: (ds) => count(ds.recordCount) },
        ]}
        actions={(ds) => {
          const at = `${base}/${encodeURIComponent(ds._id)}`;
          return (
            <>
              <RowAction
                label={`Upload naar ${ds.name}`}
                to={`/upload/${encodeURIComponent(partnerId)}/${encodeURIComponent(ds._id)}`}
                icon={<IconUpload size={18} />}
              />
              <CsvDownload
                label={`Download CSV van ${ds.name}`}
                href={datasetCsvUrl(partnerId, ds._id)}
                icon={<IconDownload size={18} />}
              />
              <RowAction
                label={`Map kolommen van ${ds.name}`}
                to={`${at}/headers`}
                icon={<IconColumns size={18} />}
              />
              <RowAction label={`Bewerk ${ds.name}`} to={`${at}/edit`} icon={<IconPencil size={18} />} />
              <RowAction
                label={`Verwijder ${ds.name}`}
                color="red"
                icon={<IconTrash size={18} />}
                onClick={() =>
                  confirmAction({
                    title: 'Bestand verwijderen?',
                    message: `Weet je zeker dat je bestand ${ds.name} wilt verwijderen? De ${count(ds.recordCount)} records, commissies, extra inzet en testpersonen van dit bestand worden ook verwijderd.`,
                    onConfirm: () => remove.mutate(ds),
                  })
                }
              />
            </>
          );
        }}
      />
    </>
  );
}
