import { ActionIcon, Button } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { newestFirst } from '../../../common/dataset-rates';
import {
  type Dataset,
  isRateType,
  RATE_TEXTS,
  type RateEntry,
  type RateType,
  rateFailedTitle,
} from '../../../common/datasets';
import { confirmAction } from '../../components/confirm';
import { ListView } from '../../components/list-view';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { formatDate } from '../../lib/dates';
import { formatDecimal } from '../../lib/numbers';
import { datasetKey, deleteRate } from './api';
import { datasetPaths, useDataset } from './use-dataset';

/** A dataset's entries of one type as {_id, start, end, value}, newest first. */
export function rateEntries(dataset: Dataset | undefined, type: RateType): RateEntry[] | undefined {
  if (!dataset) return undefined;
  const list =
    type === 'commission'
      ? dataset.commission.map((c) => ({ _id: c._id, start: c.start, end: c.end, value: c.amount }))
      : dataset.participation.map((p) => ({ _id: p._id, start: p.start, end: p.end, value: p.factor }));
  return newestFirst(list);
}

/** spec 000 §9: commission shows the amount plus the word commissie; participation shows the factor. */
export function rateText(type: RateType, value: number): string {
  return type === 'commission' ? `${formatDecimal(value)} commissie` : formatDecimal(value);
}

/**
 * Sends the user back to the dataset's edit screen when the `{type}` segment is neither
 * commission nor participation (spec 000 §2); returns the type when it is valid.
 */
export function useRateType(): RateType | null {
  const { partnerId, datasetId, type } = useParams() as {
    partnerId: string;
    datasetId: string;
    type?: string;
  };
  const navigate = useNavigate();
  const valid = isRateType(type);
  useEffect(() => {
    if (!valid) navigate(datasetPaths(partnerId, datasetId).edit, { replace: true });
  }, [valid, navigate, partnerId, datasetId]);
  return valid ? (type as RateType) : null;
}

/** /partners/{id}/datasets/{datasetId}/{type}: the dated entries of one type, newest first. */
export function RateListPage() {
  const type = useRateType();
  return type ? <RateList type={type} /> : null;
}

function RateList({ type }: { type: RateType }) {
  const { partnerId, datasetId } = useParams() as { partnerId: string; datasetId: string };
  const client = useQueryClient();
  const dataset = useDataset(partnerId, datasetId);
  const texts = RATE_TEXTS[type];
  const paths = datasetPaths(partnerId, datasetId);
  const base = `${paths.at}/${type}`;

  const remove = useMutation({
    mutationFn: (entry: RateEntry) => deleteRate(partnerId, datasetId, type, entry),
    onSuccess: () => {
      showSuccess(texts.deleted);
      void client.invalidateQueries({ queryKey: datasetKey(partnerId, datasetId) });
    },
    onError: (err) => showDanger(rateFailedTitle(type, 'verwijderen'), err),
  });

  return (
    <>
      <PageTitle
        actions={
          <>
            <Button variant="default" component={Link} to={paths.edit}>
              Terug
            </Button>
            <Button component={Link} to={`${base}/new`}>
              {type === 'commission' ? 'Nieuwe commissie' : 'Nieuwe extra inzet'}
            </Button>
          </>
        }
      >
        {texts.title} van {dataset.data?.name ?? 'bestand'}
      </PageTitle>
      <ListView<RateEntry>
        items={dataset.error ? [] : rateEntries(dataset.data, type)}
        rowKey={(e) => e._id}
        searchText={(e) => `${formatDate(e.start)} ${formatDate(e.end)} ${rateText(type, e.value)}`}
        emptyMessage={type === 'commission' ? 'Nog geen commissies.' : 'Nog geen extra inzet.'}
        columns={[
          { header: 'Start', render: (e) => formatDate(e.start) },
          { header: 'Eind', render: (e) => formatDate(e.end) },
          { header: type === 'commission' ? 'Commissie' : 'Factor', render: (e) => rateText(type, e.value) },
        ]}
        actions={(e) => {
          const period = `${formatDate(e.start)} t/m ${formatDate(e.end)}`;
          return (
            <>
              <ActionIcon
                variant="subtle"
                component={Link}
                to={`${base}/${e._id}/edit`}
                aria-label={`Bewerk ${period}`}
              >
                <IconPencil size={18} />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Verwijder ${period}`}
                onClick={() =>
                  confirmAction({
                    title: type === 'commission' ? 'Commissie verwijderen?' : 'Extra inzet verwijderen?',
                    message: `Weet je zeker dat je de ${texts.noun} van ${period} wilt verwijderen?`,
                    onConfirm: () => remove.mutate(e),
                  })
                }
              >
                <IconTrash size={18} />
              </ActionIcon>
            </>
          );
        }}
      />
    </>
  );
}
