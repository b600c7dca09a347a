import { Button, Group, Paper, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import {
  ALL_MAILINGS_LABEL,
  COPY_TYPE_LABELS,
  COPY_TYPES,
  type CopyType,
  copyDescription,
  MailingMessages,
} from '../../../common/mailings';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { campaignPageKey, listCampaignPage } from '../campaigns/api';
import { copyMailing, getMailing, listMailings, mailingKey, mailingsKey } from './api';

const ALL = '__all__';

/** /campaigns/{c}/mailings/{m}/copy 'Kopieer adressen van een mailing' (spec 001 §2, §5). */
export function MailingCopyPage() {
  const { campaignId = '', mailingId = '' } = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const target = useQuery({
    queryKey: mailingKey(campaignId, mailingId),
    queryFn: () => getMailing(campaignId, mailingId),
  });
  useFailedQueryAlert(target.error, MailingMessages.fetchFailed);
  const [search, setSearch] = useState('');
  const [term] = useDebouncedValue(search.trim(), 500);
  const campaigns = useQuery({
    queryKey: campaignPageKey(1, term),
    queryFn: () => listCampaignPage(1, term),
    placeholderData: keepPreviousData,
  });
  useFailedQueryAlert(campaigns.error, MailingMessages.fetchCampaignsFailed);
  const [campaign, setCampaign] = useState<{ id: string; name: string } | null>(null);
  const [mailing, setMailing] = useState<string | null>(ALL);
  const [type, setType] = useState<CopyType | null>(null);
  const [description, setDescription] = useState('');
  const [isEdited, setEdited] = useState(false);
  const sources = useQuery({
    queryKey: mailingsKey(campaign?.id ?? ''),
    queryFn: () => listMailings(campaign!.id),
    enabled: Boolean(campaign),
  });
  useFailedQueryAlert(sources.error, MailingMessages.fetchFailed);

  // spec 001 §2: the description is generated until the user edits it.
  const mailingName =
    mailing === ALL ? ALL_MAILINGS_LABEL : (sources.data?.find((m) => m._id === mailing)?.name ?? '');
  const generated = campaign && type && mailing ? copyDescription(type, mailingName, campaign.name) : '';
  const shownDescription = isEdited ? description : generated;

  const copy = useMutation({
    mutationFn: () =>
      copyMailing(campaignId, mailingId, {
        campaign: campaign!.id,
        // spec 001 §5: the payload omits mailing when 'all' is chosen.
        ...(mailing && mailing !== ALL ? { mailing } : {}),
        type: type!,
        description: shownDescription,
      }),
    onSuccess: () => {
      showSuccess(MailingMessages.copiedTitle, MailingMessages.copied);
      void client.invalidateQueries({ queryKey: mailingsKey(campaignId) });
      navigate(`/campaigns/${campaignId}/mailings`);
    },
    onError: (err) => showDanger(MailingMessages.copyFailed, err),
  });

  const campaignOptions = [
    ...(campaign ? [{ value: campaign.id, label: campaign.name }] : []),
    ...(campaigns.data?.items ?? [])
      .filter((c) => c._id !== campaign?.id)
      .map((c) => ({ value: c._id, label: c.name })),
  ];
  return (
    <>
      <PageTitle>Kopieer adressen van een mailing</PageTitle>
      <Paper withBorder p="md" maw={720}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            copy.mutate();
          }}
        >
          <Stack>
            <TextInput label="Naar mailing" readOnly value={target.data?.name ?? ''} />
            <Select
              label="Campagne"
              placeholder="Zoek een campagne"
              searchable
              searchValue={search}
              onSearchChange={setSearch}
              filter={({ options }) => options}
              data={campaignOptions}
              value={campaign?.id ?? null}
              onChange={(value, option) => {
                setCampaign(value && option ? { id: value, name: option.label } : null);
                setMailing(ALL);
              }}
              nothingFoundMessage="Geen campagnes gevonden"
            />
            <Select
              label="Mailing"
              data={[
                { value: ALL, label: ALL_MAILINGS_LABEL },
                ...(sources.data ?? []).map((m) => ({ value: m._id, label: m.name })),
              ]}
              value={mailing}
              onChange={setMailing}
              disabled={!campaign}
            />
            <Select
              label="Type adressen"
              placeholder="Kies een type"
              data={COPY_TYPES.map((t) => ({ value: t, label: COPY_TYPE_LABELS[t] }))}
              value={type}
              onChange={(v) => setType(v as CopyType | null)}
            />
            <Textarea
              label="Omschrijving"
              autosize
              minRows={2}
              maxLength={1000}
              value={shownDescription}
              onChange={(e) => {
                setEdited(true);
                setDescription(e.currentTarget.value);
              }}
            />
            <Group>
              <Button type="submit" disabled={!campaign || !mailing || !type} loading={copy.isPending}>
                Kopiëren
              </Button>
              <Button variant="default" component={Link} to={`/campaigns/${campaignId}/mailings`}>
                Terug
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </>
  );
}
