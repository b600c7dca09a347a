import { BarChart, LineChart } from '@mantine/charts';
import { Card, Text, Title } from '@mantine/core';
import { formatCount } from '../../../common/numbers';
import { formatRate, type PartnerReport } from '../../../common/reports';

const COLORS = [
  'indigo.6',
  'teal.6',
  'orange.6',
  'grape.6',
  'cyan.6',
  'lime.6',
  'red.6',
  'yellow.6',
  'pink.6',
  'blue.6',
];

/** A month 'YYYY-MM' as a short Dutch label ('mrt 2025'). */
export function monthLabel(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, 15)).toLocaleString('nl-NL', {
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/**
 * Delivered addresses per month, stacked per partner (per dataset once a partner is chosen), and the
 * open, click and hard-bounce rates per month: the figures of the table below, drawn.
 */
export function ReportCharts({ report, byDataset }: { report: PartnerReport; byDataset: boolean }) {
  // Series keys are s0, s1, ...: a partner or dataset id may hold a dot, which a chart reads as a path.
  const groups = new Map<string, { key: string; label: string }>();
  for (const r of report.rows) {
    const id = byDataset ? r.datasetId : r.partnerId;
    if (!groups.has(id))
      groups.set(id, {
        key: `s${groups.size}`,
        label: (byDataset ? r.datasetName : r.partnerName) || id || '–',
      });
  }
  const delivered = report.months.map((m) => {
    const point: Record<string, string | number> = { month: monthLabel(m.month) };
    for (const g of groups.values()) point[g.key] = 0;
    for (const r of report.rows)
      if (r.month === m.month) {
        const g = groups.get(byDataset ? r.datasetId : r.partnerId)!;
        point[g.key] = Number(point[g.key]) + r.delivered;
      }
    return point;
  });
  const rates = report.months.map((m) => ({
    month: monthLabel(m.month),
    open: m.openRate === null ? null : m.openRate * 100,
    click: m.clickRate === null ? null : m.clickRate * 100,
    hardBounce: m.hardBounceRate === null ? null : m.hardBounceRate * 100,
  }));
  return (
    <>
      <Card withBorder mb="md" data-testid="chart-delivered">
        <Title order={4} mb="sm">
          Afgeleverde adressen per maand
        </Title>
        <BarChart
          h={260}
          data={delivered}
          dataKey="month"
          type="stacked"
          withLegend
          valueFormatter={formatCount}
          series={[...groups.values()].map((g, i) => ({
            name: g.key,
            label: g.label,
            color: COLORS[i % COLORS.length],
          }))}
        />
      </Card>
      <Card withBorder mb="md" data-testid="chart-rates">
        <Title order={4} mb="sm">
          Open-, klik- en hard-bounceratio per maand
        </Title>
        <LineChart
          h={260}
          data={rates}
          dataKey="month"
          withLegend
          connectNulls={false}
          unit=" %"
          valueFormatter={(v) => formatRate(v / 100)}
          series={[
            { name: 'open', label: 'Openratio', color: 'indigo.6' },
            { name: 'click', label: 'Klikratio', color: 'teal.6' },
            { name: 'hardBounce', label: 'Hard-bounceratio', color: 'red.6' },
          ]}
        />
        <Text size="xs" c="dimmed" mt="xs">
          Ratio = adressen met een open, klik of hard bounce gedeeld door de afgeleverde adressen (van
          Aangeboden verzendingen).
        </Text>
      </Card>
    </>
  );
}
