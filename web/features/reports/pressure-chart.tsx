import { BarChart } from '@mantine/charts';
import { Card, Title } from '@mantine/core';
import type { PressureEntry } from '../../../common/mailings';
import { formatCount } from '../../../common/numbers';
import { formatDate } from '../../lib/dates';
import { pressureWeeks } from './pressure-weeks';

/** The /pressure table's addresses summed per Dutch week, as bars (the same data as the table beside it). */
export function PressureChart({ entries }: { entries: PressureEntry[] }) {
  const data = pressureWeeks(entries).map((w) => ({ week: `wk ${formatDate(w.monday)}`, count: w.count }));
  return (
    <Card withBorder flex={1} miw={320} data-testid="chart-pressure">
      <Title order={4} mb="sm">
        Adressen per week
      </Title>
      <BarChart
        h={300}
        data={data}
        dataKey="week"
        valueFormatter={formatCount}
        series={[{ name: 'count', label: 'Aantal e-mailadressen', color: 'indigo.6' }]}
      />
    </Card>
  );
}
