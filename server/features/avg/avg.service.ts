import {
  AVG_BLACKLIST_NAMES,
  AVG_SOURCE_NAMES,
  type AvgLookup,
  type AvgMention,
  AvgMessages,
  type AvgRecord,
  type AvgSource,
  type AvgTestPerson,
  type AvgValue,
  testPersonPlace,
} from '../../../common/avg';
import { normalizeDomain } from '../../../common/blacklists';
import { attributeLabel } from '../../../common/global-attributes';
import type { DbOrTx } from '../../db/client';
import { blindIndex, blindIndexKey, type ColumnKeys, tryDecryptValue } from '../../lib/crypto';
import { downloadedValue } from '../uploads/csv-download';
import {
  type AvgRecordRow,
  getAvgAddress,
  listAvgBlacklists,
  listAvgEnrichment,
  listAvgMailings,
  listAvgRecords,
  listAvgTestPersons,
} from './avg.queries';
import { listMentionDatasets, listMentions } from './mentions.queries';
import { suppressedSince } from './suppression';

// The AVG (GDPR) art. 15 look-up: everything held on one e-mail address, decrypted for the person
// exactly as a dataset's CSV download decrypts it (downloadedValue).

function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

function isoOrNull(value: Date | string | null): string | null {
  return value === null ? null : iso(value);
}

/** One stored value as the person sees it: decrypted as the CSV download does, and whether it was ciphertext. */
function heldValue(keys: ColumnKeys, name: string, label: string, stored: string): AvgValue {
  return {
    name,
    label,
    value: downloadedValue(keys, stored),
    encrypted: tryDecryptValue(keys, stored) !== null,
  };
}

/** Attributes of a jsonb object (records.attrs, enrichment), labelled, the blind indexes of encrypted ones left out. */
function attributeValues(keys: ColumnKeys, attrs: Record<string, string>): AvgValue[] {
  const indexes = new Set(Object.keys(attrs).map(blindIndexKey));
  return Object.entries(attrs)
    .filter(([name, value]) => !indexes.has(name) && typeof value === 'string')
    .map(([name, value]) => heldValue(keys, name, attributeLabel(name), value));
}

function sourceOf(row: AvgRecordRow): AvgSource {
  if (row.task_id) return { kind: 'import', taskId: row.task_id, file: row.task_file };
  return { kind: row.has_api_key ? 'partner-api' : 'unknown', taskId: null, file: null };
}

function presentRecord(keys: ColumnKeys, row: AvgRecordRow): AvgRecord {
  const rawColumns = row.raw_columns ?? [];
  const columns = row.raw.flatMap((stored, i) =>
    stored === null || stored === ''
      ? []
      : [heldValue(keys, rawColumns[i] ?? `kolom ${i + 1}`, rawColumns[i] ?? `kolom ${i + 1}`, stored)],
  );
  return {
    partner: { id: row.partner_id, name: row.partner_name },
    dataset: { id: row.dataset_id, name: row.dataset_name },
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    source: sourceOf(row),
    attributes: attributeValues(keys, row.attrs),
    columns,
  };
}

/**
 * The records of other addresses holding the (normalised) e-mail in an encrypted e-mail column
 * (mentions.queries.ts), matched by the blind index of the normalised e-mail: only the partitions of
 * datasets with such a column are scanned, none when no dataset has one.
 */
export async function lookUpMentions(
  db: DbOrTx,
  keys: ColumnKeys,
  email: string,
  selfId: string | null,
): Promise<AvgMention[]> {
  const datasets = await listMentionDatasets(db);
  if (datasets.length === 0) return [];
  const index = blindIndex(keys, email);
  const mentions: AvgMention[] = [];
  for (const d of datasets)
    for (const row of await listMentions(db, d, index, selfId))
      mentions.push({
        partner: { id: d.partnerId, name: d.partnerName },
        dataset: { id: d.datasetId, name: d.datasetName },
        kind: row.kind,
        name: row.name,
        label: row.kind === 'attribute' ? attributeLabel(row.name) : row.name,
        addressId: row.address_id,
      });
  return mentions;
}

/** The test persons with the (normalised) e-mail (a dataset's, the settings' one). */
async function lookUpTestPersons(db: DbOrTx, email: string): Promise<AvgTestPerson[]> {
  return (await listAvgTestPersons(db, email)).map((r) => ({
    partner: r.partner_id === null ? null : { id: r.partner_id, name: r.partner_name ?? '' },
    dataset: r.dataset_id === null ? null : { id: r.dataset_id, name: r.dataset_name ?? '' },
    firstName: r.first_name,
    preposition: r.preposition,
    lastName: r.last_name,
  }));
}

/**
 * Everything held on the (normalised) e-mail address: records, enrichment, mailings with results,
 * blacklists, other addresses' records that mention it in an encrypted e-mail column, and the test
 * persons with it.
 */
export async function lookUpAddress(db: DbOrTx, keys: ColumnKeys, email: string): Promise<AvgLookup> {
  const address = await getAvgAddress(db, email);
  const erasedAt = await suppressedSince(db, keys, email);
  const mentions = await lookUpMentions(db, keys, email, address?.id ?? null);
  const testPersons = await lookUpTestPersons(db, email);
  const domain = address?.domain ?? normalizeDomain(email.slice(email.lastIndexOf('@') + 1));
  const blacklists = (await listAvgBlacklists(db, email, domain)).map((b) => ({
    list: b.list,
    value: b.value,
    partnerId: b.partner_id,
    datasetName: b.dataset_name,
    createdAt: iso(b.created_at),
  }));
  if (!address)
    return {
      email,
      found: blacklists.length > 0 || mentions.length > 0 || testPersons.length > 0,
      address: null,
      records: [],
      enrichment: [],
      mailings: [],
      blacklists,
      mentions,
      testPersons,
      erasedAt,
    };
  const [records, enrichment, mailings] = await Promise.all([
    listAvgRecords(db, address.id),
    listAvgEnrichment(db, address.id),
    listAvgMailings(db, address.id),
  ]);
  return {
    email,
    found: true,
    address: {
      id: address.id,
      sentCount: Number(address.sent_count),
      lastSentAt: isoOrNull(address.last_sent_at),
      lastOpenAt: isoOrNull(address.last_open_at),
      lastClickAt: isoOrNull(address.last_click_at),
      hardBouncedAt: isoOrNull(address.hard_bounced_at),
      os: address.os,
      openInterests: address.open_interests,
      clickInterests: address.click_interests,
    },
    records: records.map((r) => presentRecord(keys, r)),
    enrichment: enrichment.map((e) => ({
      file: e.name,
      date: iso(e.date),
      values: attributeValues(keys, e.attrs),
    })),
    mailings: mailings.map((m) => ({
      campaign: { id: m.campaign_id, name: m.campaign_name },
      mailing: { id: m.mailing_id, name: m.mailing_name },
      plannedSend: iso(m.planned_send),
      state: m.state,
      datasetId: m.dataset_id,
      opens: m.events.filter((e) => e.event === 'open').length,
      clicks: m.events.filter((e) => e.event === 'click').length,
      bounces: m.events.filter((e) => e.event === 'hardBounce' || e.event === 'softBounce').length,
      interests: m.interests,
      events: m.events.map((e) => ({ event: e.event, at: iso(e.at), os: e.os })),
    })),
    blacklists,
    mentions,
    testPersons,
    erasedAt,
  };
}

/** The number of facts a look-up holds (records, enrichment files, mailings, blacklist entries, mentions, test persons), as its audit entry's rows. */
export function countFacts(lookup: AvgLookup): number {
  return (
    lookup.records.length +
    lookup.enrichment.length +
    lookup.mailings.length +
    lookup.blacklists.length +
    lookup.mentions.length +
    lookup.testPersons.length
  );
}

/** The look-up as the person's CSV: one row per fact, columns Onderdeel, Bron, Kenmerk, Waarde. */
export function avgCsvRows(lookup: AvgLookup): string[][] {
  const rows: string[][] = [];
  if (lookup.address) {
    const a = lookup.address;
    const facts: [string, string | null][] = [
      ['Aantal keer verzonden', String(a.sentCount)],
      ['Laatst verzonden', a.lastSentAt],
      ['Laatst geopend', a.lastOpenAt],
      ['Laatst geklikt', a.lastClickAt],
      ['Harde bounce', a.hardBouncedAt],
      ['Besturingssystemen', a.os.join(', ')],
      ['Interesses (geopend)', a.openInterests.join(', ')],
      ['Interesses (geklikt)', a.clickInterests.join(', ')],
    ];
    for (const [name, value] of facts) if (value) rows.push(['Adres', lookup.email, name, value]);
  }
  for (const r of lookup.records) {
    const source = `${r.partner.name} / ${r.dataset.name}`;
    rows.push(['Bestand', source, 'Binnengekomen', r.createdAt]);
    rows.push(['Bestand', source, 'Laatst bijgewerkt', r.updatedAt]);
    const how = r.source.file
      ? `${AVG_SOURCE_NAMES[r.source.kind]} (${r.source.file})`
      : AVG_SOURCE_NAMES[r.source.kind];
    rows.push(['Bestand', source, 'Bron', how]);
    for (const v of r.attributes) rows.push(['Bestand', source, v.label, v.value]);
    for (const v of r.columns) rows.push(['Bestand (originele kolom)', source, v.label, v.value]);
  }
  for (const e of lookup.enrichment)
    for (const v of e.values) rows.push(['Verrijking', `${e.file} (${e.date})`, v.label, v.value]);
  for (const m of lookup.mailings) {
    const source = `${m.campaign.name} / ${m.mailing.name}`;
    rows.push(['Verzending', source, 'Geplande verzending', m.plannedSend]);
    rows.push(['Verzending', source, 'Status', m.state]);
    for (const e of m.events) rows.push(['Verzending', source, e.event, e.at]);
  }
  for (const b of lookup.blacklists) {
    const source =
      b.list === 'partner'
        ? `${AVG_BLACKLIST_NAMES.partner} (${b.partnerId} / ${b.datasetName})`
        : AVG_BLACKLIST_NAMES[b.list];
    rows.push(['Blacklist', source, b.value, b.createdAt]);
  }
  for (const m of lookup.mentions) {
    const kind = m.kind === 'attribute' ? AvgMessages.mentionAttribute : AvgMessages.mentionColumn;
    rows.push([
      AvgMessages.mentionsTitle,
      `${m.partner.name} / ${m.dataset.name}`,
      `${kind}: ${m.label}`,
      `adres ${m.addressId}`,
    ]);
  }
  for (const p of lookup.testPersons) {
    const name = [p.firstName, p.preposition, p.lastName].filter(Boolean).join(' ');
    rows.push([AvgMessages.testPersonsTitle, testPersonPlace(p), 'Naam', name]);
  }
  return rows;
}
