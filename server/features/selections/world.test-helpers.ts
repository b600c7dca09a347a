import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { QueryNode } from '../../../common/query-tree';
import type { Db } from '../../db/client';
import { pgTextArray } from '../../lib/pg-array';
import { recordsPartition } from '../records/records.queries';
import type { EvalSettings, World, WorldMailing } from './evaluator.test-helpers';
import { markSelDirtyRecords } from './sel-record.sql';
import { normalizeFileValue } from './selection-file.queries';

// Random worlds for the selection property test: datasets of two partners, addresses with
// engagement, records with messy attribute values, blacklists, and mailings around one week.

/** A small seeded PRNG (mulberry32), so a failing world can be made again from its seed. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const ATTRIBUTE_VALUES: Record<string, string[]> = {
  postcode: ['1011AB', '1011 ab', '1012CD', '2500XY', '10', ' 1011ab ', '9999ZZ', '1011_B', '10%1', '10*5'],
  // A blank value, which no writer stores, is no value to 'is leeg' either.
  gender: ['M', 'F', 'm', ' f', 'X', ' '],
  income: ['1', '2', '3', '2,5', '10', 'x', '-1', '1.5'],
  birthDate: [
    '1980-05-17',
    '17-05-1980',
    '1996-11-25 00:00:00',
    '2023-02-30',
    'onbekend',
    '01-01-2001',
    '2010-12-31T10:00:00',
    // Around the age bounds on the test's day (25-11-2026): 29, 51 and 50 years old, leap days.
    '1996-11-26',
    '1975-11-25',
    '26-11-1975',
    '2000-02-29',
    '2008-02-29',
  ],
  city: ['Amsterdam', 'amsterdam ', 'Den Haag', 'Élancourt', 'élancourt', 'Zwolle', 'ZWOLLE'],
};
/** An attribute only enrichment files give (the others can come from records and enrichment both). */
export const ENRICHMENT_ONLY_VALUES: Record<string, string[]> = {
  klantwaarde: ['A', 'b', ' B ', '3', '12', '2001-06-01'],
};
const OS = ['ios', 'android', 'windows'];
const INTERESTS = ['auto', 'reizen', 'sport'];
const LABELS = ['lifestyle', 'b2b'];
const DOMAINS = ['gmail.com', 'hotmail.com', 'ziggo.nl', 'kpn.nl'];
/** The Monday the test's mailings are planned around, and two other pressure dates. */
export const PRESSURE_DATES = ['2026-11-30', '2026-12-07', '2026-11-23'];

/** Makes a random world from a seed. */
export function makeWorld(seed: number): World {
  const rnd = prng(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
  const some = <T>(xs: T[], p = 0.4) => xs.filter(() => rnd() < p);
  const partners = [`pa${seed}`, `pb${seed}`];
  const datasets = Array.from({ length: 3 + Math.floor(rnd() * 4) }, (_, i) => ({
    id: `ds${seed}_${i}`,
    partnerId: pick(partners),
    name: `bestand${i}`,
    description: pick(['Nieuwsbrief', 'Winacties', '']),
    types: some(LABELS, 0.5),
    active: rnd() < 0.8,
    sort: Math.floor(rnd() * 3),
  }));
  const day = (d: string) => new Date(`${d}T10:00:00Z`);
  const addresses = Array.from({ length: 40 + Math.floor(rnd() * 40) }, (_, i) => {
    const domain = pick(DOMAINS);
    return {
      id: seed * 1000 + i + 1,
      email: `p${i}.${seed}@${domain}`,
      domain,
      sentCount: Math.floor(rnd() * 3),
      lastOpenAt: rnd() < 0.3 ? day('2026-10-01') : null,
      lastClickAt: rnd() < 0.15 ? day('2026-10-02') : null,
      hardBouncedAt: rnd() < 0.05 ? day('2026-09-01') : null,
      os: some(OS, 0.3),
      openInterests: some(INTERESTS, 0.3),
      clickInterests: some(INTERESTS, 0.2),
      // Enrichment values, also of attributes records have: the record's own must win.
      enrichment: Object.fromEntries(
        Object.entries({ ...ATTRIBUTE_VALUES, ...ENRICHMENT_ONLY_VALUES })
          .filter(() => rnd() < 0.3)
          .map(([k, vs]) => [k, pick(vs)]),
      ),
    };
  });
  const records = addresses.flatMap((a) =>
    some(datasets, 0.35).map((d) => ({
      datasetId: d.id,
      addressId: a.id,
      attrs: Object.fromEntries(
        Object.entries(ATTRIBUTE_VALUES)
          .filter(() => rnd() < 0.85)
          .map(([k, vs]) => [k, pick(vs)]),
      ),
    })),
  );
  const campaign = { id: `c${seed}`, type: rnd() < 0.6 ? pick(LABELS) : null };
  const mailingOf = (
    id: string,
    campaignId: string,
    state: WorldMailing['state'],
    planned: string,
  ): WorldMailing => ({
    id,
    campaignId,
    state,
    plannedSend: day(planned),
    addresses: some(records, 0.08).map((r) => ({ addressId: r.addressId, datasetId: r.datasetId })),
  });
  // One address once per mailing, as the primary key keeps it.
  const once = (m: WorldMailing) => {
    const seen = new Set<number>();
    m.addresses = m.addresses.filter((x) => !seen.has(x.addressId) && seen.add(x.addressId));
    return m;
  };
  const mailing = once(mailingOf(`m${seed}`, campaign.id, 'draft', '2026-11-25'));
  const otherMailings = [
    once(mailingOf(`m${seed}_f`, `c${seed}_o`, 'final', pick(['2026-11-24', '2026-11-29', '2026-12-01']))),
    once(mailingOf(`m${seed}_o`, `c${seed}_o`, 'offered', pick(['2026-11-23', '2026-11-28', '2026-11-16']))),
    once(mailingOf(`m${seed}_d`, `c${seed}_o`, 'draft', '2026-11-26')),
    once(mailingOf(`m${seed}_c`, `c${seed}_o`, 'cancelled', '2026-11-26')),
  ];
  // Line files: rows from records (with case and space changes) and rows matching nothing.
  const addressOf = (id: number) => addresses.find((a) => a.id === id) as World['addresses'][number];
  const shout = (v: string) => (rnd() < 0.5 ? ` ${v.toUpperCase()} ` : v);
  const sample = () => some(records, 0.1);
  const files: World['files'] = [
    {
      lineId: 'l1',
      columns: [
        { name: 'postcode', mapped: 'postcode' },
        { name: 'gen_id', base: 'id' },
      ],
      rows: [
        ...sample().map((r) => [r.attrs.postcode ?? null, shout(addressOf(r.addressId).email)]),
        ['0000XX', 'niemand@nergens.nl'],
        [null, addressOf(records[0].addressId).email],
      ],
    },
    {
      lineId: 'l2',
      columns: [
        { name: 'gen_dataset', base: 'dataset', basePartner: partners[0] },
        { name: 'city', mapped: 'city' },
      ],
      rows: sample().map((r) => [r.datasetId, r.attrs.city ? shout(r.attrs.city) : null]),
    },
    {
      lineId: 'l3',
      columns: [
        { name: 'gen_domain', base: 'domain' },
        { name: 'gen_datasetDescription', base: 'datasetDescription' },
      ],
      rows: [
        [pick(DOMAINS), 'nieuwsbrief'],
        [` ${pick(DOMAINS).toUpperCase()}`, 'WINACTIES '],
        ['@kpn.nl', ''],
      ],
    },
  ];
  return {
    files,
    datasets,
    addresses,
    records,
    blacklistEmails: some(addresses, 0.05).map((a) => a.email),
    blacklistDomains: rnd() < 0.5 ? [pick(DOMAINS)] : [],
    partnerBlacklist: some(records, 0.05).map((r) => {
      const d = datasets.find((x) => x.id === r.datasetId) as World['datasets'][number];
      return {
        partnerId: d.partnerId,
        datasetName: d.name,
        email: (addresses.find((a) => a.id === r.addressId) as World['addresses'][number]).email,
      };
    }),
    campaign,
    mailing,
    otherMailings,
  };
}

/** Writes a world into the database (partners, datasets and their record partitions, mailings). */
export async function insertWorld(db: Db, w: World): Promise<void> {
  const partners = [...new Set(w.datasets.map((d) => d.partnerId))];
  for (const p of partners) await db.execute(sql`INSERT INTO partners (id, name) VALUES (${p}, ${p})`);
  for (const d of w.datasets) {
    await db.execute(sql`INSERT INTO datasets (id, partner_id, name, description, types, active, sort, config)
      VALUES (${d.id}, ${d.partnerId}, ${d.name}, ${d.description}, ${pgTextArray(d.types)}::text[], ${d.active}, ${d.sort}, '{}')`);
    const part = recordsPartition(d.id);
    await db.execute(sql.raw(`CREATE TABLE "${part}" PARTITION OF records FOR VALUES IN ('${d.id}')`));
    await db.execute(sql.raw(`ALTER TABLE "${part}" ADD PRIMARY KEY (address_id)`));
  }
  for (const a of w.addresses) {
    await db.execute(sql`INSERT INTO addresses (id, email, domain, sent_count, last_open_at, last_click_at,
        hard_bounced_at, os, open_interests, click_interests) OVERRIDING SYSTEM VALUE
      VALUES (${a.id}, ${a.email}, ${a.domain}, ${a.sentCount}, ${a.lastOpenAt}, ${a.lastClickAt},
        ${a.hardBouncedAt}, ${pgTextArray(a.os)}::text[], ${pgTextArray(a.openInterests)}::text[], ${pgTextArray(a.clickInterests)}::text[])`);
    if (Object.keys(a.enrichment).length > 0)
      await db.execute(
        sql`INSERT INTO address_enrichment (address_id, attrs) VALUES (${a.id}, ${JSON.stringify(a.enrichment)}::jsonb)`,
      );
  }
  await db.execute(sql`INSERT INTO records (dataset_id, address_id, raw, attrs)
    SELECT x.d, x.a, '{}', x.attrs FROM jsonb_to_recordset(${JSON.stringify(
      w.records.map((r) => ({ d: r.datasetId, a: r.addressId, attrs: r.attrs })),
    )}::jsonb) AS x(d text, a bigint, attrs jsonb)`);
  // A writer of records like any other: it marks them for the narrow tables.
  await markSelDirtyRecords(db, sql`SELECT address_id, dataset_id FROM records`);
  for (const e of w.blacklistEmails)
    await db.execute(sql`INSERT INTO blacklist_emails (email) VALUES (${e})`);
  for (const d of w.blacklistDomains)
    await db.execute(sql`INSERT INTO blacklist_domains (domain) VALUES (${d})`);
  for (const p of w.partnerBlacklist) {
    await db.execute(sql`INSERT INTO partner_blacklist (partner_id, dataset_name, email)
      VALUES (${p.partnerId}, ${p.datasetName}, ${p.email}) ON CONFLICT DO NOTHING`);
  }
  const campaigns = new Set([w.mailing, ...w.otherMailings].map((m) => m.campaignId));
  const insertFiles = async () => {
    for (const f of w.files) {
      await db.execute(sql`INSERT INTO selection_files (selection_id, line_id, name, columns)
        VALUES (${`s_${w.mailing.id}`}, ${f.lineId}, ${`${f.lineId}.csv`}, ${JSON.stringify(f.columns.map((c) => ({ field: c.name, ...c })))}::jsonb)`);
      for (const row of f.rows) {
        const vals = row.map((v, i) => normalizeFileValue({ field: f.columns[i].name, ...f.columns[i] }, v));
        await db.execute(sql`INSERT INTO selection_file_rows (selection_id, line_id, vals)
          VALUES (${`s_${w.mailing.id}`}, ${f.lineId}, ${pgTextArrayNullable(vals)}::text[])`);
      }
    }
  };
  for (const c of campaigns) {
    const type = c === w.campaign.id ? w.campaign.type : null;
    await db.execute(sql`INSERT INTO campaigns (id, name, type) VALUES (${c}, ${c}, ${type})`);
  }
  for (const m of [w.mailing, ...w.otherMailings]) {
    await db.execute(sql`INSERT INTO mailings (id, campaign_id, name, state, planned_send)
      VALUES (${m.id}, ${m.campaignId}, ${m.id}, ${m.state}, ${m.plannedSend})`);
    await db.execute(
      sql`INSERT INTO selections (id, mailing_id, campaign_id) VALUES (${`s_${m.id}`}, ${m.id}, ${m.campaignId})`,
    );
    if (m.addresses.length === 0) continue;
    await db.execute(sql`INSERT INTO mailing_addresses (mailing_id, address_id, dataset_id, selection_id, category)
      SELECT ${m.id}, x.a, x.d, ${`s_${m.id}`}, 'new' FROM jsonb_to_recordset(${JSON.stringify(
        m.addresses.map((x) => ({ a: x.addressId, d: x.datasetId })),
      )}::jsonb) AS x(a bigint, d text)`);
  }
  await insertFiles();
}

/** A text[] literal that keeps NULLs. */
function pgTextArrayNullable(values: (string | null)[]): string {
  return `{${values.map((v) => (v === null ? 'NULL' : `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)).join(',')}}`;
}

/** Random settings of a selection within a world. */
export function settingsArb(w: World): fc.Arbitrary<EvalSettings> {
  const from = [
    [],
    [{ campaign: w.otherMailings[0].campaignId }],
    [{ campaign: w.otherMailings[0].campaignId, mailing: w.otherMailings[0].id }],
  ];
  return fc.record({
    useBlacklist: fc.boolean(),
    activeDatasetsOnly: fc.boolean(),
    useCampaignLabel: fc.boolean(),
    useDate: fc.boolean(),
    pressureAge: fc.constantFrom(...PRESSURE_DATES),
    useDatasetsFrom: fc.constantFrom(...from),
    minMailings: fc.integer({ min: 0, max: 3 }),
  });
}

/** Texts for begins with / contains: LIKE's own wildcards, a literal `*`, case, spaces and accents. */
const PARTS = [
  '10',
  '1011 a',
  '10%',
  '1011_',
  '_',
  '%',
  '*',
  '10*',
  'am',
  'AMS',
  'den h',
  'é',
  'É',
  '-05-',
  'onb',
  ' b ',
];

/**
 * Random query trees of every leaf over the world's attributes, nested three deep; half of them
 * an 'and' of two to five lines, as the builder's root is (the funnel's lines).
 */
export function treeArb(w: World): fc.Arbitrary<QueryNode> {
  const attrValues: Record<string, string[]> = { ...ATTRIBUTE_VALUES, ...ENRICHMENT_ONLY_VALUES };
  const attr = fc.constantFrom(...Object.keys(attrValues));
  const valuesOf = (a: string) =>
    fc.constantFrom(
      ...attrValues[a].filter((v) => v.trim() !== ''),
      '*',
      '10*',
      '*ab',
      'a*dam',
      '*e*',
      'AMSTERDAM',
    );
  const leaf: fc.Arbitrary<QueryNode> = fc.oneof(
    attr.chain((a) => valuesOf(a).map((v) => ({ match: { [a]: v } }))),
    attr.chain((a) =>
      fc.array(valuesOf(a), { minLength: 1, maxLength: 3 }).map((vs) => ({ in: { [a]: vs } })),
    ),
    fc
      .constantFrom<[string, string, string]>(
        ['income', '1', '3'],
        ['income', '1,5', '10'],
        ['income', '-1', '2.5'],
        ['postcode', '1011', '1012'],
        ['city', 'a', 'm'],
        ['gender', 'f', 'm'],
        ['klantwaarde', '2', '12'],
        ['klantwaarde', 'a', 'b'],
        ['city', 'den haag', 'zwolle'],
      )
      .map(([a, lo, hi]) => ({ range: { [a]: [lo, hi] as [string, string] } })),
    fc
      .constantFrom<[string, string]>(
        ['01-01-1980', '31-12-1999'],
        ['NOW-30YEARS', 'NOW'],
        ['1990-01-01', 'NOW-20YEARS'],
        ['1980-05-17', '1980-05-17'],
        ['2001-01-01', '2010-12-31'],
      )
      .chain(([lo, hi]) =>
        fc
          .constantFrom('birthDate', 'klantwaarde')
          .map((a) => ({ dateRange: { [a]: [lo, hi] as [string, string] } })),
      ),
    fc
      .constantFrom<[number, number]>(
        [30, 50],
        [0, 29],
        [29, 30],
        [30, 30],
        [50, 51],
        [45, 46],
        [15, 18],
        [0, 150],
      )
      .chain(([from, to]) =>
        fc
          .constantFrom('birthDate', 'klantwaarde')
          .map((a) => ({ age: { [a]: [from, to] as [number, number] } })),
      ),
    // An or of two to four leaves on one attribute: equal values, lists, prefixes (a value cut short
    // with trailing `*`s) and begins with, which the compiler makes one hashed test of (compileOr).
    attr.chain((a) =>
      fc
        .array(
          fc.oneof(
            valuesOf(a).map((v) => ({ match: { [a]: v } })),
            fc
              .tuple(valuesOf(a), fc.nat(3), fc.constantFrom('*', '**', '* '))
              .map(([v, n, stars]) => ({ match: { [a]: `${v.slice(0, n)}${stars}` } })),
            fc.array(valuesOf(a), { minLength: 1, maxLength: 3 }).map((vs) => ({ in: { [a]: vs } })),
            fc.constantFrom(...PARTS).map((part) => ({ startsWith: { [a]: part } })),
          ),
          { minLength: 2, maxLength: 4 },
        )
        .map((or) => ({ or })),
    ),
    fc.tuple(attr, fc.boolean()).map(([a, isEmpty]) => ({ empty: { [a]: isEmpty } })),
    fc
      .tuple(attr, fc.constantFrom(...PARTS), fc.boolean())
      .map(([a, part, begins]) => (begins ? { startsWith: { [a]: part } } : { includes: { [a]: part } })),
    fc.array(fc.constantFrom(...OS), { minLength: 1, maxLength: 2 }).map((os) => ({ contains: { os } })),
    fc
      .array(fc.constantFrom('gmail.com', '@hotmail.com', 'WWW.ziggo.nl', 'kpn.nl '), {
        minLength: 1,
        maxLength: 2,
      })
      .map((domain) => ({ contains: { domain } })),
    fc
      .array(
        fc.constantFrom(
          ...w.addresses.slice(0, 10).map((a) => a.email),
          ` ${w.addresses[1].email.toUpperCase()} `,
        ),
        { minLength: 1, maxLength: 3 },
      )
      .map((id) => ({ contains: { id } })),
    fc.constantFrom(...w.datasets.map((d) => d.id)).map((id) => ({ dataset: { id } })),
    fc.constantFrom(...LABELS).map((type) => ({ dataset: { type } })),
    fc
      .tuple(fc.boolean(), fc.array(fc.constantFrom(...INTERESTS), { minLength: 1, maxLength: 2 }))
      .map(([click, xs]) => ({ interests: click ? { click: xs } : { open: xs } })),
    fc.tuple(fc.boolean(), fc.constantFrom(...w.files)).chain(([intersect, f]) =>
      fc
        .subarray(
          f.columns.map((c) => c.name),
          { minLength: 1 },
        )
        .map((fields) => {
          const line = { id: f.lineId, name: `${f.lineId}.csv`, fields };
          return intersect ? { intersect: line } : { complement: line };
        }),
    ),
  );
  const level = (inner: fc.Arbitrary<QueryNode>): fc.Arbitrary<QueryNode> =>
    fc.oneof(
      inner,
      fc.array(inner, { maxLength: 3 }).map((and) => ({ and })),
      fc.array(inner, { maxLength: 3 }).map((or) => ({ or })),
      inner.map((not) => ({ not })),
    );
  return fc.oneof(
    level(level(level(leaf))),
    fc.array(level(level(leaf)), { minLength: 2, maxLength: 5 }).map((and) => ({ and })),
  );
}
