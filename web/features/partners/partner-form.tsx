import { Loader, Paper, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { DEFAULT_COUNTRY } from '../../../common/constants';
import { COUNTRY_OPTIONS } from '../../../common/countries';
import {
  type Partner,
  PartnerFormSchema,
  PartnerMessages,
  vatToDisplay,
  vatToStored,
} from '../../../common/partners';
import { DecimalInput } from '../../components/decimal-input';
import { FormActions } from '../../components/form-actions';
import { FormErrors } from '../../components/form-errors';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { checkWith } from '../../lib/forms';
import { ApiError } from '../../lib/http';
import { parseDecimal } from '../../lib/numbers';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { createPartner, getPartner, partnerKey, partnersKey, updatePartner } from './api';

const EMPTY = {
  id: '',
  name: '',
  debitorNumber: '',
  address: '',
  postalCode: '',
  city: '',
  iban: '',
  vatNumber: '',
  invoiceEmail: '',
  country: DEFAULT_COUNTRY,
  ledger: '',
  vatCode: '',
  vatPercentage: '',
  comments: '',
};
type Values = typeof EMPTY;

function toValues(p: Partner): Values {
  const vat = vatToDisplay(p.vatPercentage);
  return { ...EMPTY, ...p, vatPercentage: vat === null ? '' : String(vat).replace('.', ',') };
}

function toPayload(v: Values) {
  const vat = parseDecimal(v.vatPercentage);
  return {
    ...v,
    vatPercentage: v.vatPercentage.trim() === '' ? null : vat === null ? Number.NaN : vatToStored(vat),
  };
}

/** /partners/new and /partners/{id}/edit: every partner field; the id is read-only once created. */
export function PartnerFormPage() {
  const { partnerId: id } = useParams();
  const isEdit = Boolean(id);
  const navigate = useNavigate();
  const client = useQueryClient();
  const [messages, setMessages] = useState<string[]>([]);
  const partner = useQuery({
    queryKey: partnerKey(id ?? ''),
    queryFn: () => getPartner(id!),
    enabled: isEdit,
    retry: false,
  });
  const form = useForm<Values>({ mode: 'controlled', initialValues: EMPTY });

  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is stable; only newly loaded data resets the fields.
  useEffect(() => {
    if (partner.data) form.setValues(toValues(partner.data));
  }, [partner.data]);
  useFailedQueryAlert(partner.error, PartnerMessages.fetchFailed, '/partners');

  const save = useMutation({
    mutationFn: (payload: ReturnType<typeof toPayload>) =>
      isEdit ? updatePartner(id!, payload) : createPartner(payload as Parameters<typeof createPartner>[0]),
    onSuccess: (saved) => {
      showSuccess(isEdit ? PartnerMessages.saved : PartnerMessages.created);
      void client.invalidateQueries({ queryKey: partnersKey });
      navigate(isEdit ? '/partners' : `/partners/${saved.id}/datasets`);
    },
    onError: (err) => {
      setMessages(err instanceof ApiError && err.errors.length > 0 ? err.errors : [err.message]);
      showDanger(PartnerMessages.saveFailed, err);
    },
  });

  function handleSubmit(values: Values) {
    const payload = toPayload(values);
    const checked = checkWith(PartnerFormSchema, payload);
    form.setErrors(checked.fieldErrors);
    setMessages(checked.messages);
    if (checked.data) save.mutate(payload);
  }

  if (isEdit && partner.isPending) return <Loader />;

  return (
    <>
      <PageTitle>{isEdit ? `Partner ${id} bewerken` : 'Nieuwe partner'}</PageTitle>
      <Paper withBorder p="md" maw={900}>
        <form onSubmit={form.onSubmit(handleSubmit)} noValidate>
          <Stack>
            <FormErrors messages={messages} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label="ID"
                withAsterisk
                readOnly={isEdit}
                description={isEdit ? undefined : 'Letters, cijfers en underscores'}
                {...form.getInputProps('id')}
              />
              <TextInput label="Naam" withAsterisk {...form.getInputProps('name')} />
              <TextInput label="Debiteurnummer" {...form.getInputProps('debitorNumber')} />
              <TextInput label="Adres" {...form.getInputProps('address')} />
              <TextInput label="Postcode" {...form.getInputProps('postalCode')} />
              <TextInput label="Plaats" {...form.getInputProps('city')} />
              <Select
                label="Land"
                data={COUNTRY_OPTIONS}
                searchable
                allowDeselect={false}
                nothingFoundMessage="Geen land gevonden"
                {...form.getInputProps('country')}
              />
              <TextInput label="IBAN" {...form.getInputProps('iban')} />
              <TextInput label="BTW-nummer" {...form.getInputProps('vatNumber')} />
              <TextInput label="Factuur e-mail" type="email" {...form.getInputProps('invoiceEmail')} />
              <TextInput label="Grootboek" {...form.getInputProps('ledger')} />
              <TextInput label="BTW-code" {...form.getInputProps('vatCode')} />
              <DecimalInput
                label="BTW-percentage"
                rightSection="%"
                value={form.values.vatPercentage}
                error={form.errors.vatPercentage}
                onChange={(v) => form.setFieldValue('vatPercentage', v)}
              />
            </SimpleGrid>
            <Textarea label="Opmerkingen" autosize minRows={3} {...form.getInputProps('comments')} />
            <FormActions backTo="/partners" isSaving={save.isPending} />
          </Stack>
        </form>
      </Paper>
    </>
  );
}
