import {
  Alert,
  Code,
  Group,
  Loader,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { AUDIT_KINDS, type AuditEntry } from '../../../common/audit';
import { AuditLogMessages } from '../../../common/audit-log';
import { CsvDownload } from '../../components/csv-download';
import { DateField } from '../../components/date-field';
import { PageTitle } from '../../components/page-title';
import { Paginator } from '../../components/paginator';
import { ScrollTable } from '../../components/scroll-table';
import { formatDateTime } from '../../lib/dates';
import { pageCount } from '../../lib/pagination';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { NoAccess, useIsAdmin } from '../users/no-access';
import { type AuditLogFilters, auditLogCsvUrl, auditLogKey, listAuditLog } from './api';

const PAGE_SIZE = 50;
const NO_FILTERS: AuditLogFilters = { user: '', kind: '', from: '', to: '' };
const KIND_OPTIONS = Object.entries(AUDIT_KINDS)
  .map(([value, label]) => ({ value, label }))
  .sort((a, b) => a.label.localeCompare(b.label, 'nl'));

/** /audit-log 'Auditlog': for administrators the filtered, server-paged audit log; other staff see 'Geen toegang'. */
export function AuditLogPage() {
  return useIsAdmin() ? <AuditLog /> : <NoAccess />;
}

/** The details of an entry as one short line: `key: value` pairs. */
function detailsText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

function AuditLog() {
  const [filters, setFilters] = useState<AuditLogFilters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const log = useQuery({
    queryKey: auditLogKey(filters, page, PAGE_SIZE),
    queryFn: () => listAuditLog(filters, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  useFailedQueryAlert(log.error, AuditLogMessages.fetchFailed);
  const setFilter = (name: keyof AuditLogFilters, value: string | null) => {
    setFilters((f) => ({ ...f, [name]: value ?? '' }));
    setPage(1);
  };
  const entries = log.data?.entries ?? [];

  return (
    <>
      <PageTitle actions={<CsvDownload href={auditLogCsvUrl(filters)} label="Downloaden (CSV)" />}>
        Auditlog
      </PageTitle>
      <Stack>
        <Paper withBorder p="md">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
            <TextInput
              label="Gebruiker"
              placeholder="Gebruikersnaam"
              maxLength={100}
              value={filters.user}
              onChange={(e) => setFilter('user', e.currentTarget.value.trim())}
            />
            <Select
              label="Soort"
              placeholder="Alle soorten"
              data={KIND_OPTIONS}
              clearable
              searchable
              value={filters.kind || null}
              onChange={(value) => setFilter('kind', value)}
            />
            <DateField
              label="Van"
              clearable
              value={filters.from || null}
              onChange={(v) => setFilter('from', v)}
            />
            <DateField
              label="Tot"
              clearable
              value={filters.to || null}
              onChange={(v) => setFilter('to', v)}
            />
          </SimpleGrid>
        </Paper>
        {log.isPending && !log.error ? (
          <Loader />
        ) : entries.length === 0 ? (
          log.error ? null : (
            <Alert color="gray">{AuditLogMessages.empty}</Alert>
          )
        ) : (
          <>
            <ScrollTable striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Tijdstip</Table.Th>
                  <Table.Th>Gebruiker</Table.Th>
                  <Table.Th>IP</Table.Th>
                  <Table.Th>Soort</Table.Th>
                  <Table.Th>Onderwerp</Table.Th>
                  <Table.Th>Rijen</Table.Th>
                  <Table.Th>Details</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {entries.map((e: AuditEntry) => (
                  <Table.Tr key={e.id}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(e.at)}</Table.Td>
                    <Table.Td>{e.username ?? ''}</Table.Td>
                    <Table.Td>{e.ip ?? ''}</Table.Td>
                    <Table.Td>{AUDIT_KINDS[e.kind] ?? e.kind}</Table.Td>
                    <Table.Td>{e.subject ?? ''}</Table.Td>
                    <Table.Td>{e.rows == null ? '' : e.rows.toLocaleString('nl-NL')}</Table.Td>
                    <Table.Td>
                      <Code>{detailsText(e.details)}</Code>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </ScrollTable>
            <Group justify="space-between">
              <Text size="sm" c="dimmed">
                {log.data?.total.toLocaleString('nl-NL')} vermeldingen
              </Text>
              <Paginator page={page} total={pageCount(log.data?.total ?? 0, PAGE_SIZE)} onChange={setPage} />
            </Group>
          </>
        )}
      </Stack>
    </>
  );
}
