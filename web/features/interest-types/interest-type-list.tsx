import { ActionIcon, Button, Center, Group, Loader, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch, IconTrash } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { INTEREST_TYPE_PAGE_SIZE, SEARCH_MAX_LENGTH } from '../../../common/constants';
import { InterestTypeMessages } from '../../../common/interest-types';
import { confirmAction } from '../../components/confirm';
import { PageTitle } from '../../components/page-title';
import { Paginator } from '../../components/paginator';
import { ScrollTable } from '../../components/scroll-table';
import { showDanger, showSuccess } from '../../lib/alerts';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { deleteInterestType, interestTypePageKey, interestTypesKey, pageInterestTypes } from './api';

const SEARCH_DELAY_MS = 300;

/** /interest-types 'Lijst van interesse types': server-side pages of 10, search, delete with confirmation. */
export function InterestTypeListPage() {
  const client = useQueryClient();
  const [term, setTerm] = useState('');
  const [page, setPage] = useState(1);
  const [searched] = useDebouncedValue(term.trim(), SEARCH_DELAY_MS);
  const result = useQuery({
    queryKey: interestTypePageKey(page, INTEREST_TYPE_PAGE_SIZE, searched),
    queryFn: () => pageInterestTypes(page, INTEREST_TYPE_PAGE_SIZE, searched),
    placeholderData: keepPreviousData,
  });
  useFailedQueryAlert(result.error, InterestTypeMessages.fetchFailed);
  // After deleting the last name of the last page, go back to the page that still exists.
  const pages = result.data?.pages;
  useEffect(() => {
    if (pages !== undefined && pages > 0 && page > pages) setPage(pages);
  }, [pages, page]);

  const remove = useMutation({
    mutationFn: deleteInterestType,
    onSuccess: () => {
      showSuccess(InterestTypeMessages.deleted);
      void client.invalidateQueries({ queryKey: interestTypesKey });
    },
    onError: (err) => showDanger(InterestTypeMessages.deleteFailed, err),
  });

  const items = result.data?.items ?? [];
  return (
    <>
      <PageTitle
        actions={
          <Button component={Link} to="/interest-types/new">
            Nieuwe klikinteresse
          </Button>
        }
      >
        Lijst van interesse types
      </PageTitle>
      <TextInput
        mb="sm"
        placeholder="Zoeken"
        aria-label="Zoeken"
        leftSection={<IconSearch size={16} />}
        maxLength={SEARCH_MAX_LENGTH}
        value={term}
        onChange={(e) => {
          setTerm(e.currentTarget.value);
          setPage(1);
        }}
      />
      {result.isPending ? (
        <Center py="xl" data-testid="list-loading">
          <Group gap="sm">
            <Loader size="sm" />
            <Text c="dimmed">{InterestTypeMessages.loading}</Text>
          </Group>
        </Center>
      ) : items.length === 0 ? (
        <Text c="dimmed" py="md">
          {result.error ? InterestTypeMessages.fetchFailed : InterestTypeMessages.empty}
        </Text>
      ) : (
        <ScrollTable striped highlightOnHover verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Naam</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((name) => (
              <Table.Tr key={name}>
                <Table.Td>{name}</Table.Td>
                <Table.Td>
                  <Group justify="flex-end">
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Verwijder ${name}`}
                      onClick={() =>
                        confirmAction({
                          title: InterestTypeMessages.confirmTitle,
                          message: InterestTypeMessages.confirm(name),
                          onConfirm: () => remove.mutate(name),
                        })
                      }
                    >
                      <IconTrash size={18} />
                    </ActionIcon>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </ScrollTable>
      )}
      <Paginator page={page} total={result.data?.pages ?? 0} onChange={setPage} />
    </>
  );
}
