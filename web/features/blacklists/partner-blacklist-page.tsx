import { Paper, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { BlacklistMessages, partnerBlacklistTitle } from '../../../common/blacklists';
import { PageTitle } from '../../components/page-title';
import { ScrollTable } from '../../components/scroll-table';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { getPartnerBlacklist, partnerBlacklistKey } from './api';

/**
 * /partners/{partnerId}/blacklist: the partner id with a possessive heading and, per file
 * (dataset), how many of its addresses are blacklisted (spec 001 §2).
 */
export function PartnerBlacklistPage() {
  const partnerId = useParams().partnerId ?? '';
  const rows = useQuery({
    queryKey: partnerBlacklistKey(partnerId),
    queryFn: () => getPartnerBlacklist(partnerId),
  });
  useFailedQueryAlert(rows.error, BlacklistMessages.loadFailed);
  return (
    <>
      <PageTitle>{partnerBlacklistTitle(partnerId)}</PageTitle>
      <Paper withBorder p="md" maw={700}>
        {rows.data && rows.data.length === 0 ? (
          <Text c="dimmed">Geen geblackliste adressen voor deze partner.</Text>
        ) : (
          <ScrollTable striped aria-label="Blacklist per bestand">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Bestand</Table.Th>
                <Table.Th>Geblackliste e-mailadressen</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(rows.data ?? []).map((r) => (
                <Table.Tr key={r.dataset}>
                  <Table.Td>{r.dataset}</Table.Td>
                  <Table.Td>{r.blacklisted.toLocaleString('nl-NL')}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </ScrollTable>
        )}
      </Paper>
    </>
  );
}
