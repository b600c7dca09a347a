import { Alert, Button, Group, Loader, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import {
  AVG_BLACKLIST_NAMES,
  AVG_SOURCE_NAMES,
  type AvgLookup,
  AvgLookupQuerySchema,
  AvgMessages,
  type AvgValue,
  testPersonPlace,
} from '../../../common/avg';
import { MAILING_STATE_LABELS } from '../../../common/mailings';
import { PageTitle } from '../../components/page-title';
import { ScrollTable } from '../../components/scroll-table';
import { formatDateTime } from '../../lib/dates';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { avgDownloadUrl, avgLookupKey, lookUpAvg } from './api';
import { AvgBulkErasure } from './avg-bulk-erasure';
import { AvgErasureAction, type ErasureOutcome, erasureOutcomeText } from './avg-erasure';

/**
 * /avg 'AVG-verzoeken': an e-mail address looked up (art. 15), everything held on it, its downloads
 * and its erasure (art. 17); below, the erasure of a file of addresses.
 */
export function AvgLookupPage() {
  const [input, setInput] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [email, setEmail] = useState<string | null>(null);
  const [erased, setErased] = useState<ErasureOutcome | null>(null);
  const lookup = useQuery({
    queryKey: avgLookupKey(email ?? ''),
    queryFn: () => lookUpAvg(email ?? ''),
    enabled: email !== null,
    // Every look-up is recorded in the audit log: only a new 'Opzoeken' asks again.
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  useFailedQueryAlert(lookup.error, AvgMessages.lookupFailed);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = AvgLookupQuerySchema.safeParse({ email: input });
    if (!parsed.success) {
      setError(AvgMessages.invalidEmail);
      return;
    }
    setError(null);
    setErased(null);
    setEmail(parsed.data.email);
  };

  return (
    <>
      <PageTitle>AVG-verzoeken</PageTitle>
      <Stack>
        <Paper withBorder p="md" component="form" onSubmit={handleSubmit}>
          <Group align="flex-end">
            <TextInput
              label="E-mailadres"
              placeholder="naam@voorbeeld.nl"
              maxLength={300}
              value={input}
              error={error}
              onChange={(e) => setInput(e.currentTarget.value)}
              style={{ flex: 1, maxWidth: 480 }}
            />
            <Button type="submit">Opzoeken</Button>
          </Group>
        </Paper>
        {email !== null && lookup.isFetching && <Loader />}
        {erased && erased.email === email && (
          <Alert color="green" data-testid="avg-erasure-done">
            {erasureOutcomeText(erased)}
          </Alert>
        )}
        {lookup.data && !lookup.isFetching && (
          <AvgResult
            lookup={lookup.data}
            onErased={(outcome) => {
              setErased(outcome);
              // The look-up now shows the erasure (and what stays); asked again, and audited as one.
              void lookup.refetch();
            }}
          />
        )}
        <AvgBulkErasure />
      </Stack>
    </>
  );
}

function AvgResult({ lookup, onErased }: { lookup: AvgLookup; onErased: (outcome: ErasureOutcome) => void }) {
  const erasure = <AvgErasureAction lookup={lookup} onErased={onErased} />;
  // An erased address is held nowhere: the erasure's alert says all there is.
  if (!lookup.found && lookup.erasedAt) return erasure;
  if (!lookup.found) {
    // Nothing held, the address can still be kept out from now on: the erasure adds its suppression.
    return (
      <Stack>
        <Alert color="gray">{AvgMessages.notFound(lookup.email)}</Alert>
        {erasure}
      </Stack>
    );
  }
  return (
    <Stack>
      <Group justify="space-between">
        <Text>
          Gevonden voor <b>{lookup.email}</b>
        </Text>
        <Group>
          <Button component="a" variant="default" href={avgDownloadUrl(lookup.email, 'json')} download>
            Downloaden (JSON)
          </Button>
          <Button component="a" variant="default" href={avgDownloadUrl(lookup.email, 'csv')} download>
            Downloaden (CSV)
          </Button>
        </Group>
      </Group>
      {erasure}
      <Section title="Bestanden" empty={lookup.records.length === 0}>
        <Rows
          headers={['Partner', 'Bestand', 'Binnengekomen', 'Bijgewerkt', 'Bron', 'Gegevens']}
          rows={lookup.records.map((r) => [
            r.partner.name,
            r.dataset.name,
            formatDateTime(r.createdAt),
            formatDateTime(r.updatedAt),
            r.source.file
              ? `${AVG_SOURCE_NAMES[r.source.kind]} (${r.source.file})`
              : AVG_SOURCE_NAMES[r.source.kind],
            <Values key="v" values={r.attributes.length > 0 ? r.attributes : r.columns} />,
          ])}
        />
      </Section>
      <Section title="Verrijking" empty={lookup.enrichment.length === 0}>
        <Rows
          headers={['Bestand', 'Datum', 'Gegevens']}
          rows={lookup.enrichment.map((e) => [
            e.file,
            formatDateTime(e.date),
            <Values key="v" values={e.values} />,
          ])}
        />
      </Section>
      <Section title="Verzendingen" empty={lookup.mailings.length === 0}>
        <Rows
          headers={[
            'Campagne',
            'Verzending',
            'Geplande verzending',
            'Status',
            'Opens',
            'Kliks',
            'Bounces',
            'Interesses',
          ]}
          rows={lookup.mailings.map((m) => [
            m.campaign.name,
            m.mailing.name,
            formatDateTime(m.plannedSend),
            MAILING_STATE_LABELS[m.state as keyof typeof MAILING_STATE_LABELS] ?? m.state,
            String(m.opens),
            String(m.clicks),
            String(m.bounces),
            m.interests.join(', '),
          ])}
        />
      </Section>
      <Section title="Blacklists" empty={lookup.blacklists.length === 0}>
        <Rows
          headers={['Lijst', 'Waarde', 'Partner', 'Bestand', 'Sinds']}
          rows={lookup.blacklists.map((b) => [
            AVG_BLACKLIST_NAMES[b.list],
            b.value,
            b.partnerId ?? '',
            b.datasetName ?? '',
            formatDateTime(b.createdAt),
          ])}
        />
      </Section>
      {lookup.mentions.length > 0 && (
        <Section title={AvgMessages.mentionsTitle} empty={false}>
          <Rows
            headers={['Partner', 'Bestand', 'Waar', 'Adres-id']}
            rows={lookup.mentions.map((m) => [
              m.partner.name,
              m.dataset.name,
              `${m.kind === 'attribute' ? AvgMessages.mentionAttribute : AvgMessages.mentionColumn}: ${m.label}`,
              m.addressId,
            ])}
          />
        </Section>
      )}
      {lookup.testPersons.length > 0 && (
        <Section title={AvgMessages.testPersonsTitle} empty={false}>
          <Rows
            headers={['Waar', 'Naam']}
            rows={lookup.testPersons.map((p) => [
              testPersonPlace(p),
              [p.firstName, p.preposition, p.lastName].filter(Boolean).join(' '),
            ])}
          />
        </Section>
      )}
    </Stack>
  );
}

function Section({ title, empty, children }: { title: string; empty: boolean; children: ReactNode }) {
  return (
    <Stack gap="xs">
      <Title order={4}>{title}</Title>
      {empty ? <Text c="dimmed">Geen gegevens.</Text> : children}
    </Stack>
  );
}

function Rows({ headers, rows }: { headers: string[]; rows: ReactNode[][] }) {
  return (
    <ScrollTable striped>
      <Table.Thead>
        <Table.Tr>
          {headers.map((h) => (
            <Table.Th key={h}>{h}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((cells, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the rows of one answer never reorder.
          <Table.Tr key={i}>
            {cells.map((cell, j) => (
              <Table.Td key={headers[j]}>{cell}</Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </ScrollTable>
  );
}

function Values({ values }: { values: AvgValue[] }) {
  return (
    <Stack gap={0}>
      {values.map((v) => (
        <Text key={v.name} size="sm">
          {v.label}: {v.value}
        </Text>
      ))}
    </Stack>
  );
}
