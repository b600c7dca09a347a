import { Center, Group, Loader, Table, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { type ReactNode, useMemo, useState } from 'react';
import { LIST_PAGE_SIZE, SEARCH_MAX_LENGTH } from '../../common/constants';
import { pageCount } from '../lib/pagination';
import { Paginator } from './paginator';
import { ScrollTable } from './scroll-table';

/** One column of the shared list: its header and how a row's cell is rendered. */
export interface ListColumn<T> {
  header: string;
  render: (item: T) => ReactNode;
}

interface ListViewProps<T> {
  items: T[] | undefined;
  isLoading?: boolean;
  columns: ListColumn<T>[];
  rowKey: (item: T) => string;
  /** The text a search matches against (case-insensitive); omit to hide the search box. */
  searchText?: (item: T) => string;
  actions?: (item: T) => ReactNode;
  emptyMessage?: string;
  loadingMessage?: string;
  pageSize?: number;
  searchMaxLength?: number;
}

/**
 * The shared list (spec 000 §2 common list behaviour): search box (max 100, case-insensitive),
 * client-side pages of 10 with 5 page buttons, a spinner until the data arrives.
 */
export function ListView<T>(props: ListViewProps<T>) {
  const { items, columns, rowKey, searchText, actions } = props;
  const pageSize = props.pageSize ?? LIST_PAGE_SIZE;
  const [term, setTerm] = useState('');
  const [page, setPage] = useState(1);

  const filtered = useMemo(() => {
    const needle = term.trim().toLowerCase();
    if (!items || !searchText || !needle) return items ?? [];
    return items.filter((item) => searchText(item).toLowerCase().includes(needle));
  }, [items, term, searchText]);
  const total = pageCount(filtered.length, pageSize);
  const current = Math.min(page, total);
  const visible = filtered.slice((current - 1) * pageSize, current * pageSize);

  return (
    <div>
      {searchText && (
        <TextInput
          mb="sm"
          placeholder="Zoeken"
          aria-label="Zoeken"
          leftSection={<IconSearch size={16} />}
          maxLength={props.searchMaxLength ?? SEARCH_MAX_LENGTH}
          value={term}
          onChange={(e) => {
            setTerm(e.currentTarget.value);
            setPage(1);
          }}
        />
      )}
      {props.isLoading || !items ? (
        <Center py="xl" data-testid="list-loading">
          <Group gap="sm">
            <Loader size="sm" />
            {props.loadingMessage && <Text c="dimmed">{props.loadingMessage}</Text>}
          </Group>
        </Center>
      ) : filtered.length === 0 ? (
        <Text c="dimmed" py="md">
          {props.emptyMessage ?? 'Geen resultaten gevonden.'}
        </Text>
      ) : (
        <ScrollTable striped highlightOnHover verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              {columns.map((c) => (
                <Table.Th key={c.header}>{c.header}</Table.Th>
              ))}
              {actions && <Table.Th />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {visible.map((item) => (
              <Table.Tr key={rowKey(item)}>
                {columns.map((c) => (
                  <Table.Td key={c.header}>{c.render(item)}</Table.Td>
                ))}
                {actions && (
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      {actions(item)}
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </ScrollTable>
      )}
      <Paginator page={current} total={total} onChange={setPage} />
    </div>
  );
}
