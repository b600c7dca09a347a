import { resolveDateBound } from '../../../common/date-math';
import type { QueryNode } from '../../../common/query-tree';

// An evaluator of selections written apart from the SQL engine: the same rules (DESIGN §4/§6),
// over plain objects in memory, so the property test can compare the engine's counts and
// allocations with it. It shares no code with the compiler but the relative-date rule
// (resolveDateBound, tested on its own).

export type Category = 'new' | 'notOpenedOrClicked' | 'opens' | 'clicks';

export interface WorldDataset {
  id: string;
  partnerId: string;
  name: string;
  description: string;
  types: string[];
  active: boolean;
  sort: number;
}
export interface WorldAddress {
  id: number;
  email: string;
  domain: string;
  sentCount: number;
  lastOpenAt: Date | null;
  lastClickAt: Date | null;
  hardBouncedAt: Date | null;
  os: string[];
  openInterests: string[];
  clickInterests: string[];
  /** Attributes from enrichment files (the winning value per attribute). */
  enrichment: Record<string, string>;
}
export interface WorldRecord {
  datasetId: string;
  addressId: number;
  attrs: Record<string, string>;
}
export interface WorldMailing {
  id: string;
  campaignId: string;
  state: 'draft' | 'final' | 'offered' | 'cancelled';
  plannedSend: Date;
  addresses: { addressId: number; datasetId: string }[];
}
/** A line file: its columns (an attribute, or a base entry narrowed to a partner or not) and raw rows. */
export interface WorldFile {
  lineId: string;
  columns: {
    name: string;
    mapped?: string;
    base?: 'id' | 'dataset' | 'datasetDescription' | 'domain';
    basePartner?: string;
  }[];
  rows: (string | null)[][];
}
/** Everything a selection run reads. */
export interface World {
  files: WorldFile[];
  datasets: WorldDataset[];
  addresses: WorldAddress[];
  records: WorldRecord[];
  blacklistEmails: string[];
  blacklistDomains: string[];
  partnerBlacklist: { partnerId: string; datasetName: string; email: string }[];
  campaign: { id: string; type: string | null };
  /** The draft mailing the selection belongs to (its addresses are what it holds already). */
  mailing: WorldMailing;
  otherMailings: WorldMailing[];
}
export interface EvalSettings {
  useBlacklist: boolean;
  activeDatasetsOnly: boolean;
  useCampaignLabel: boolean;
  useDate: boolean;
  pressureAge: string;
  useDatasetsFrom: { campaign: string; mailing?: string }[];
  minMailings: number;
}

const WS = new Set([' ', '\t', '\n', '\r', '\f', '\v', '\u00a0']);
function strip(s: string): string {
  const chars = [...s];
  while (chars.length && WS.has(chars[0])) chars.shift();
  while (chars.length && WS.has(chars[chars.length - 1])) chars.pop();
  return chars.join('');
}
const fold = (s: string) => strip(s).toLowerCase();
const NUMBER = /^[+-]?\d+([.,]\d+)?$/;
const asNumber = (s: string) =>
  NUMBER.test(strip(s)) ? Number.parseFloat(strip(s).replace(',', '.')) : null;
/** Code point order, as PostgreSQL's "C" collation orders UTF-8 bytes. */
function compareCodePoints(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0) as number);
  const y = [...b].map((c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}
function asDay(s: string): string | null {
  const t = strip(s);
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[ T][\s\S]*)?$/.exec(t);
  const dmy = /^(\d{2})-(\d{2})-(\d{4})(?:[ T][\s\S]*)?$/.exec(t);
  const [y, m, d] = iso ? [iso[1], iso[2], iso[3]] : dmy ? [dmy[3], dmy[2], dmy[1]] : [];
  if (!y) return null;
  const date = new Date(`${y}-${m}-${d}T12:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.getUTCDate() !== Number(d) || Number(y) < 1) return null;
  return `${y}-${m}-${d}`;
}
const wildcard = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[\\s\\S]*')}$`,
  );

// DESIGN §6: the record's own value wins; without one, the address's enrichment value.
const attrValue = (r: WorldRecord, a: WorldAddress, attr: string): string | undefined =>
  attr in r.attrs ? r.attrs[attr] : a.enrichment[attr];

function leafHolds(node: QueryNode, r: WorldRecord, a: WorldAddress, d: WorldDataset, now: Date): boolean {
  if ('match' in node) {
    const [attr, value] = Object.entries(node.match)[0];
    const v = attrValue(r, a, attr);
    if (v === undefined) return false;
    const p = fold(value);
    return p.includes('*') ? wildcard(p).test(fold(v)) : fold(v) === p;
  }
  if ('in' in node) {
    const [attr, values] = Object.entries(node.in)[0];
    const v = attrValue(r, a, attr);
    return v !== undefined && values.map(fold).includes(fold(v));
  }
  if ('range' in node) {
    const [attr, [from, to]] = Object.entries(node.range)[0];
    const v = attrValue(r, a, attr);
    if (v === undefined) return false;
    const lo = asNumber(from);
    const hi = asNumber(to);
    if (lo !== null && hi !== null) {
      const n = asNumber(v);
      return n !== null && n >= lo && n <= hi;
    }
    return compareCodePoints(fold(v), fold(from)) >= 0 && compareCodePoints(fold(v), fold(to)) <= 0;
  }
  if ('dateRange' in node) {
    const [attr, [from, to]] = Object.entries(node.dateRange)[0];
    const v = attrValue(r, a, attr);
    const day = v === undefined ? null : asDay(v);
    const lo = resolveDateBound(from, now);
    const hi = resolveDateBound(to, now);
    return day !== null && lo !== null && hi !== null && day >= lo && day <= hi;
  }
  if ('age' in node) {
    // Age as people count it: the years since birth, one less before this year's birthday
    // (a 29 February birthday comes on 1 March in other years), on today's date in Amsterdam.
    const [attr, [from, to]] = Object.entries(node.age)[0];
    const v = attrValue(r, a, attr);
    const day = v === undefined ? null : asDay(v);
    if (day === null) return false;
    const [by, bm, bd] = day.split('-').map(Number);
    const [ty, tm, td] = amsterdamDay(now).split('-').map(Number);
    const age = ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
    return age >= from && age <= to;
  }
  if ('empty' in node) {
    const [attr, isEmpty] = Object.entries(node.empty)[0];
    const v = attrValue(r, a, attr);
    return (v === undefined || fold(v) === '') === isEmpty;
  }
  if ('startsWith' in node || 'includes' in node) {
    const [attr, part] = Object.entries('startsWith' in node ? node.startsWith : node.includes)[0];
    const v = attrValue(r, a, attr);
    if (v === undefined) return false;
    return 'startsWith' in node ? fold(v).startsWith(fold(part)) : fold(v).includes(fold(part));
  }
  if ('contains' in node) {
    const c = node.contains as Record<string, string[]>;
    if (c.os) return a.os.some((o) => c.os.includes(o));
    if (c.domain)
      return c.domain
        .map((x) =>
          fold(x)
            .replace(/^@/, '')
            .replace(/^www\./, ''),
        )
        .includes(a.domain);
    return c.id.map((x) => fold(x)).includes(a.email);
  }
  if ('dataset' in node)
    return 'id' in node.dataset ? d.id === node.dataset.id : d.types.includes(node.dataset.type);
  if ('interests' in node) {
    const i = node.interests as Record<string, string[]>;
    return i.click
      ? a.clickInterests.some((x) => i.click.includes(x))
      : a.openInterests.some((x) => i.open.includes(x));
  }
  const isIntersect = 'intersect' in node;
  const leaf = isIntersect
    ? node.intersect
    : (node as { complement: { id: string; fields: string[] } }).complement;
  const file = files.get(leaf.id);
  if (!file) throw new Error(`no file for line ${leaf.id}`);
  const inFile = file.rows.some((row) =>
    leaf.fields.every((field) => {
      const i = file.columns.findIndex((c) => c.name === field);
      const c = file.columns[i];
      const raw = row[i];
      if (raw === null) return false;
      if (c.basePartner && d.partnerId !== c.basePartner) return false;
      if (c.base === 'id') return strip(raw).toLowerCase() === a.email;
      if (c.base === 'domain') return strip(raw).toLowerCase().replace(/^@/, '') === a.domain;
      if (c.base === 'dataset') return strip(raw) === d.id;
      if (c.base === 'datasetDescription') return fold(raw) === fold(d.description);
      const v = attrValue(r, a, c.mapped ?? c.name);
      return v !== undefined && fold(v) === fold(raw);
    }),
  );
  return isIntersect ? inFile : !inFile;
}

let files = new Map<string, WorldFile>();
/** The line files the file leaves read (set per world). */
export function useFiles(world: World): void {
  files = new Map(world.files.map((f) => [f.lineId, f]));
}

/** Whether the tree holds for a record (with its address and dataset). */
export function holds(node: QueryNode, r: WorldRecord, a: WorldAddress, d: WorldDataset, now: Date): boolean {
  if ('and' in node) return node.and.every((c) => holds(c, r, a, d, now));
  if ('or' in node) return node.or.some((c) => holds(c, r, a, d, now));
  if ('not' in node) return !holds(node.not, r, a, d, now);
  return leafHolds(node, r, a, d, now);
}

/** The engagement category of an address (DESIGN §4). */
export function categoryOf(a: WorldAddress, minMailings: number): Category {
  if (a.lastClickAt) return 'clicks';
  if (a.lastOpenAt) return 'opens';
  if (a.sentCount >= minMailings) return 'notOpenedOrClicked';
  return 'new';
}

const amsterdamDay = (d: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam' }).format(d);
const minusWeek = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - 7 * 86_400_000).toISOString().slice(0, 10);

/** The candidates of a selection: per address its winning dataset and category. */
export function evaluate(
  world: World,
  tree: QueryNode,
  s: EvalSettings,
  now: Date,
): Map<number, { datasetId: string; category: Category }> {
  const addresses = new Map(world.addresses.map((a) => [a.id, a]));
  const datasets = new Map(world.datasets.map((d) => [d.id, d]));
  const all = [world.mailing, ...world.otherMailings];
  const fromDatasets = new Set(
    all
      .filter((m) =>
        s.useDatasetsFrom.some((f) => f.campaign === m.campaignId && (!f.mailing || f.mailing === m.id)),
      )
      .flatMap((m) => m.addresses.map((x) => x.datasetId)),
  );
  const own = new Set(world.mailing.addresses.map((x) => x.addressId));
  const windowFrom = minusWeek(s.pressureAge);
  const pressured = new Set(
    world.otherMailings
      .filter(
        (m) => (m.state === 'final' || m.state === 'offered') && amsterdamDay(m.plannedSend) >= windowFrom,
      )
      .filter((m) => amsterdamDay(m.plannedSend) < s.pressureAge)
      .flatMap((m) => m.addresses.map((x) => x.addressId)),
  );
  const best = new Map<number, WorldDataset>();
  for (const r of world.records) {
    const a = addresses.get(r.addressId) as WorldAddress;
    const d = datasets.get(r.datasetId) as WorldDataset;
    if (s.activeDatasetsOnly && !d.active) continue;
    if (s.useCampaignLabel && world.campaign.type && !d.types.includes(world.campaign.type)) continue;
    if (s.useDatasetsFrom.length > 0 && !fromDatasets.has(d.id)) continue;
    if (a.hardBouncedAt) continue;
    if (s.useBlacklist) {
      if (world.blacklistEmails.includes(a.email) || world.blacklistDomains.includes(a.domain)) continue;
      if (
        world.partnerBlacklist.some(
          (p) => p.partnerId === d.partnerId && p.datasetName === d.name && p.email === a.email,
        )
      )
        continue;
    }
    if (s.useDate && pressured.has(a.id)) continue;
    if (own.has(a.id)) continue;
    if (!holds(tree, r, a, d, now)) continue;
    const current = best.get(a.id);
    if (!current || d.sort < current.sort || (d.sort === current.sort && d.id < current.id))
      best.set(a.id, d);
  }
  const out = new Map<number, { datasetId: string; category: Category }>();
  for (const [id, d] of best) {
    out.set(id, { datasetId: d.id, category: categoryOf(addresses.get(id) as WorldAddress, s.minMailings) });
  }
  return out;
}

/** The evaluator's counts: "datasetId category" → n. */
export function countsOf(
  candidates: Map<number, { datasetId: string; category: Category }>,
): Map<string, number> {
  const counts = new Map<string, number>();
  for (const c of candidates.values()) {
    const key = `${c.datasetId} ${c.category}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}
