import { Center, Group, Loader, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Fragment } from 'react';
import { weekdayOf } from '../../../common/calendar-day';
import { PageTitle } from '../../components/page-title';
import { ScrollTable } from '../../components/scroll-table';
import { formatDate } from '../../lib/dates';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { PressureChart } from '../reports/pressure-chart';
import { listPressure, pressureKey } from './api';

// Monday 0 … Sunday 6, of the calendar day as written (a Dutch week, whatever the browser's zone).
const weekday = (date: string) => weekdayOf(date) - 1;

/**
 * /pressure 'Maildruk': per planned send day the addresses of Definitief and Aangeboden mailings (spec 001 §2),
 * and beside the table the same addresses per week as a chart.
 */
export function PressurePage() {
  const pressure = useQuery({ queryKey: pressureKey, queryFn: listPressure });
  useFailedQueryAlert(pressure.error, 'Maildruk kon niet worden opgehaald');
  const rows = pressure.data;
  return (
    <>
      <PageTitle>Maildruk</PageTitle>
      {!rows ? (
        pressure.error ? null : (
          <Center py="xl">
            <Loader size="sm" />
          </Center>
        )
      ) : rows.length === 0 ? (
        <Text c="dimmed">Geen Definitieve of Aangeboden verzendingen.</Text>
      ) : (
        <Group align="start" wrap="wrap">
          <ScrollTable maw={480} aria-label="Maildruk">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Datum</Table.Th>
                <Table.Th>Aantal e-mailadressen</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r, i) => (
                <Fragment key={r.date}>
                  {/* spec 001 §2: a separator line when the weekday number drops (a new week). */}
                  {i > 0 && weekday(r.date) < weekday(rows[i - 1].date) && (
                    <Table.Tr data-testid="week-separator">
                      <Table.Td
                        colSpan={2}
                        p={0}
                        style={{ borderTop: '3px solid var(--mantine-color-gray-5)' }}
                      />
                    </Table.Tr>
                  )}
                  <Table.Tr>
                    <Table.Td>{formatDate(r.date)}</Table.Td>
                    <Table.Td>{r.count.toLocaleString('nl-NL')}</Table.Td>
                  </Table.Tr>
                </Fragment>
              ))}
            </Table.Tbody>
          </ScrollTable>
          {/* The table's days per Dutch week (web/features/reports/pressure-weeks.ts). */}
          <PressureChart entries={rows} />
        </Group>
      )}
    </>
  );
}
