import { Group, Loader, MultiSelect, Paper, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { businessDay, businessToday } from '../../../common/calendar-day';
import { DEFAULT_EXTERNAL_PARTY, type ExternalParty } from '../../../common/campaigns';
import {
  MAILING_SAVE_STATE_TEXT,
  MAILING_STATE_LABELS,
  MAILING_STATES,
  type Mailing,
  type MailingInput,
  MailingInputSchema,
  MailingMessages,
  type MailingSaveState,
  type MailingState,
} from '../../../common/mailings';
import { DateField } from '../../components/date-field';
import { DecimalInput } from '../../components/decimal-input';
import { FormActions } from '../../components/form-actions';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { checkWith } from '../../lib/forms';
import { ApiError } from '../../lib/http';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { ExternalIdsInput } from '../campaigns/external-ids-input';
import { ExternalPartySelect } from '../campaigns/external-party-select';
import { interestTypesKey, listInterestTypes } from '../interest-types/api';
import { MailingTimeline } from '../reports/mailing-timeline';
import { createMailing, getMailing, mailingKey, mailingsKey, updateMailing } from './api';

/** The form's fields; externalIds holds the list with the empty entry appended (spec 001 §3). */
export interface MailingFormValues {
  name: string;
  state: MailingState;
  plannedSend: string | null;
  budget: string;
  addresses: string;
  interests: string[];
  externalParty: ExternalParty;
  externalIds: string[];
}

function toFormValues(m: Mailing): MailingFormValues {
  return {
    name: m.name,
    state: m.state,
    // The stored instant's day in Amsterdam, not in the browser's zone (DESIGN §7).
    plannedSend: businessDay(m.plannedSend),
    budget: m.budget.replace('.', ','),
    addresses: String(m.addresses),
    interests: m.interests,
    externalParty: m.externalParty,
    externalIds: [...m.externalId, ''],
  };
}

/**
 * The payload of the form: an unchanged day keeps the stored instant (or, for a new mailing,
 * leaves it to the server: now, spec 001 §9); a changed day is that day, 'YYYY-MM-DD', which the
 * server takes as that day in Amsterdam.
 */
function toPayload(v: MailingFormValues, stored: Mailing | undefined): MailingInput {
  const initialDay = stored ? businessDay(stored.plannedSend) : businessToday();
  const plannedSend = v.plannedSend === initialDay ? stored?.plannedSend : (v.plannedSend ?? 'geen datum');
  return {
    name: v.name,
    state: v.state,
    ...(plannedSend === undefined ? {} : { plannedSend }),
    budget: v.budget,
    addresses: v.addresses,
    interests: v.interests,
    externalParty: v.externalParty,
    externalId: v.externalIds,
  };
}

/** /campaigns/{c}/mailings/new 'Nieuwe mailing' and .../{m}/edit 'Bewerk verzending'. */
export function MailingFormPage() {
  const { campaignId = '', mailingId } = useParams();
  const isEdit = Boolean(mailingId);
  const navigate = useNavigate();
  const client = useQueryClient();
  const [saveState, setSaveState] = useState<MailingSaveState>(isEdit ? 'LOADING' : 'NONE');
  const mailing = useQuery({
    queryKey: mailingKey(campaignId, mailingId ?? ''),
    queryFn: () => getMailing(campaignId, mailingId!),
    enabled: isEdit,
    retry: false,
  });
  const interests = useQuery({ queryKey: interestTypesKey, queryFn: listInterestTypes });
  useFailedQueryAlert(interests.error, MailingMessages.fetchInterestsFailed);
  const form = useForm<MailingFormValues>({
    mode: 'controlled',
    initialValues: {
      name: '',
      state: 'draft',
      plannedSend: businessToday(),
      budget: '',
      addresses: '',
      interests: [],
      externalParty: DEFAULT_EXTERNAL_PARTY,
      externalIds: [''],
    },
    validate: (values) => {
      const { fieldErrors } = checkWith(MailingInputSchema, toPayload(values, mailing.data));
      // The schema names the ids externalId.N; the inputs are externalIds.N.
      return Object.fromEntries(
        Object.entries(fieldErrors).map(([k, v]) => [k.replace(/^externalId\b/, 'externalIds'), v]),
      );
    },
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a newly loaded mailing fills the fields.
  useEffect(() => {
    if (mailing.data) {
      form.setValues(toFormValues(mailing.data));
      setSaveState('NONE');
    }
  }, [mailing.data]);
  useEffect(() => {
    if (!mailing.error) return;
    setSaveState('FAILED');
    showDanger(MailingMessages.fetchFailed, mailing.error);
    if (mailing.error instanceof ApiError && mailing.error.status === 404)
      navigate(`/campaigns/${campaignId}/mailings`);
  }, [mailing.error, navigate, campaignId]);

  const save = useMutation({
    mutationFn: (values: MailingFormValues) => {
      const body = toPayload(values, mailing.data);
      return isEdit ? updateMailing(campaignId, mailingId!, body) : createMailing(campaignId, body);
    },
    onMutate: () => setSaveState('SAVING'),
    onSuccess: () => {
      setSaveState('DONE');
      showSuccess(isEdit ? MailingMessages.saved : MailingMessages.created);
      void client.invalidateQueries({ queryKey: mailingsKey(campaignId) });
      navigate(`/campaigns/${campaignId}/mailings`);
    },
    onError: (err) => {
      setSaveState('FAILED');
      showDanger(isEdit ? MailingMessages.saveFailed : MailingMessages.createFailed, err);
    },
  });

  if (isEdit && mailing.isPending)
    return (
      <Group>
        <Loader size="sm" />
        <Text>{MAILING_SAVE_STATE_TEXT.LOADING}</Text>
      </Group>
    );

  const interestOptions = [...new Set([...(interests.data ?? []), ...form.values.interests])];
  return (
    <>
      <PageTitle>{isEdit ? 'Bewerk verzending' : 'Nieuwe mailing'}</PageTitle>
      <Paper withBorder p="md" maw={720}>
        <form
          onSubmit={form.onSubmit(
            (values) => save.mutate(values),
            (errors) =>
              showDanger(
                isEdit ? MailingMessages.saveFailed : MailingMessages.createFailed,
                [...new Set(Object.values(errors).filter(Boolean))].join('\n'),
              ),
          )}
          noValidate
        >
          <Stack>
            <TextInput label="Naam" withAsterisk maxLength={200} {...form.getInputProps('name')} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select
                label="Status"
                data={MAILING_STATES.map((s) => ({ value: s, label: MAILING_STATE_LABELS[s] }))}
                allowDeselect={false}
                {...form.getInputProps('state')}
              />
              <DateField label="Verzenddatum" {...form.getInputProps('plannedSend')} />
              <DecimalInput
                label="Bruto adresprijs"
                description="Een komma als decimaalteken mag"
                value={form.values.budget}
                onChange={(value) => form.setFieldValue('budget', value)}
                error={form.errors.budget}
              />
              <TextInput
                label="Aantal adressen 100%"
                inputMode="numeric"
                {...form.getInputProps('addresses')}
              />
            </SimpleGrid>
            <MultiSelect
              label="Interesses"
              placeholder={interests.isPending ? 'Interesses laden...' : 'Kies interesses'}
              data={interestOptions}
              searchable
              clearable
              {...form.getInputProps('interests')}
            />
            <ExternalPartySelect {...form.getInputProps('externalParty')} />
            <ExternalIdsInput form={form} />
            <Group>
              <FormActions backTo={`/campaigns/${campaignId}/mailings`} isSaving={save.isPending} />
              <Text data-testid="save-state" c={saveState === 'FAILED' ? 'red' : 'dimmed'}>
                {MAILING_SAVE_STATE_TEXT[saveState]}
              </Text>
            </Group>
          </Stack>
        </form>
      </Paper>
      {isEdit && mailingId && <MailingTimeline mailingId={mailingId} />}
    </>
  );
}
