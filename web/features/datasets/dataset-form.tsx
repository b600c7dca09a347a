import {
  Button,
  Checkbox,
  Group,
  Loader,
  MultiSelect,
  Paper,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import {
  type Dataset,
  type DatasetInput,
  DatasetInputSchema,
  DatasetMessages,
} from '../../../common/datasets';
import { FormActions } from '../../components/form-actions';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { labelsKey, listLabels } from '../labels/api';
import { getPartner, partnerKey } from '../partners/api';
import { createDataset, datasetKey, datasetsKey, getDataset, updateDataset } from './api';
import { DatasetKeyPanel } from './dataset-key';

interface Values {
  name: string;
  description: string;
  types: string[];
  emailColumnName: string;
  active: boolean;
  separateInvoice: boolean;
  sort: string;
}

const EMPTY: Values = {
  name: '',
  description: '',
  types: [],
  emailColumnName: '',
  active: true,
  separateInvoice: false,
  sort: '0',
};

function toValues(ds: Dataset): Values {
  const { name, description, types, emailColumnName, active, separateInvoice, sort } = ds;
  return { name, description, types, emailColumnName, active, separateInvoice, sort: String(sort) };
}

/**
 * /partners/{id}/datasets/new and /partners/{id}/datasets/{datasetId}/edit: every dataset field,
 * labels from the label list, the API key once it exists, and links to the screens below it.
 */
export function DatasetFormPage() {
  const { partnerId, datasetId } = useParams() as { partnerId: string; datasetId?: string };
  const isEdit = Boolean(datasetId);
  const navigate = useNavigate();
  const client = useQueryClient();
  const listPath = `/partners/${encodeURIComponent(partnerId)}/datasets`;

  const partner = useQuery({
    queryKey: partnerKey(partnerId),
    queryFn: () => getPartner(partnerId),
    retry: false,
  });
  const dataset = useQuery({
    queryKey: datasetKey(partnerId, datasetId ?? ''),
    queryFn: () => getDataset(partnerId, datasetId!),
    enabled: isEdit,
    retry: false,
  });
  const labels = useQuery({ queryKey: labelsKey, queryFn: listLabels, retry: false });
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: EMPTY,
    validate: schemaResolver(DatasetInputSchema, { sync: true }),
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is stable; only newly loaded data resets the fields.
  useEffect(() => {
    if (dataset.data) form.setValues(toValues(dataset.data));
  }, [dataset.data]);
  useFailedQueryAlert(dataset.error, DatasetMessages.fetchFailed, listPath);
  useFailedQueryAlert(labels.error, DatasetMessages.typesFetchFailed);

  // The dataset's own labels stay selectable even when the label list failed to load.
  const labelOptions = [...new Set([...(labels.data ?? []), ...form.values.types])].sort((a, b) =>
    a.localeCompare(b, 'nl'),
  );

  const save = useMutation({
    mutationFn: (body: DatasetInput) =>
      isEdit ? updateDataset(partnerId, datasetId!, body) : createDataset(partnerId, body),
    onSuccess: (saved) => {
      showSuccess(isEdit ? DatasetMessages.saved : DatasetMessages.created);
      client.setQueryData(datasetKey(partnerId, saved._id), saved);
      void client.invalidateQueries({ queryKey: datasetsKey(partnerId), exact: true });
      void client.invalidateQueries({ queryKey: partnerKey(partnerId) });
      navigate(listPath);
    },
    onError: (err) => showDanger(DatasetMessages.saveFailed, err),
  });

  if (isEdit && dataset.isPending) return <Loader />;
  const partnerName = partner.data?.name ?? partnerId;
  const at = `${listPath}/${encodeURIComponent(datasetId ?? '')}`;

  return (
    <>
      <PageTitle
        actions={
          isEdit && (
            <>
              <Button variant="light" component={Link} to={`${at}/commission`}>
                Commissies
              </Button>
              <Button variant="light" component={Link} to={`${at}/participation`}>
                Extra inzet
              </Button>
              <Button variant="light" component={Link} to={`${at}/testpersons`}>
                Testpersonen
              </Button>
            </>
          )
        }
      >
        {isEdit
          ? `Bestand ${dataset.data?.name ?? ''} van ${partnerName} bewerken`
          : `Nieuw bestand voor ${partnerName}`}
      </PageTitle>
      <Paper withBorder p="md" maw={900}>
        <form
          onSubmit={form.onSubmit(
            (values) => save.mutate(values as DatasetInput),
            (errors) =>
              showDanger(DatasetMessages.saveFailed, Object.values(errors).filter(Boolean).join('\n')),
          )}
          noValidate
        >
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label="Naam"
                withAsterisk
                description="Alleen letters en cijfers"
                maxLength={100}
                {...form.getInputProps('name')}
              />
              <TextInput
                label="Kolomnaam e-mailadres"
                description="De kolom met het e-mailadres in het bestand (leeg: email)"
                maxLength={200}
                {...form.getInputProps('emailColumnName')}
              />
            </SimpleGrid>
            <Textarea
              label="Omschrijving"
              autosize
              minRows={2}
              maxLength={2000}
              {...form.getInputProps('description')}
            />
            <MultiSelect
              label="Labels"
              placeholder={labels.isPending ? 'Labels laden...' : 'Kies labels'}
              data={labelOptions}
              searchable
              clearable
              nothingFoundMessage="Geen labels gevonden"
              {...form.getInputProps('types')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label="Sortering"
                description="Lager is eerder: bij een adres in meerdere bestanden telt het bestand met de laagste sortering"
                inputMode="numeric"
                {...form.getInputProps('sort')}
              />
              {isEdit && (
                <TextInput
                  label="Aantal records"
                  readOnly
                  value={(dataset.data?.recordCount ?? 0).toLocaleString('nl-NL')}
                />
              )}
            </SimpleGrid>
            <Group>
              <Checkbox label="Actief" {...form.getInputProps('active', { type: 'checkbox' })} />
              <Checkbox
                label="Aparte factuur"
                {...form.getInputProps('separateInvoice', { type: 'checkbox' })}
              />
            </Group>
            <FormActions backTo={listPath} isSaving={save.isPending} />
          </Stack>
        </form>
      </Paper>
      {isEdit && dataset.data && <DatasetKeyPanel dataset={dataset.data} />}
    </>
  );
}
