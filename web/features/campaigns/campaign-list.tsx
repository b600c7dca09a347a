import {
  ActionIcon,
  Anchor,
  Button,
  Center,
  Group,
  Loader,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconMail, IconPencil, IconSearch, IconTrash } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { type Campaign, CampaignMessages } from '../../../common/campaigns';
import { SEARCH_MAX_LENGTH } from '../../../common/constants';
import { confirmAction } from '../../components/confirm';
import { PageTitle } from '../../components/page-title';
import { Paginator } from '../../components/paginator';
import { ScrollTable } from '../../components/scroll-table';
import { showDanger, showSuccess } from '../../lib/alerts';
import { formatDate } from '../../lib/dates';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { campaignPageKey, campaignsKey, deleteCampaign, listCampaignPage } from './api';

// spec 000 §9: campaigns are paginated on the server, 20 a page, searched 500 ms after typing stops.
const SEARCH_DEBOUNCE_MS = 500;

/** /campaigns: server-side pages of 20 with search; each row links to its mailings, edit and delete. */
export function CampaignListPage() {
  const client = useQueryClient();
  const [search, setSearch] = useState('');
  const [term] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  // The page belongs to the term it was chosen for: a new search starts at page 1.
  const [paging, setPaging] = useState({ term: '', page: 1 });
  const page = paging.term === term ? paging.page : 1;
  const setPage = (next: number) => setPaging({ term, page: next });
  const campaigns = useQuery({
    queryKey: campaignPageKey(page, term),
    queryFn: () => listCampaignPage(page, term),
    placeholderData: keepPreviousData,
  });
  useFailedQueryAlert(campaigns.error, CampaignMessages.fetchListFailed);
  // After a delete the last page can disappear: go to the new last page.
  const pages = campaigns.data?.pages ?? 0;
  useEffect(() => {
    if (!campaigns.isPlaceholderData && pages > 0 && page > pages) setPaging({ term, page: pages });
  }, [page, pages, term, campaigns.isPlaceholderData]);

  const remove = useMutation({
    mutationFn: (campaign: Campaign) => deleteCampaign(campaign._id),
    onSuccess: () => {
      showSuccess(CampaignMessages.deleting);
      void client.invalidateQueries({ queryKey: campaignsKey });
    },
    onError: (err) => showDanger(CampaignMessages.deleteFailed, err),
  });
  const handleDelete = (c: Campaign) =>
    confirmAction({
      title: 'Campagne verwijderen?',
      message: `Weet je zeker dat je de campagne ${c.name} wilt verwijderen?`,
      onConfirm: () => remove.mutate(c),
    });

  const items = campaigns.data?.items;
  return (
    <>
      <PageTitle
        actions={
          <Button component={Link} to="/campaigns/new">
            Nieuwe campagne
          </Button>
        }
      >
        Campagnes
      </PageTitle>
      <TextInput
        mb="sm"
        placeholder="Zoeken"
        aria-label="Zoeken"
        leftSection={<IconSearch size={16} />}
        rightSection={campaigns.isFetching && items ? <Loader size="xs" /> : null}
        maxLength={SEARCH_MAX_LENGTH}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
      />
      {!items ? (
        campaigns.error ? null : (
          <Center py="xl" data-testid="list-loading">
            <Loader size="sm" />
          </Center>
        )
      ) : items.length === 0 ? (
        <Text c="dimmed" py="md">
          Geen campagnes gevonden.
        </Text>
      ) : (
        <>
          <ScrollTable striped highlightOnHover verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Naam</Table.Th>
                <Table.Th>Klant</Table.Th>
                <Table.Th>Start</Table.Th>
                <Table.Th>Label</Table.Th>
                <Table.Th>Adressen</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((c) => (
                <Table.Tr key={c._id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/campaigns/${c._id}/mailings`}>
                      {c.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{c.customer}</Table.Td>
                  <Table.Td>{formatDate(c.start)}</Table.Td>
                  <Table.Td>{c.type}</Table.Td>
                  <Table.Td>{c.addresses.toLocaleString('nl-NL')}</Table.Td>
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Tooltip label="Verzendingen">
                        <ActionIcon
                          variant="subtle"
                          component={Link}
                          to={`/campaigns/${c._id}/mailings`}
                          aria-label={`Verzendingen van ${c.name}`}
                        >
                          <IconMail size={18} />
                        </ActionIcon>
                      </Tooltip>
                      <ActionIcon
                        variant="subtle"
                        component={Link}
                        to={`/campaigns/${c._id}/edit`}
                        aria-label={`Bewerk ${c.name}`}
                      >
                        <IconPencil size={18} />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Verwijder ${c.name}`}
                        onClick={() => handleDelete(c)}
                      >
                        <IconTrash size={18} />
                      </ActionIcon>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </ScrollTable>
          <Text c="dimmed" size="sm" mt="xs">
            {campaigns.data?.total} {campaigns.data?.total === 1 ? 'campagne' : 'campagnes'}
          </Text>
        </>
      )}
      <Paginator page={Math.min(page, Math.max(pages, 1))} total={pages} onChange={setPage} />
    </>
  );
}
