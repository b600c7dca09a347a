import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Select,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconAlertTriangle, IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { formatCount } from '../../../common/numbers';
import {
  formatEuroCents,
  formatMonth,
  MonthSchema,
  StatementLabels,
  StatementMessages,
  type StatementSummary,
} from '../../../common/statements';
import { PageTitle } from '../../components/page-title';
import { ScrollTable } from '../../components/scroll-table';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { listStatements, statementsKey } from './api';
import { IssuerWarning } from './issuer-warning';
import { defaultMonth, monthOptions, shiftMonth } from './months';
import { StatementDrawer } from './statement-drawer';
import {
  monthTotals,
  openParamsOf,
  openStatementOf,
  statementName,
  stateText,
  vatText,
} from './statement-text';

/**
 * /statements 'Afrekeningen': per calendar month (by planned send date; the previous month by
 * default) the partners' proposed and issued statements with a totals row; a row opens the
 * statement in a drawer (?partner=&dataset= for a proposal, ?statement= for an issued one). A
 * warning above it while the issuer's name or address is not set.
 */
export function StatementsPage() {
  const [params, setParams] = useSearchParams();
  const asked = params.get('month') ?? '';
  const month = MonthSchema.safeParse(asked).success ? asked : defaultMonth();
  const list = useQuery({ queryKey: statementsKey(month), queryFn: () => listStatements(month) });
  useFailedQueryAlert(list.error, StatementMessages.fetchFailed);
  const options = monthOptions();
  if (!options.some((o) => o.value === month)) options.push({ value: month, label: formatMonth(month) });
  const setMonth = (value: string | null) => {
    if (value) setParams({ month: value });
  };
  const statements = list.data?.statements ?? [];

  return (
    <>
      <PageTitle>{StatementMessages.title}</PageTitle>
      <IssuerWarning />
      <Group align="flex-end" gap="xs" mb="md">
        <ActionIcon
          variant="default"
          size={36}
          aria-label="Vorige maand"
          onClick={() => setMonth(shiftMonth(month, -1))}
        >
          <IconChevronLeft size={16} />
        </ActionIcon>
        <Select
          label="Maand"
          data={options}
          value={month}
          onChange={setMonth}
          allowDeselect={false}
          searchable
          w={220}
        />
        <ActionIcon
          variant="default"
          size={36}
          aria-label="Volgende maand"
          disabled={month >= options[0].value}
          onClick={() => setMonth(shiftMonth(month, 1))}
        >
          <IconChevronRight size={16} />
        </ActionIcon>
      </Group>
      {list.isPending ? (
        list.error ? null : (
          <Center py="xl" data-testid="list-loading">
            <Loader size="sm" />
          </Center>
        )
      ) : statements.length === 0 ? (
        list.error ? null : (
          <Alert color="gray" title={`Geen afrekeningen over ${formatMonth(month)}`}>
            Er zijn in deze maand geen Aangeboden verzendingen met adressen uit bestanden van partners.
          </Alert>
        )
      ) : (
        <StatementTable
          statements={statements}
          onOpen={(s) => setParams(openParamsOf(s))}
          isFetching={list.isFetching}
        />
      )}
      <StatementDrawer
        open={openStatementOf(params, month)}
        onClose={() => setParams({ month })}
        onIssued={(id) => setParams({ month, statement: String(id) })}
      />
    </>
  );
}

/** The month's statements, one row each, and their totals. */
function StatementTable({
  statements,
  onOpen,
  isFetching,
}: {
  statements: StatementSummary[];
  onOpen: (s: StatementSummary) => void;
  isFetching: boolean;
}) {
  const totals = monthTotals(statements);
  const right = { textAlign: 'right', whiteSpace: 'nowrap' } as const;
  return (
    <ScrollTable striped highlightOnHover aria-label={StatementMessages.title} aria-busy={isFetching}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{StatementLabels.partner}</Table.Th>
          <Table.Th>{StatementLabels.state}</Table.Th>
          <Table.Th style={right}>{StatementLabels.mailings}</Table.Th>
          <Table.Th style={right}>{StatementLabels.addresses}</Table.Th>
          <Table.Th style={right}>{StatementLabels.amount}</Table.Th>
          <Table.Th style={right}>{StatementLabels.vat}</Table.Th>
          <Table.Th style={right}>{StatementLabels.total}</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {statements.map((s) => (
          <Table.Tr key={`${s.state}-${s.id ?? ''}-${s.partnerId}-${s.datasetId ?? ''}`}>
            <Table.Td>
              <Group gap={6} wrap="nowrap">
                <Text size="sm">{statementName(s)}</Text>
                {s.missingCommission > 0 && (
                  <Tooltip label={StatementMessages.noCommission}>
                    <IconAlertTriangle
                      size={16}
                      color="var(--mantine-color-orange-6)"
                      aria-label={`${StatementMessages.noCommission}: ${s.missingCommission}`}
                    />
                  </Tooltip>
                )}
                {s.corrections > 0 && (
                  <Badge size="xs" color="yellow" variant="light" miw="max-content">
                    {StatementMessages.correction}
                  </Badge>
                )}
              </Group>
            </Table.Td>
            <Table.Td>
              <Badge color={s.state === 'issued' ? 'green' : 'blue'} variant="light" miw="max-content">
                {stateText(s)}
              </Badge>
            </Table.Td>
            <Table.Td style={right}>{formatCount(s.mailings)}</Table.Td>
            <Table.Td style={right}>{formatCount(s.addresses)}</Table.Td>
            <Table.Td style={right}>{formatEuroCents(s.amountCents)}</Table.Td>
            <Table.Td style={right}>{vatText(s)}</Table.Td>
            <Table.Td style={right}>{formatEuroCents(s.totalCents)}</Table.Td>
            <Table.Td>
              <Button
                size="xs"
                variant="subtle"
                onClick={() => onOpen(s)}
                aria-label={`Open ${statementName(s)}`}
              >
                Openen
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
      <Table.Tfoot>
        <Table.Tr data-testid="statement-totals" fw={700}>
          <Table.Td>{StatementLabels.total}</Table.Td>
          <Table.Td />
          {/* A mailing with addresses of several partners is on each of their statements: no sum. */}
          <Table.Td />
          <Table.Td style={right}>{formatCount(totals.addresses)}</Table.Td>
          <Table.Td style={right}>{formatEuroCents(totals.amountCents)}</Table.Td>
          <Table.Td style={right}>{formatEuroCents(totals.vatCents)}</Table.Td>
          <Table.Td style={right}>{formatEuroCents(totals.totalCents)}</Table.Td>
          <Table.Td />
        </Table.Tr>
      </Table.Tfoot>
    </ScrollTable>
  );
}
