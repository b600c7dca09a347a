import { Loader, Paper, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import {
  type Campaign,
  CampaignInputSchema,
  CampaignMessages,
  DEFAULT_EXTERNAL_PARTY,
  type ExternalParty,
} from '../../../common/campaigns';
import { LabelMessages } from '../../../common/labels';
import { DateField } from '../../components/date-field';
import { DecimalInput } from '../../components/decimal-input';
import { FormActions } from '../../components/form-actions';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { ApiError } from '../../lib/http';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { labelsKey, listLabels } from '../labels/api';
import { campaignKey, campaignsKey, createCampaign, getCampaign, updateCampaign } from './api';
import { ExternalIdsInput } from './external-ids-input';
import { ExternalPartySelect } from './external-party-select';

/** The form's fields; the common schema trims, parses and drops empty ids on the server as well. */
export interface CampaignFormValues {
  name: string;
  customer: string;
  start: string | null;
  type: string | null;
  addresses: string;
  budget: string;
  externalParty: ExternalParty;
  externalIds: string[];
}

const EMPTY: CampaignFormValues = {
  name: '',
  customer: '',
  start: null,
  type: null,
  addresses: '',
  budget: '',
  externalParty: DEFAULT_EXTERNAL_PARTY,
  externalIds: [''],
};

/** Form values of a stored campaign, with the empty entry for the next external id appended. */
function toFormValues(c: Campaign): CampaignFormValues {
  return {
    name: c.name,
    customer: c.customer,
    start: c.start,
    type: c.type,
    addresses: String(c.addresses),
    budget: c.budget.replace('.', ','),
    externalParty: c.externalParty,
    externalIds: [...c.externalIds, ''],
  };
}

/** /campaigns/new and /campaigns/{id}/edit: the campaign's master data. */
export function CampaignFormPage() {
  const { campaignId: id } = useParams();
  const isEdit = Boolean(id);
  const navigate = useNavigate();
  const client = useQueryClient();
  const campaign = useQuery({
    queryKey: campaignKey(id ?? ''),
    queryFn: () => getCampaign(id!, true),
    enabled: isEdit,
    retry: false,
  });
  const labels = useQuery({ queryKey: labelsKey, queryFn: listLabels });
  const form = useForm<CampaignFormValues>({
    mode: 'controlled',
    initialValues: EMPTY,
    validate: schemaResolver(CampaignInputSchema, { sync: true }),
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a newly loaded campaign fills the fields, not a new form object.
  useEffect(() => {
    if (campaign.data) form.setValues(toFormValues(campaign.data));
  }, [campaign.data]);
  useEffect(() => {
    if (campaign.error instanceof ApiError && campaign.error.status === 404) {
      showDanger(CampaignMessages.fetchFailed, CampaignMessages.notFound);
      navigate('/campaigns');
    } else if (campaign.error) {
      showDanger(CampaignMessages.fetchFailed, campaign.error);
    }
  }, [campaign.error, navigate]);
  useFailedQueryAlert(labels.error, LabelMessages.fetchFailed);

  const save = useMutation({
    mutationFn: (values: CampaignFormValues) =>
      isEdit ? updateCampaign(id!, values) : createCampaign(values),
    onSuccess: (saved) => {
      showSuccess(isEdit ? CampaignMessages.saved : CampaignMessages.created);
      void client.invalidateQueries({ queryKey: campaignsKey });
      // spec 000 §2: after creating, the user continues with the campaign's mailings.
      navigate(isEdit ? '/campaigns' : `/campaigns/${saved._id}/mailings`);
    },
    onError: (err) => showDanger(isEdit ? CampaignMessages.saveFailed : CampaignMessages.createFailed, err),
  });

  if (isEdit && campaign.isPending) return <Loader />;

  // A stored label that was since removed from the list stays selectable, so saving keeps it visible.
  const labelOptions = [
    ...new Set([...(labels.data ?? []), ...(form.values.type ? [form.values.type] : [])]),
  ];

  return (
    <>
      <PageTitle>{isEdit ? 'Campagne bewerken' : 'Nieuwe campagne'}</PageTitle>
      <Paper withBorder p="md" maw={720}>
        <form
          onSubmit={form.onSubmit(
            (values) => save.mutate(values),
            (errors) =>
              showDanger(
                CampaignMessages.invalidTitle,
                [...new Set(Object.values(errors).filter(Boolean))].join('\n'),
              ),
          )}
          noValidate
        >
          <Stack>
            <TextInput label="Naam" withAsterisk maxLength={200} {...form.getInputProps('name')} />
            <TextInput label="Klant" maxLength={200} {...form.getInputProps('customer')} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <DateField label="Start" clearable {...form.getInputProps('start')} />
              <Select
                label="Label"
                placeholder={labels.isPending ? 'Labels laden...' : 'Kies een label'}
                data={labelOptions}
                searchable
                clearable
                nothingFoundMessage="Geen labels gevonden"
                {...form.getInputProps('type')}
              />
              <TextInput label="Aantal adressen" inputMode="numeric" {...form.getInputProps('addresses')} />
              <DecimalInput
                label="Budget"
                description="Een komma als decimaalteken mag"
                value={form.values.budget}
                onChange={(value) => form.setFieldValue('budget', value)}
                error={form.errors.budget}
              />
            </SimpleGrid>
            <ExternalPartySelect {...form.getInputProps('externalParty')} />
            <ExternalIdsInput form={form} />
            <FormActions backTo="/campaigns" isSaving={save.isPending} />
          </Stack>
        </form>
      </Paper>
    </>
  );
}
