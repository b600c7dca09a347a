import { useQuery } from '@tanstack/react-query';
import { DatasetMessages } from '../../../common/datasets';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { datasetKey, getDataset } from './api';

/** Loads one dataset (with its entries and test persons); a failure shows 'Unable to fetch datasets'. */
export function useDataset(partnerId: string, datasetId: string) {
  const dataset = useQuery({
    queryKey: datasetKey(partnerId, datasetId),
    queryFn: () => getDataset(partnerId, datasetId),
    retry: false,
  });
  useFailedQueryAlert(dataset.error, DatasetMessages.fetchFailed);
  return dataset;
}

/** The screen paths of a dataset, URL-encoded. */
export function datasetPaths(partnerId: string, datasetId: string) {
  const list = `/partners/${encodeURIComponent(partnerId)}/datasets`;
  const at = `${list}/${encodeURIComponent(datasetId)}`;
  return { list, at, edit: `${at}/edit`, testPersons: `${at}/testpersons` };
}
