import { Card, Checkbox, Group, Loader, Select, Switch, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { CountMessages, countTotals } from '../../../common/counts';
import { CATEGORIES, CATEGORY_LABELS } from '../../../common/extra-inzet';
import { PageTitle } from '../../components/page-title';
import { formatCount, formatDecimal } from '../../lib/numbers';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { countsKey, listCounts } from './api';

const ALL = '';

/**
 * /counts 'Bestandsaantallen' (spec 001 §2): per dataset its addresses by category, with the
 * blacklist toggle (on by default; a change reloads), a partner filter and a totals row; beside the
 * totals, which add the datasets up, the unique addresses over all datasets (each address once, in
 * its category), shown while all partners are (the server counts it over every dataset).
 */
export function CountPage() {
  const [useBlacklist, setUseBlacklist] = useState(true);
  const [partner, setPartner] = useState<string>(ALL);
  const counts = useQuery({ queryKey: countsKey(useBlacklist), queryFn: () => listCounts(useBlacklist) });
  useFailedQueryAlert(counts.error, CountMessages.fetchFailed);
  const partners = useMemo(
    () => [...new Set((counts.data?.rows ?? []).map((r) => r.dataset.partner))].sort(),
    [counts.data],
  );
  const rows = (counts.data?.rows ?? []).filter((r) => partner === ALL || r.dataset.partner === partner);
  const totals = countTotals(rows);
  const unique = partner === ALL ? counts.data?.unique : undefined;

  return (
    <>
      <PageTitle>{CountMessages.title}</PageTitle>
      <Group mb="md" align="end">
        <Switch
          label={CountMessages.useBlacklist}
          checked={useBlacklist}
          onChange={(e) => setUseBlacklist(e.currentTarget.checked)}
        />
        <Select
          aria-label="Partner"
          data={[
            { value: ALL, label: CountMessages.allPartners },
            ...partners.map((p) => ({ value: p, label: p })),
          ]}
          value={partner}
          onChange={(v) => setPartner(v ?? ALL)}
          allowDeselect={false}
          w={240}
        />
        {counts.isFetching && <Loader size="sm" aria-label="Tellingen laden" />}
      </Group>
      <Card withBorder p={0} style={{ overflowX: 'auto' }}>
        <Table striped highlightOnHover style={{ opacity: counts.isFetching ? 0.6 : 1 }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Volgorde</Table.Th>
              <Table.Th>Naam</Table.Th>
              <Table.Th>Actief</Table.Th>
              <Table.Th>Extra inzet</Table.Th>
              {CATEGORIES.map((c) => (
                <Table.Th key={c} ta="right">
                  {CATEGORY_LABELS[c]}
                </Table.Th>
              ))}
              <Table.Th ta="right">Totaal</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.dataset.id}>
                <Table.Td>{r.dataset.sort}</Table.Td>
                <Table.Td>{r.dataset.name}</Table.Td>
                <Table.Td>
                  <Checkbox checked={r.dataset.active} readOnly aria-label={`${r.dataset.name} actief`} />
                </Table.Td>
                <Table.Td>{formatDecimal(r.dataset.factor)}</Table.Td>
                <Table.Td ta="right">{formatCount(r.new)}</Table.Td>
                <Table.Td ta="right">{formatCount(r.notOpenedOrClicked)}</Table.Td>
                <Table.Td ta="right">{formatCount(r.opens)}</Table.Td>
                <Table.Td ta="right">{formatCount(r.clicks)}</Table.Td>
                <Table.Td ta="right">{formatCount(r.total)}</Table.Td>
              </Table.Tr>
            ))}
            {rows.length === 0 && !counts.isPending && (
              <Table.Tr>
                <Table.Td colSpan={9}>
                  <Text c="dimmed">{CountMessages.empty}</Text>
                </Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr fw={700} aria-label="Totaal">
              <Table.Td colSpan={4}>Totaal</Table.Td>
              <Table.Td ta="right">{formatCount(totals.new)}</Table.Td>
              <Table.Td ta="right">{formatCount(totals.notOpenedOrClicked)}</Table.Td>
              <Table.Td ta="right">{formatCount(totals.opens)}</Table.Td>
              <Table.Td ta="right">{formatCount(totals.clicks)}</Table.Td>
              <Table.Td ta="right">{formatCount(totals.total)}</Table.Td>
            </Table.Tr>
            {unique && (
              <Table.Tr aria-label={CountMessages.uniqueRow} title={CountMessages.uniqueHint}>
                <Table.Td colSpan={4}>{CountMessages.uniqueRow}</Table.Td>
                <Table.Td ta="right">{formatCount(unique.new)}</Table.Td>
                <Table.Td ta="right">{formatCount(unique.notOpenedOrClicked)}</Table.Td>
                <Table.Td ta="right">{formatCount(unique.opens)}</Table.Td>
                <Table.Td ta="right">{formatCount(unique.clicks)}</Table.Td>
                <Table.Td ta="right">{formatCount(unique.total)}</Table.Td>
              </Table.Tr>
            )}
          </Table.Tfoot>
        </Table>
      </Card>
    </>
  );
}
