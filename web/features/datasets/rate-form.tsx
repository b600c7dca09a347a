import { Loader, Paper, SimpleGrid, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import {
  CommissionCreateSchema,
  ParticipationCreateSchema,
  RATE_TEXTS,
  RateMessages,
  type RateType,
  rateFailedTitle,
} from '../../../common/datasets';
import { DateField } from '../../components/date-field';
import { DecimalInput } from '../../components/decimal-input';
import { FormActions } from '../../components/form-actions';
import { FormErrors } from '../../components/form-errors';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { checkWith } from '../../lib/forms';
import { formatDecimal, parseDecimal } from '../../lib/numbers';
import { createRate, datasetKey, updateRate } from './api';
import { rateEntries, useRateType } from './rate-list';
import { datasetPaths, useDataset } from './use-dataset';

interface Values {
  start: string | null;
  end: string | null;
  value: string;
}

const VALUE_FIELD = { commission: 'amount', participation: 'factor' } as const;

/** .../{type}/new and .../{type}/{extraId}/edit: a period and an amount or factor typed with a comma. */
export function RateFormPage() {
  const type = useRateType();
  return type ? <RateForm type={type} /> : null;
}

function RateForm({ type }: { type: RateType }) {
  const { partnerId, datasetId, extraId } = useParams() as {
    partnerId: string;
    datasetId: string;
    extraId?: string;
  };
  const isEdit = Boolean(extraId);
  const navigate = useNavigate();
  const client = useQueryClient();
  const dataset = useDataset(partnerId, datasetId);
  const texts = RATE_TEXTS[type];
  const listPath = `${datasetPaths(partnerId, datasetId).at}/${type}`;
  const existing = isEdit ? rateEntries(dataset.data, type)?.find((e) => e._id === extraId) : undefined;
  const [messages, setMessages] = useState<string[]>([]);
  const form = useForm<Values>({ mode: 'controlled', initialValues: { start: null, end: null, value: '' } });

  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is stable; only newly loaded data resets the fields.
  useEffect(() => {
    if (existing)
      form.setValues({ start: existing.start, end: existing.end, value: formatDecimal(existing.value) });
  }, [dataset.data, extraId]);
  useEffect(() => {
    if (isEdit && dataset.data && !existing) {
      showDanger(rateFailedTitle(type, 'ophalen'), texts.notFound);
      navigate(listPath, { replace: true });
    }
  }, [isEdit, dataset.data, existing, type, texts.notFound, navigate, listPath]);

  const action = isEdit ? 'bewerken' : 'toevoegen';
  const save = useMutation({
    mutationFn: (entry: { start: string; end: string; value: number }) =>
      existing
        ? updateRate(partnerId, datasetId, type, existing, entry)
        : createRate(partnerId, datasetId, type, entry),
    onSuccess: () => {
      showSuccess(isEdit ? texts.edited : texts.added);
      void client.invalidateQueries({ queryKey: datasetKey(partnerId, datasetId) });
      navigate(listPath);
    },
    onError: (err) => showDanger(rateFailedTitle(type, action), err),
  });

  // spec 000 §4: moving the start past the end sets the end to the start.
  function handleStartChange(start: string | null) {
    form.setFieldValue('start', start);
    const end = form.getValues().end;
    if (start && end && start > end) form.setFieldValue('end', start);
  }

  function handleSubmit(values: Values) {
    const number = parseDecimal(values.value);
    const payload = { start: values.start, end: values.end, [VALUE_FIELD[type]]: number };
    const checked = checkWith(
      type === 'commission' ? CommissionCreateSchema : ParticipationCreateSchema,
      payload,
    );
    const fieldErrors: Record<string, string> = { ...checked.fieldErrors };
    let list = checked.messages;
    if (fieldErrors[VALUE_FIELD[type]]) {
      fieldErrors.value =
        values.value.trim() !== '' && number === null
          ? RateMessages.numberInvalid
          : fieldErrors[VALUE_FIELD[type]];
      list = list.map((m) => (m === fieldErrors[VALUE_FIELD[type]] ? fieldErrors.value : m));
    }
    form.setErrors(fieldErrors);
    setMessages(list);
    if (!checked.data) {
      showDanger(rateFailedTitle(type, action), list.join('\n'));
      return;
    }
    save.mutate({ start: values.start!, end: values.end!, value: number! });
  }

  if (dataset.isPending || (isEdit && !existing)) return <Loader />;
  const values = form.getValues();

  return (
    <>
      <PageTitle>
        {isEdit
          ? `${texts.title} bewerken`
          : type === 'commission'
            ? 'Nieuwe commissie'
            : 'Nieuwe extra inzet'}{' '}
        voor {dataset.data?.name ?? 'bestand'}
      </PageTitle>
      <Paper withBorder p="md" maw={640}>
        <form onSubmit={form.onSubmit(handleSubmit)} noValidate>
          <Stack>
            <FormErrors messages={messages} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <DateField
                label="Startdatum"
                withAsterisk
                disabled={isEdit}
                description={isEdit ? 'De startdatum kan niet worden gewijzigd' : undefined}
                value={values.start}
                onChange={handleStartChange}
                error={form.errors.start}
              />
              <DateField label="Einddatum" withAsterisk {...form.getInputProps('end')} />
            </SimpleGrid>
            <DecimalInput
              label={texts.valueLabel}
              withAsterisk
              description={
                type === 'commission'
                  ? 'Bedrag per adres, bijvoorbeeld 0,05'
                  : 'Bijvoorbeeld 1,5 voor 50% extra inzet'
              }
              maw={300}
              {...form.getInputProps('value')}
              value={values.value}
              onChange={(v) => form.setFieldValue('value', v)}
            />
            <FormActions
              backTo={listPath}
              isSaving={save.isPending}
              isSaveDisabled={values.value.trim() === ''}
            />
          </Stack>
        </form>
      </Paper>
    </>
  );
}
