import { displayDay } from './calendar-day';
import { parseDay } from './date-math';
import { attributeLabel, attributeValueLabel } from './global-attributes';
import { formatCount } from './numbers';
import { type FileLeaf, type QueryNode, renderQuery } from './query-tree';

// The selection builder's lines as Dutch text ('Postcode (4 cijfers) 1000 t/m 2999', 'Geslacht is
// vrouw', 'In bestand klanten.csv (4.200 regels)'): the leaf semantics of DESIGN §6 in words, with
// the attributes' Dutch labels (common/global-attributes.ts). The raw Solr-style text stays on the
// 'Query' tab (renderQuery). A node kind this file does not know reads as that raw text.

/** What the builder knows beside the tree: the row counts of line files and the names of datasets. */
export interface DescribeContext {
  /** The number of data rows of a line's file, by line id, where the browser has read the file. */
  fileRows?: Readonly<Record<string, number>>;
  /** The name of a dataset, by id. */
  datasetNames?: Readonly<Record<string, string>>;
}

/** How many values of a list a line names before it counts the rest. */
export const LISTED_VALUES = 10;

// A range bound of '*' leaves that end open (Solr's [1000 TO *]).
const OPEN = '*';

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** Values separated by commas; past LISTED_VALUES the rest is counted ('a, b, … en 9.990 andere'). */
function commaList(values: string[]): string {
  const shown = values.slice(0, LISTED_VALUES).join(', ');
  return values.length > LISTED_VALUES
    ? `${shown} en ${formatCount(values.length - LISTED_VALUES)} andere`
    : shown;
}

/** A few parts as a sentence: 'a', 'a en b', 'a, b en c'. */
function listOf(parts: string[]): string {
  if (parts.length === 1) return parts[0];
  return `${parts.slice(0, -1).join(', ')} en ${parts[parts.length - 1]}`;
}

/** 'is x' for one value, 'is een van: a, b, c' for several. */
function isOneOf(values: string[]): string {
  return values.length === 1 ? `is ${values[0]}` : `is een van: ${commaList(values)}`;
}

/** A match value in words: equal, or its `*` wildcards as 'begint met', 'eindigt op', 'bevat'. */
function matchText(attr: string, value: string): string {
  if (!value.includes('*')) return `is ${attributeValueLabel(attr, value)}`;
  const pattern = value.replace(/\*+/g, '*');
  const inner = pattern.replace(/^\*|\*$/g, '');
  if (pattern === '*') return 'is ingevuld';
  if (!inner.includes('*')) {
    const starts = pattern.startsWith('*');
    const ends = pattern.endsWith('*');
    if (starts && ends) return `bevat ${inner}`;
    if (ends) return `begint met ${inner}`;
    return `eindigt op ${inner}`;
  }
  return `lijkt op ${pattern} (* is willekeurige tekst)`;
}

/** A numeric or text range: 'van t/m', 'vanaf' or 't/m' where one end is open. */
function rangeText(from: string, to: string, bound: (b: string) => string): string {
  const isFromOpen = from.trim() === OPEN;
  const isToOpen = to.trim() === OPEN;
  if (isFromOpen && isToOpen) return 'is ingevuld';
  if (isFromOpen) return `t/m ${bound(to)}`;
  if (isToOpen) return `vanaf ${bound(from)}`;
  if (bound(from) === bound(to)) return `is ${bound(from)}`;
  return `${bound(from)} t/m ${bound(to)}`;
}

const UNIT_NAMES: Record<string, [string, string]> = {
  YEAR: ['jaar', 'jaar'],
  MONTH: ['maand', 'maanden'],
  DAY: ['dag', 'dagen'],
  HOUR: ['uur', 'uur'],
  MINUTE: ['minuut', 'minuten'],
  SECOND: ['seconde', 'seconden'],
};
// The unit words of common/date-math.ts (resolveDateBound), by their one canonical unit.
const UNITS: Record<string, string> = {
  YEAR: 'YEAR',
  YEARS: 'YEAR',
  MONTH: 'MONTH',
  MONTHS: 'MONTH',
  DAY: 'DAY',
  DAYS: 'DAY',
  DATE: 'DAY',
  HOUR: 'HOUR',
  HOURS: 'HOUR',
  MINUTE: 'MINUTE',
  MINUTES: 'MINUTE',
  SECOND: 'SECOND',
  SECONDS: 'SECOND',
};

/** One step of a relative date: +N or -N of a unit. */
interface DateStep {
  sign: 1 | -1;
  n: number;
  unit: string;
}
/** A relative date (NOW-6MONTHS/DAY) as its steps and the unit it is rounded down to, if any. */
interface RelativeDate {
  steps: DateStep[];
  round: string | null;
}

/** A relative bound (NOW, steps, roundings) as its parts; null for other text or a rounding this cannot word. */
function parseRelative(bound: string): RelativeDate | null {
  const text = bound.trim().toUpperCase();
  if (!text.startsWith('NOW')) return null;
  let rest = text.slice(3);
  const steps: DateStep[] = [];
  let round: string | null = null;
  while (rest.length > 0) {
    // A step after a rounding to the year or the month would need both in words: left as typed.
    const step = round ? null : /^([+-])(\d{1,6})([A-Z]+)/.exec(rest);
    if (step && UNITS[step[3]]) {
      const n = Number(step[2]);
      if (n !== 0) steps.push({ sign: step[1] === '-' ? -1 : 1, n, unit: UNITS[step[3]] });
      rest = rest.slice(step[0].length);
      continue;
    }
    const rounding = /^\/([A-Z]+)/.exec(rest);
    const unit = rounding ? UNITS[rounding[1]] : undefined;
    if (!rounding || !unit || round) return null;
    // On whole days only a rounding to the year or the month moves the day (common/date-math.ts).
    if (unit === 'YEAR' || unit === 'MONTH') round = unit;
    rest = rest.slice(rounding[0].length);
  }
  return { steps, round };
}

const amount = (s: DateStep) => plural(s.n, ...UNIT_NAMES[s.unit]);

/** Steps from today in words: 'vandaag', '30 dagen geleden', 'over 1 jaar', 'vandaag min 1 jaar plus 2 dagen'. */
function stepsText(steps: DateStep[]): string {
  if (steps.length === 0) return 'vandaag';
  const parts = steps.map(amount);
  if (steps.every((s) => s.sign === -1)) return `${listOf(parts)} geleden`;
  if (steps.every((s) => s.sign === 1)) return `over ${listOf(parts)}`;
  return `vandaag ${steps.map((s) => `${s.sign === -1 ? 'min' : 'plus'} ${amount(s)}`).join(' ')}`;
}

/** A relative date in words, its rounding included ('het begin van dit jaar'). */
function relativeText(date: RelativeDate): string {
  const day = stepsText(date.steps);
  if (date.round === 'YEAR')
    return date.steps.length === 0 ? 'het begin van dit jaar' : `het begin van het jaar van ${day}`;
  if (date.round === 'MONTH')
    return date.steps.length === 0 ? 'het begin van deze maand' : `het begin van de maand van ${day}`;
  return day;
}

/** A dateRange bound as read: a date as DD-MM-YYYY, a relative date in words, anything else as typed. */
function dateBoundText(bound: string): string {
  const day = parseDay(bound);
  if (day) return displayDay(day);
  const relative = parseRelative(bound);
  return relative ? relativeText(relative) : bound.trim();
}

/** The one step of a 'last N days' bound, or null when the bound is not NOW with one step. */
function singleStep(bound: string): DateStep | null {
  const relative = parseRelative(bound);
  return relative && relative.round === null && relative.steps.length === 1 ? relative.steps[0] : null;
}
const isToday = (bound: string) => {
  const relative = parseRelative(bound);
  return relative !== null && relative.round === null && relative.steps.length === 0;
};

/** 'de laatste 30 dagen', 'het laatste jaar', 'de komende maand': a period of one step back or ahead. */
function periodText(step: DateStep, which: 'laatste' | 'komende'): string {
  if (step.n !== 1) return `de ${which} ${amount(step)}`;
  const [unit] = UNIT_NAMES[step.unit];
  return `${unit === 'jaar' || unit === 'uur' ? 'het' : 'de'} ${which} ${unit}`;
}

/**
 * The ages in years of a birth-date range written as an age line is compiled (query-operators.ts
 * ageBounds: born from today − (to + 1) years + 1 day through today − from years), or null.
 */
function agesOf(from: string, to: string): [number, number] | null {
  const lo = parseRelative(from);
  const hi = parseRelative(to);
  if (!lo || !hi || lo.round || hi.round || lo.steps.length !== 2 || hi.steps.length > 1) return null;
  const [years, day] = lo.steps;
  const youngest = hi.steps[0] ?? { sign: -1, n: 0, unit: 'YEAR' };
  const isAgeShape =
    years.sign === -1 &&
    years.unit === 'YEAR' &&
    day.sign === 1 &&
    day.n === 1 &&
    day.unit === 'DAY' &&
    youngest.sign === -1 &&
    youngest.unit === 'YEAR';
  const oldest = years.n - 1;
  return isAgeShape && oldest >= youngest.n ? [youngest.n, oldest] : null;
}

/** 'Leeftijd 30 t/m 50 jaar' on the birth date, 'Leeftijd (Startdatum) 30 t/m 50 jaar' on another date. */
function ageText(attr: string, from: number, to: number): string {
  const label = attributeLabel(attr);
  const name = label === attributeLabel('birthDate') ? 'Leeftijd' : `Leeftijd (${label})`;
  return from === to
    ? `${name} ${formatCount(from)} jaar`
    : `${name} ${formatCount(from)} t/m ${formatCount(to)} jaar`;
}

/** A date range in words: 'in de laatste 30 dagen', 'van 01-01-1990 t/m 31-12-1999', 'vanaf vandaag'. */
function dateRangeText(from: string, to: string): string {
  const back = singleStep(from);
  if (back?.sign === -1 && isToday(to)) return `in ${periodText(back, 'laatste')}`;
  const ahead = singleStep(to);
  if (ahead?.sign === 1 && isToday(from)) return `in ${periodText(ahead, 'komende')}`;
  const text = rangeText(from, to, dateBoundText);
  return /^(is |vanaf |t\/m )/.test(text) ? text : `van ${text}`;
}

// The generated names of a line file's base entries ('gen_' + the base, spec 001 §5), read as
// the fact they compare.
const BASE_FIELD = /^gen_(id|dataset|datasetDescription|domain)\d*$/;
const BASE_LABELS: Record<string, string> = {
  id: 'E-mailadres',
  dataset: 'Bestand',
  datasetDescription: 'Bestandsomschrijving',
  domain: 'Domein',
};
/** A field a file line compares on, as read: a base entry's fact ('gen_id' → 'E-mailadres'), else the attribute's label. */
export function lineFieldLabel(field: string): string {
  const base = BASE_FIELD.exec(field);
  return base ? BASE_LABELS[base[1]] : attributeLabel(field);
}

/** A file line: 'In bestand klanten.csv (4.200 regels), op E-mailadres'; 'Niet in bestand …' when it excludes. */
function fileText(file: FileLeaf, isExcluding: boolean, context: DescribeContext): string {
  const rows = context.fileRows?.[file.id];
  const count = rows === undefined ? '' : ` (${plural(rows, 'regel', 'regels')})`;
  const fields = [...new Set(file.fields.map(lineFieldLabel))];
  return `${isExcluding ? 'Niet in' : 'In'} bestand ${file.name || file.id}${count}, op ${listOf(fields)}`;
}

/** The raw text of a node this file does not know (a kind added to the tree later). */
function rawText(node: QueryNode): string {
  try {
    return renderQuery(node);
  } catch {
    return JSON.stringify(node);
  }
}

/** The one attribute and content of a leaf of kind `kind`, read without trusting its type; null when absent. */
function entryOf(node: QueryNode, kind: string): [string, unknown] | null {
  const content = (node as unknown as Record<string, unknown>)[kind];
  if (typeof content !== 'object' || content === null) return null;
  return Object.entries(content)[0] ?? null;
}

/** The lines of the attribute operators beyond spec 001 §5 (age, is (not) empty, begins with, contains), or null. */
function operatorText(node: QueryNode): string | null {
  const age = entryOf(node, 'age');
  if (age && Array.isArray(age[1]) && age[1].length === 2) {
    const [from, to] = age[1].map(Number);
    if (Number.isInteger(from) && Number.isInteger(to)) return ageText(age[0], from, to);
  }
  const empty = entryOf(node, 'empty');
  if (empty && typeof empty[1] === 'boolean') {
    return `${attributeLabel(empty[0])} ${empty[1] ? 'is leeg' : 'is niet leeg'}`;
  }
  const starts = entryOf(node, 'startsWith');
  if (starts && typeof starts[1] === 'string') return `${attributeLabel(starts[0])} begint met ${starts[1]}`;
  const includes = entryOf(node, 'includes');
  if (includes && typeof includes[1] === 'string')
    return `${attributeLabel(includes[0])} bevat ${includes[1]}`;
  return null;
}

/**
 * One line of the builder (a leaf, or a 'not' around one) as Dutch text with the attributes' labels:
 * 'Postcode (4 cijfers) 1000 t/m 2999', 'Geslacht is vrouw', 'niet Label is optin'. A group reads as
 * describeTree reads it; a node kind not known here reads as its raw query text.
 */
export function describeLine(node: QueryNode, context: DescribeContext = {}): string {
  if ('and' in node || 'or' in node) return describeTree(node, context);
  if ('not' in node) return `niet ${describeLine(node.not, context)}`;
  if ('match' in node) {
    const [attr, value] = Object.entries(node.match)[0];
    return `${attributeLabel(attr)} ${matchText(attr, value)}`;
  }
  if ('in' in node) {
    const [attr, values] = Object.entries(node.in)[0];
    return `${attributeLabel(attr)} ${isOneOf(values.map((v) => attributeValueLabel(attr, v)))}`;
  }
  if ('range' in node) {
    const [attr, [from, to]] = Object.entries(node.range)[0];
    return `${attributeLabel(attr)} ${rangeText(from, to, (b) => b.trim())}`;
  }
  if ('dateRange' in node) {
    const [attr, [from, to]] = Object.entries(node.dateRange)[0];
    const ages = agesOf(from, to);
    return ages ? ageText(attr, ...ages) : `${attributeLabel(attr)} ${dateRangeText(from, to)}`;
  }
  if ('contains' in node) {
    const [type, values] = Object.entries(node.contains as Record<string, string[]>)[0];
    return `${attributeLabel(type === 'id' ? 'email' : type)} ${isOneOf(values)}`;
  }
  if ('dataset' in node) {
    if ('type' in node.dataset) return `${attributeLabel('labels')} is ${node.dataset.type}`;
    return `Uit bestand ${context.datasetNames?.[node.dataset.id] ?? node.dataset.id}`;
  }
  if ('interests' in node) {
    const [kind, values] = Object.entries(node.interests as Record<string, string[]>)[0];
    const label = attributeLabel(kind === 'click' ? 'clickInterests' : 'openInterests');
    return values.length === 1 ? `${label} ${values[0]}` : `${label} een van: ${commaList(values)}`;
  }
  if ('intersect' in node) return fileText(node.intersect, false, context);
  if ('complement' in node) return fileText(node.complement, true, context);
  return operatorText(node) ?? rawText(node);
}

/**
 * A whole tree as Dutch text: a group as 'alle van (…; …)' (en) or 'een van (…; …)' (of), a
 * negated group as 'niet alle van (…)', a group of one entry as that entry, the empty 'and' as
 * 'alle adressen' (spec 001 §9) and the empty 'or' as 'geen adressen'.
 */
export function describeTree(node: QueryNode, context: DescribeContext = {}): string {
  if ('not' in node) return `niet ${describeTree(node.not, context)}`;
  if (!('and' in node || 'or' in node)) return describeLine(node, context);
  const children = 'and' in node ? node.and : node.or;
  if (children.length === 0) return 'and' in node ? 'alle adressen' : 'geen adressen';
  if (children.length === 1) return describeTree(children[0], context);
  const parts = children.map((child) => describeTree(child, context));
  return `${'and' in node ? 'alle van' : 'een van'} (${parts.join('; ')})`;
}
