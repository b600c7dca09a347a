import { describe, expect, it } from 'vitest';
import type { AvgLookup, AvgMailing, AvgRecord } from '../../../common/avg';
import { AvgErasureMessages as M } from '../../../common/avg-erasure';
import { erasureItems } from './erasure-summary';

const record = (datasetId: string): AvgRecord => ({
  partner: { id: 'p', name: 'Partner' },
  dataset: { id: datasetId, name: `Bestand ${datasetId}` },
  createdAt: '2026-01-01T10:00:00Z',
  updatedAt: '2026-01-01T10:00:00Z',
  source: { kind: 'import', taskId: null, file: null },
  attributes: [],
  columns: [],
});

const mailing = (id: string, state: string, datasetId = 'a'): AvgMailing => ({
  campaign: { id: 'c', name: 'Campagne' },
  mailing: { id, name: `Verzending ${id}` },
  plannedSend: '2026-02-01T09:00:00Z',
  state,
  datasetId,
  opens: 0,
  clicks: 0,
  bounces: 0,
  interests: [],
  events: [],
});

const lookup = (held: Partial<AvgLookup> = {}): AvgLookup => ({
  email: 'jan@voorbeeld.nl',
  found: true,
  address: null,
  records: [],
  enrichment: [],
  mailings: [],
  blacklists: [],
  mentions: [],
  testPersons: [],
  erasedAt: null,
  ...held,
});

describe('erasureItems', () => {
  it('says nothing is held, then the suppression, for an address with nothing on it', () => {
    expect(erasureItems(lookup({ found: false }))).toEqual([M.confirmNothingHeld, M.confirmSuppression]);
  });

  it('counts records and their distinct datasets, enrichment files, open and sent mailings apart', () => {
    const items = erasureItems(
      lookup({
        records: [record('a'), record('b'), record('b')],
        enrichment: [
          { file: 'verrijking.csv', date: '2026-01-02T00:00:00Z', values: [] },
          { file: 'extra.csv', date: '2026-01-03T00:00:00Z', values: [] },
        ],
        // The same mailing twice (two of its datasets) is one mailing.
        mailings: [
          mailing('m1', 'draft', 'a'),
          mailing('m1', 'draft', 'b'),
          mailing('m2', 'final'),
          mailing('m3', 'offered'),
          mailing('m4', 'cancelled'),
          mailing('m5', 'offered'),
        ],
      }),
    );
    expect(items).toEqual([
      M.confirmRecords(3, 2),
      M.confirmEnrichment(2),
      M.confirmOpenMailings(2),
      M.confirmSentMailings(3),
      M.confirmSuppression,
    ]);
    expect(items[0]).toBe('3 records in 2 bestanden');
  });

  it('names the blacklists that stay, also when nothing else is held', () => {
    const items = erasureItems(
      lookup({
        blacklists: [
          { list: 'email', value: 'jan@voorbeeld.nl', partnerId: null, datasetName: null, createdAt: '' },
        ],
      }),
    );
    expect(items).toEqual([M.confirmNothingHeld, M.confirmBlacklists, M.confirmSuppression]);
  });

  it("counts the other addresses' records that mention the address, an attribute and its column once", () => {
    const mention = (addressId: string, kind: 'attribute' | 'column') => ({
      partner: { id: 'p', name: 'Partner' },
      dataset: { id: 'd', name: 'Bestand' },
      kind,
      name: 'contact_email',
      label: 'contact_email',
      addressId,
    });
    const items = erasureItems(
      lookup({
        found: true,
        mentions: [mention('7', 'attribute'), mention('7', 'column'), mention('8', 'attribute')],
      }),
    );
    expect(items).toEqual([M.confirmMentions(2), M.confirmSuppression]);
    expect(items[0]).toContain('2 records van andere adressen');
    expect(erasureItems(lookup({ mentions: [mention('7', 'attribute')] }))[0]).toContain(
      'de rest van dat record blijft',
    );
  });

  it('uses the singular for one of each', () => {
    const items = erasureItems(
      lookup({
        records: [record('a')],
        enrichment: [{ file: 'v.csv', date: '', values: [] }],
        mailings: [mailing('m1', 'draft'), mailing('m2', 'offered')],
      }),
    );
    expect(items.slice(0, 4)).toEqual([
      '1 record in 1 bestand',
      'verrijkingswaarden uit 1 verrijkingsbestand',
      'de plaats in 1 mailing die nog niet is aangeboden',
      M.confirmSentMailings(1),
    ]);
  });

  it('lists the test persons with where each is kept', () => {
    const items = erasureItems(
      lookup({
        testPersons: [
          { partner: null, dataset: null, firstName: 'Tess', preposition: '', lastName: 'Test' },
          {
            partner: { id: 'p', name: 'Partner' },
            dataset: { id: 'a', name: 'Bestand a' },
            firstName: 'Tess',
            preposition: '',
            lastName: 'Test',
          },
        ],
      }),
    );
    expect(items).toEqual([
      'het adres als testpersoon (Instellingen (testpersoon van elke proeflijst), Partner / Bestand a): de testpersoon wordt verwijderd',
      M.confirmSuppression,
    ]);
  });
});
