import { Select, SimpleGrid } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { UploadMessages } from '../../../common/imports';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { datasetsKey, listDatasets } from '../datasets/api';
import { listPartners, partnersKey } from '../partners/api';

/**
 * The partner and dataset chosen on an upload screen, kept in the URL (`base`/{partnerId}/{datasetId}):
 * both lists, the chosen dataset, and setters that update the URL.
 */
export function useDatasetChoice(toPath: (partnerId?: string, datasetId?: string) => string) {
  const { partnerId, datasetId } = useParams();
  const navigate = useNavigate();
  const partners = useQuery({ queryKey: partnersKey, queryFn: listPartners });
  const datasets = useQuery({
    queryKey: datasetsKey(partnerId ?? ''),
    queryFn: () => listDatasets(partnerId!),
    enabled: Boolean(partnerId),
    retry: false,
  });
  useFailedQueryAlert(partners.error, UploadMessages.partnersFailed);
  useFailedQueryAlert(datasets.error, UploadMessages.datasetsFailed);

  const dataset = datasets.data?.find((ds) => ds._id === datasetId) ?? null;
  const partner = partners.data?.find((p) => p.id === partnerId) ?? null;
  return {
    partners,
    datasets,
    partnerId: partnerId ?? null,
    datasetId: datasetId ?? null,
    partner,
    dataset,
    setPartner: (id: string | null) => navigate(toPath(id ?? undefined), { replace: true }),
    setDataset: (id: string | null) => navigate(toPath(partnerId, id ?? undefined), { replace: true }),
  };
}

type Choice = ReturnType<typeof useDatasetChoice>;

/** The searchable partner and dataset selects of an upload screen. */
export function DatasetPicker({ choice, disabled }: { choice: Choice; disabled?: boolean }) {
  const partnerOptions = (choice.partners.data ?? []).map((p) => ({
    value: p.id,
    label: `${p.name} (${p.id})`,
  }));
  const datasetOptions = (choice.datasets.data ?? []).map((ds) => ({
    value: ds._id,
    label: ds.description ? `${ds.name} — ${ds.description}` : ds.name,
  }));
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <Select
        label="Partner"
        placeholder={choice.partners.isPending ? 'Laden...' : 'Kies een partner'}
        data={partnerOptions}
        value={choice.partner ? choice.partnerId : null}
        onChange={choice.setPartner}
        searchable
        nothingFoundMessage="Geen partners gevonden"
        disabled={disabled}
        withAsterisk
      />
      <Select
        label="Bestand"
        placeholder={
          !choice.partnerId
            ? 'Kies eerst een partner'
            : choice.datasets.isPending
              ? 'Laden...'
              : 'Kies een bestand'
        }
        data={datasetOptions}
        value={choice.dataset ? choice.datasetId : null}
        onChange={choice.setDataset}
        searchable
        nothingFoundMessage="Geen bestanden gevonden"
        disabled={disabled || !choice.partnerId}
        withAsterisk
      />
    </SimpleGrid>
  );
}
