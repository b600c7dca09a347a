import { Center, Group, Loader, Select, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { addMonths, businessToday } from '../../../common/calendar-day';
import { MAX_REPORT_MONTHS, ReportMessages } from '../../../common/reports';
import { CsvDownload } from '../../components/csv-download';
import { PageTitle } from '../../components/page-title';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { datasetsKey, listDatasets } from '../datasets/api';
import { listPartners, partnersKey } from '../partners/api';
import { getPartnerReport, partnerReportCsvUrl, partnerReportKey, type ReportFilter } from './api';
import { monthLabel, ReportCharts } from './report-charts';
import { ReportTable } from './report-table';

const ALL = '';

/** The months a period can start or end in: the last MAX_REPORT_MONTHS, newest first. */
function monthChoices(thisMonth: string) {
  return Array.from({ length: MAX_REPORT_MONTHS }, (_, i) => {
    const m = addMonths(thisMonth, -i);
    return { value: m, label: monthLabel(m) };
  });
}

/**
 * /reports 'Rapportages' (docs/decisions.md, Reports): per month, partner and dataset the delivered
 * addresses of Aangeboden mailings, opens, clicks and bounces with their rates, as charts and as a
 * table with the same figures; filters by period (the last 12 months by default), partner and
 * dataset; the table as a CSV download.
 */
export function ReportPage() {
  const thisMonth = businessToday().slice(0, 7);
  const [from, setFrom] = useState(addMonths(thisMonth, -11));
  const [to, setTo] = useState(thisMonth);
  const [partnerId, setPartnerId] = useState(ALL);
  const [datasetId, setDatasetId] = useState(ALL);
  const filter: ReportFilter = { from, to, partnerId, datasetId };
  const report = useQuery({
    queryKey: partnerReportKey(filter),
    queryFn: () => getPartnerReport(filter),
    enabled: from <= to,
  });
  useFailedQueryAlert(report.error, ReportMessages.fetchFailed);
  const partners = useQuery({ queryKey: partnersKey, queryFn: listPartners });
  const datasets = useQuery({
    queryKey: datasetsKey(partnerId),
    queryFn: () => listDatasets(partnerId),
    enabled: partnerId !== ALL,
  });
  const months = monthChoices(thisMonth);
  const data = report.data;

  return (
    <>
      <PageTitle>{ReportMessages.title}</PageTitle>
      <Group mb="md" align="end">
        <Select
          label="Van"
          data={months}
          value={from}
          onChange={(v) => v && setFrom(v)}
          allowDeselect={false}
          w={150}
        />
        <Select
          label="Tot en met"
          data={months}
          value={to}
          onChange={(v) => v && setTo(v)}
          allowDeselect={false}
          w={150}
        />
        <Select
          label="Partner"
          data={[
            { value: ALL, label: 'Alle partners' },
            ...(partners.data ?? []).map((p) => ({ value: p._id, label: p.name || p._id })),
          ]}
          value={partnerId}
          onChange={(v) => {
            setPartnerId(v ?? ALL);
            setDatasetId(ALL);
          }}
          allowDeselect={false}
          searchable
          w={220}
        />
        <Select
          label="Bestand"
          disabled={partnerId === ALL}
          data={[
            { value: ALL, label: 'Alle bestanden' },
            ...(datasets.data ?? []).map((d) => ({ value: d._id, label: d.name })),
          ]}
          value={datasetId}
          onChange={(v) => setDatasetId(v ?? ALL)}
          allowDeselect={false}
          w={220}
        />
        {/* A period ending before it starts has no report, so no download (the server would refuse it). */}
        {from <= to && <CsvDownload href={partnerReportCsvUrl(filter)} label="Download CSV" />}
        {report.isFetching && <Loader size="sm" aria-label="Rapportage laden" />}
      </Group>
      {from > to && <Text c="red">{ReportMessages.monthOrder}</Text>}
      {!data ? (
        // A period that ends before it starts is not asked for: its message stands alone.
        report.error || from > to ? null : (
          <Center py="xl">
            <Loader size="sm" />
          </Center>
        )
      ) : (
        <>
          <ReportCharts report={data} byDataset={partnerId !== ALL} />
          {data.rows.length === 0 && (
            <Text c="dimmed" mb="sm">
              {ReportMessages.empty}
            </Text>
          )}
          <ReportTable report={data} />
        </>
      )}
    </>
  );
}
