import { Badge, Checkbox, Table, Text } from '@mantine/core';
import { useState } from 'react';
import {
  DNS_CHECK_LABELS,
  DnsCheckMessages,
  type DnsResult,
  describeDnsError,
} from '../../../common/dns-check';
import { Paginator } from '../../components/paginator';
import { ScrollTable } from '../../components/scroll-table';
import { pageCount } from '../../lib/pagination';

const PAGE_SIZE = 50;

const COLORS: Record<DnsResult['check'], string> = {
  OK: 'green',
  NODATA: 'orange',
  NXDOMAIN: 'red',
  INVALID: 'red',
  ERROR: 'gray',
};

/**
 * The DNS check's results table (spec 001 §2 /dns-check): a select checkbox, domain, address
 * count, result label and error (in Dutch) per row, pages of 50, and a select-all checkbox over every row.
 */
export function DnsResults(props: {
  results: DnsResult[];
  selected: Set<string>;
  onSelected: (selected: Set<string>) => void;
}) {
  const { results, selected, onSelected } = props;
  const [page, setPage] = useState(1);
  const total = pageCount(results.length, PAGE_SIZE);
  const current = Math.min(page, total);
  const visible = results.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);
  const selectable = results.filter((r) => !r.blacklisted);
  const allSelected = selectable.length > 0 && selectable.every((r) => selected.has(r.domain));
  const someSelected = selected.size > 0 && !allSelected;

  const toggle = (domain: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(domain);
    else next.delete(domain);
    onSelected(next);
  };

  if (results.length === 0) return <Text c="dimmed">{DnsCheckMessages.noDomains}</Text>;
  return (
    <>
      <ScrollTable striped verticalSpacing="xs" aria-label="Resultaten">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40}>
              <Checkbox
                aria-label={DnsCheckMessages.selectAll}
                checked={allSelected}
                indeterminate={someSelected}
                onChange={(e) =>
                  onSelected(e.currentTarget.checked ? new Set(selectable.map((r) => r.domain)) : new Set())
                }
              />
            </Table.Th>
            <Table.Th>Domein</Table.Th>
            <Table.Th>Aantal adressen</Table.Th>
            <Table.Th>Resultaat</Table.Th>
            <Table.Th>{DnsCheckMessages.errorColumn}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {visible.map((r) => (
            <Table.Tr key={r.domain} data-testid={`dns-row-${r.domain}`}>
              <Table.Td>
                <Checkbox
                  aria-label={`Selecteer ${r.domain}`}
                  checked={selected.has(r.domain)}
                  disabled={r.blacklisted}
                  onChange={(e) => toggle(r.domain, e.currentTarget.checked)}
                />
              </Table.Td>
              <Table.Td>
                {r.domain}{' '}
                {r.blacklisted && (
                  <Badge size="sm" color="dark" variant="light">
                    {DnsCheckMessages.blacklisted}
                  </Badge>
                )}
              </Table.Td>
              <Table.Td>{r.count.toLocaleString('nl-NL')}</Table.Td>
              <Table.Td>
                <Badge color={COLORS[r.check]} variant="light">
                  {DNS_CHECK_LABELS[r.check]}
                </Badge>
              </Table.Td>
              <Table.Td>{describeDnsError(r.error)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </ScrollTable>
      <Paginator page={current} total={total} onChange={setPage} />
    </>
  );
}
