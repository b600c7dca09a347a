import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { DatasetMessages } from '../../../common/datasets';
import { showDanger } from '../../lib/alerts';
import { datasetKey, getDataset } from './api';

/** Loads one dataset (with its entries and test persons); a failure shows 'Unable to fetch datasets'. */
export function useDataset(partnerId: string, datasetId: string) {
  const dataset = useQuery({
    queryKey: datasetKey(partnerId, datasetId),
    queryFn: () => getDataset(partnerId, datasetId),
    retry: false,
  });
  useEffect(() => {
    if (dataset.error) showDanger(DatasetMessages.fetchFailed, dataset.error);
  }, [dataset.error]);
  return dataset;
}

/** The screen paths of a dataset, URL-encoded. */
export function datasetPaths(partnerId: string, datasetId: string) {
  const list = `/partners/${encodeURIComponent(partnerId)}/datasets`;
  const at = `${list}/${encodeURIComponent(datasetId)}`;
  return { list, at, edit: `${at}/edit`, testPersons: `${at}/testpersons` };
}
