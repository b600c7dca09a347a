import { Badge, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { formatCount } from '../../../common/numbers';
import {
  formatEuroCents,
  formatMonth,
  formatRate,
  type StatementDetail,
  StatementLabels,
  type StatementLine,
  StatementMessages,
} from '../../../common/statements';
import { ScrollTable } from '../../components/scroll-table';
import { formatDate } from '../../lib/dates';
import { vatText } from './statement-text';

const right = { textAlign: 'right', whiteSpace: 'nowrap' } as const;

/**
 * A statement's lines (per mailing and dataset: campaign, mailing, planned send, addresses,
 * commission per address, amount; corrections marked, lines without a valid commission warned)
 * and its totals: amount, VAT (or 'Btw verlegd') and total.
 */
export function StatementLines({ statement: s }: { statement: StatementDetail }) {
  if (s.lines.length === 0)
    return (
      <Text c="dimmed" size="sm">
        Deze afrekening heeft geen regels.
      </Text>
    );
  return (
    <ScrollTable striped verticalSpacing="xs" aria-label="Regels van de afrekening">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{StatementLabels.campaign}</Table.Th>
          <Table.Th>{StatementLabels.mailing}</Table.Th>
          <Table.Th>{StatementLabels.plannedSend}</Table.Th>
          <Table.Th>{StatementLabels.dataset}</Table.Th>
          <Table.Th style={right}>{StatementLabels.addresses}</Table.Th>
          <Table.Th style={right}>{StatementLabels.rate}</Table.Th>
          <Table.Th style={right}>{StatementLabels.amount}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {s.lines.map((line) => (
          <LineRow
            key={`${line.kind}-${line.correctsMonth ?? ''}-${line.mailingId}-${line.datasetId}`}
            line={line}
          />
        ))}
      </Table.Tbody>
      <Table.Tfoot>
        <TotalRow
          label={StatementLabels.subtotal}
          value={formatEuroCents(s.amountCents)}
          testId="statement-amount"
        />
        <TotalRow label={StatementLabels.vat} value={vatText(s)} testId="statement-vat" />
        <TotalRow
          label={StatementLabels.total}
          value={formatEuroCents(s.totalCents)}
          testId="statement-total"
          bold
        />
      </Table.Tfoot>
    </ScrollTable>
  );
}

/** One line; a correction carries a badge naming the month it corrects. */
function LineRow({ line }: { line: StatementLine }) {
  const isCorrection = line.kind === 'correction';
  return (
    <Table.Tr
      data-kind={line.kind}
      style={isCorrection ? { backgroundColor: 'var(--mantine-color-yellow-light)' } : undefined}
    >
      <Table.Td>
        <Stack gap={2} align="flex-start">
          {isCorrection && (
            <Badge size="sm" color="yellow" variant="filled" miw="max-content">
              {line.correctsMonth
                ? StatementMessages.correctionOf(formatMonth(line.correctsMonth))
                : StatementMessages.correction}
            </Badge>
          )}
          <Text size="sm">{line.campaignName}</Text>
        </Stack>
      </Table.Td>
      <Table.Td>{line.mailingName}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(line.plannedSend)}</Table.Td>
      <Table.Td>{line.datasetName}</Table.Td>
      <Table.Td style={right}>{formatCount(line.addresses)}</Table.Td>
      <Table.Td style={right}>
        {line.rate === null ? (
          <Tooltip label={StatementMessages.noCommission}>
            <Group gap={4} justify="flex-end" wrap="nowrap" c="orange.7">
              <IconAlertTriangle size={14} />
              <Text size="sm">Geen commissie</Text>
            </Group>
          </Tooltip>
        ) : (
          formatRate(line.rate)
        )}
      </Table.Td>
      <Table.Td style={right}>{formatEuroCents(line.amountCents)}</Table.Td>
    </Table.Tr>
  );
}

/** A row of the totals under the lines. */
function TotalRow({
  label,
  value,
  testId,
  bold,
}: {
  label: string;
  value: string;
  testId: string;
  bold?: boolean;
}) {
  return (
    <Table.Tr fw={bold ? 700 : undefined}>
      <Table.Td colSpan={6} style={right}>
        {label}
      </Table.Td>
      <Table.Td style={right} data-testid={testId}>
        {value}
      </Table.Td>
    </Table.Tr>
  );
}
