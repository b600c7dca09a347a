import { Table } from '@mantine/core';
import { formatCount } from '../../../common/numbers';
import { formatRate, type PartnerReport, type ReportFigures } from '../../../common/reports';
import { ScrollTable } from '../../components/scroll-table';
import { monthLabel } from './report-charts';

/** The figure cells of a row: mailings aside, delivered, opens, clicks, bounces, hard bounces and the three rates. */
function FigureCells({ f }: { f: ReportFigures }) {
  return (
    <>
      <Table.Td ta="right">{formatCount(f.delivered)}</Table.Td>
      <Table.Td ta="right">{formatCount(f.opens)}</Table.Td>
      <Table.Td ta="right">{formatCount(f.clicks)}</Table.Td>
      <Table.Td ta="right">{formatCount(f.bounces)}</Table.Td>
      <Table.Td ta="right">{formatCount(f.hardBounces)}</Table.Td>
      <Table.Td ta="right">{formatRate(f.openRate)}</Table.Td>
      <Table.Td ta="right">{formatRate(f.clickRate)}</Table.Td>
      <Table.Td ta="right">{formatRate(f.hardBounceRate)}</Table.Td>
    </>
  );
}

/** The report's table: one row per month, partner and dataset, and the totals of the period. */
export function ReportTable({ report }: { report: PartnerReport }) {
  return (
    <ScrollTable aria-label="Rapportage">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Maand</Table.Th>
          <Table.Th>Partner</Table.Th>
          <Table.Th>Bestand</Table.Th>
          <Table.Th ta="right">Verzendingen</Table.Th>
          <Table.Th ta="right">Afgeleverd</Table.Th>
          <Table.Th ta="right">Geopend</Table.Th>
          <Table.Th ta="right">Geklikt</Table.Th>
          <Table.Th ta="right">Bounces</Table.Th>
          <Table.Th ta="right">Hard bounces</Table.Th>
          <Table.Th ta="right">Openratio</Table.Th>
          <Table.Th ta="right">Klikratio</Table.Th>
          <Table.Th ta="right">Hard-bounceratio</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {report.rows.map((r) => (
          <Table.Tr key={`${r.month}|${r.partnerId}|${r.datasetId}`}>
            <Table.Td>{monthLabel(r.month)}</Table.Td>
            <Table.Td>{r.partnerName || r.partnerId || '–'}</Table.Td>
            <Table.Td>{r.datasetName || r.datasetId}</Table.Td>
            <Table.Td ta="right">{formatCount(r.mailings)}</Table.Td>
            <FigureCells f={r} />
          </Table.Tr>
        ))}
        <Table.Tr fw={700} data-testid="report-total">
          <Table.Td colSpan={4}>Totaal</Table.Td>
          <FigureCells f={report.total} />
        </Table.Tr>
      </Table.Tbody>
    </ScrollTable>
  );
}
