import { ActionIcon, Button, Center, Group, Loader, Table, Text, Title, Tooltip } from '@mantine/core';
import {
  IconCopy,
  IconDownload,
  IconFilter,
  IconGauge,
  IconList,
  IconPencil,
  IconScissors,
  IconTestPipe,
  IconTrash,
} from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { LIST_PAGE_SIZE } from '../../../common/constants';
import {
  MAILING_STATE_LABELS,
  MAILING_STATES,
  type Mailing,
  MailingMessages,
  type MailingState,
  remainingAddresses,
} from '../../../common/mailings';
import { confirmAction } from '../../components/confirm';
import { CsvDownload } from '../../components/csv-download';
import { PageTitle } from '../../components/page-title';
import { Paginator } from '../../components/paginator';
import { ScrollTable } from '../../components/scroll-table';
import { showDanger, showSuccess } from '../../lib/alerts';
import { formatDate } from '../../lib/dates';
import { pageCount } from '../../lib/pagination';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { campaignKey, getCampaign } from '../campaigns/api';
import { deleteMailing, listMailings, mailingCsvUrl, mailingsKey, testListUrl } from './api';
import { LimitModal, PressureModal } from './mailing-modals';
import { ResultsUploadButton } from './results-upload';

const n = (v: number) => v.toLocaleString('nl-NL');

/** /campaigns/{campaignId}/mailings: the campaign's mailings grouped by state (spec 001 §2). */
export function MailingListPage() {
  const { campaignId = '' } = useParams();
  const client = useQueryClient();
  const campaign = useQuery({
    queryKey: campaignKey(campaignId),
    queryFn: () => getCampaign(campaignId, true),
  });
  const mailings = useQuery({ queryKey: mailingsKey(campaignId), queryFn: () => listMailings(campaignId) });
  useFailedQueryAlert(campaign.error, MailingMessages.fetchCampaignFailed);
  useFailedQueryAlert(mailings.error, MailingMessages.fetchFailed);
  const [pressureFor, setPressureFor] = useState<Mailing | null>(null);
  const [limitFor, setLimitFor] = useState<Mailing | null>(null);

  const remove = useMutation({
    mutationFn: (m: Mailing) => deleteMailing(campaignId, m._id),
    onSuccess: () => {
      showSuccess(MailingMessages.deleted);
      void client.invalidateQueries({ queryKey: mailingsKey(campaignId) });
    },
    onError: (err) => showDanger(MailingMessages.deleteFailed, err),
  });
  const handleDelete = (m: Mailing) =>
    confirmAction({
      title: 'Mailing verwijderen?',
      message: MailingMessages.confirmDelete(m.name),
      onConfirm: () => remove.mutate(m),
    });

  return (
    <>
      <PageTitle
        actions={
          <Button component={Link} to={`/campaigns/${campaignId}/mailings/new`}>
            Nieuwe verzending
          </Button>
        }
      >
        Verzendingen{campaign.data ? ` van ${campaign.data.name}` : ''}
      </PageTitle>
      {!mailings.data ? (
        mailings.error ? null : (
          <Center py="xl" data-testid="list-loading">
            <Loader size="sm" />
          </Center>
        )
      ) : (
        MAILING_STATES.map((state) => (
          <StateGroup
            key={state}
            state={state}
            items={mailings.data.filter((m) => m.state === state)}
            onPressure={setPressureFor}
            onLimit={setLimitFor}
            onDelete={handleDelete}
          />
        ))
      )}
      <PressureModal mailing={pressureFor} onClose={() => setPressureFor(null)} />
      <LimitModal mailing={limitFor} onClose={() => setLimitFor(null)} />
    </>
  );
}

interface GroupProps {
  state: MailingState;
  items: Mailing[];
  onPressure: (m: Mailing) => void;
  onLimit: (m: Mailing) => void;
  onDelete: (m: Mailing) => void;
}

/** One state's heading and its mailings (already newest planned send first), 10 a page. */
function StateGroup({ state, items, onPressure, onLimit, onDelete }: GroupProps) {
  const [page, setPage] = useState(1);
  const pages = pageCount(items.length, LIST_PAGE_SIZE);
  const current = Math.min(page, pages);
  const shown = items.slice((current - 1) * LIST_PAGE_SIZE, current * LIST_PAGE_SIZE);
  const label = MAILING_STATE_LABELS[state];
  return (
    <section aria-label={label}>
      <Title order={3} mt="lg" mb="xs">
        {label}
      </Title>
      {items.length === 0 ? (
        <Text c="dimmed" size="sm">
          Geen verzendingen.
        </Text>
      ) : (
        <ScrollTable striped highlightOnHover verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Verzenddatum</Table.Th>
              <Table.Th>Naam</Table.Th>
              <Table.Th>Aantal e-mails</Table.Th>
              <Table.Th>Nog toe te wijzen</Table.Th>
              <Table.Th>Geopend / geklikt / bounces</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((m) => (
              <Table.Tr key={m._id}>
                <Table.Td>{formatDate(m.plannedSend)}</Table.Td>
                <Table.Td>{m.name}</Table.Td>
                <Table.Td>{n(m.recordCount)}</Table.Td>
                <Table.Td>{n(remainingAddresses(m))}</Table.Td>
                <Table.Td data-testid={`results-${m._id}`}>
                  {n(m.results.opens)} / {n(m.results.clicks)} / {n(m.results.bounces)}
                </Table.Td>
                <Table.Td>
                  <RowActions m={m} onPressure={onPressure} onLimit={onLimit} onDelete={onDelete} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </ScrollTable>
      )}
      <Paginator page={current} total={items.length ? pages : 0} onChange={setPage} />
    </section>
  );
}

/** spec 001 §2: the row actions per state. */
function RowActions({
  m,
  onPressure,
  onLimit,
  onDelete,
}: Omit<GroupProps, 'state' | 'items'> & { m: Mailing }) {
  const base = `/campaigns/${m.campaign}/mailings/${m._id}`;
  const isDraft = m.state === 'draft';
  const icon = (label: string, child: React.ReactNode, props: object) => (
    <Tooltip label={label}>
      <ActionIcon variant="subtle" aria-label={`${label}: ${m.name}`} {...props}>
        {child}
      </ActionIcon>
    </Tooltip>
  );
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      {isDraft && icon('Controleer maildruk', <IconGauge size={18} />, { onClick: () => onPressure(m) })}
      {isDraft &&
        icon('Aantal adressen maximeren', <IconScissors size={18} />, { onClick: () => onLimit(m) })}
      {isDraft && icon('Kopieer adressen', <IconCopy size={18} />, { component: Link, to: `${base}/copy` })}
      {isDraft &&
        icon('Selectie bouwen', <IconFilter size={18} />, {
          component: Link,
          to: `/selection-builder/${m.campaign}/${m._id}`,
        })}
      {m.state === 'final' && (
        <CsvDownload
          href={testListUrl(m.campaign, m._id)}
          label={`Download testlijst: ${m.name}`}
          icon={<IconTestPipe size={18} />}
        />
      )}
      <CsvDownload
        href={mailingCsvUrl(m.campaign, m._id)}
        label={`Download CSV: ${m.name}`}
        icon={<IconDownload size={18} />}
      />
      {icon('Selecties', <IconList size={18} />, { component: Link, to: `${base}/selections` })}
      <ResultsUploadButton mailing={m} />
      {icon('Bewerk', <IconPencil size={18} />, { component: Link, to: `${base}/edit` })}
      {isDraft && icon('Verwijder', <IconTrash size={18} />, { color: 'red', onClick: () => onDelete(m) })}
    </Group>
  );
}
