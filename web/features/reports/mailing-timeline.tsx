import { LineChart } from '@mantine/charts';
import { Card, Center, Group, Loader, SegmentedControl, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatCount } from '../../../common/numbers';
import { formatRate, ReportMessages } from '../../../common/reports';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { getTimeline, timelineKey } from './api';

/** A timeline bucket as a Dutch label: a day 'DD-MM', an hour 'DD-MM HH:00'. */
function bucketLabel(at: string): string {
  const [day, hour] = at.split(' ');
  const [, m, d] = day.split('-');
  return hour ? `${d}-${m} ${hour}` : `${d}-${m}`;
}

/**
 * A mailing's results over time since its send (the mailing screen): cumulative addresses that
 * opened, clicked or bounced per day (or per hour of the first week), ending at the counts the
 * mailing list shows; with its delivered addresses and rates when it is Aangeboden.
 */
export function MailingTimeline({ mailingId }: { mailingId: string }) {
  const [unit, setUnit] = useState<'day' | 'hour'>('day');
  const timeline = useQuery({
    queryKey: timelineKey(mailingId, unit),
    queryFn: () => getTimeline(mailingId, unit),
    // Switching day/hour keeps the chart (and its switch) in place while the other unit loads;
    // another mailing's timeline is never shown in the meantime.
    placeholderData: (previous) => (previous?.mailingId === mailingId ? previous : undefined),
  });
  useFailedQueryAlert(timeline.error, ReportMessages.timelineFailed);
  const data = timeline.data;
  // A failure has its alert; until the first answer a spinner holds the place.
  if (!data)
    return timeline.error ? null : (
      <Center mt="md" maw={720} py="md">
        <Loader size="sm" aria-label="Resultaten in de tijd laden" />
      </Center>
    );
  const { total } = data;
  return (
    <Card withBorder mt="md" maw={720} data-testid="chart-timeline">
      <Group justify="space-between" mb="sm">
        <Title order={4}>Resultaten in de tijd</Title>
        <SegmentedControl
          size="xs"
          value={unit}
          onChange={(v) => setUnit(v as 'day' | 'hour')}
          data={[
            { value: 'day', label: 'Per dag' },
            { value: 'hour', label: 'Per uur (eerste week)' },
          ]}
        />
      </Group>
      {data.points.length === 0 ? (
        <Text c="dimmed">Nog geen resultaten.</Text>
      ) : (
        <LineChart
          h={240}
          data={data.points.map((p) => ({ ...p, label: bucketLabel(p.at) }))}
          dataKey="label"
          withLegend
          valueFormatter={formatCount}
          series={[
            { name: 'opens', label: 'Geopend', color: 'indigo.6' },
            { name: 'clicks', label: 'Geklikt', color: 'teal.6' },
            { name: 'bounces', label: 'Bounces', color: 'orange.6' },
            { name: 'hardBounces', label: 'Hard bounces', color: 'red.6' },
          ]}
        />
      )}
      <Text size="sm" mt="xs" data-testid="timeline-totals">
        Afgeleverd {formatCount(total.delivered)} · geopend {formatCount(total.opens)} (
        {formatRate(total.openRate)}) · geklikt {formatCount(total.clicks)} ({formatRate(total.clickRate)}) ·
        hard bounces {formatCount(total.hardBounces)} ({formatRate(total.hardBounceRate)})
      </Text>
      <Text size="xs" c="dimmed">
        Per adres telt de eerste gebeurtenis van elke soort, op het tijdstip uit de resultaten; afgeleverd
        zijn de adressen zodra de verzending Aangeboden is.
      </Text>
    </Card>
  );
}
