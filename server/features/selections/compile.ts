import { type SQL, sql } from 'drizzle-orm';
import { normalizeDomain } from '../../../common/blacklists';
import { resolveDateBound } from '../../../common/date-math';
import { normalizeEmail } from '../../../common/email';
import { ageBounds } from '../../../common/query-operators';
import type { FileLeaf, QueryNode } from '../../../common/query-tree';
import { toNumber, trimValue } from '../../../common/values';
import { blindIndex, blindIndexKey } from '../../lib/crypto';
import { badRequest } from '../../lib/http-errors';
import { pgTextArray } from '../../lib/pg-array';
import {
  AttributeReads,
  addressField,
  type CompileContext,
  type DatasetCatalog,
  datasetAlias,
  type NarrowReads,
  NotNarrow,
  recordColumn,
  recordDatasetField,
} from './compile-context';
import { MULTI_POSITIONS } from './sel.table';

// DESIGN §6: a query tree becomes one boolean SQL expression over a record `r` (records), its
// address `a` (addresses; its enrichment in address_enrichment) and its dataset `d` (datasets). Every
// value goes in as a parameter; attribute names too (as the key of `->>`), so nothing a user typed
// is ever SQL text. Where each value is read from: compile-context.ts.

/** Messages of values the compiler refuses (400). */
export const CompileMessages = {
  wildcardEncrypted: (attr: string) => `Kenmerk ${attr} is versleuteld: zoek op de precieze waarde, zonder *`,
  rangeEncrypted: (attr: string) =>
    `Kenmerk ${attr} is versleuteld: een bereik kan daarop niet worden gezocht`,
  partEncrypted: (attr: string) =>
    `Kenmerk ${attr} is versleuteld: zoek op de precieze waarde, niet op een begin of een deel ervan`,
  dateBound: (bound: string) =>
    `Geen datum: ${bound} (gebruik DD-MM-JJJJ, JJJJ-MM-DD of bijvoorbeeld NOW-30YEARS)`,
} as const;

/**
 * A compiled query tree: `where`, a boolean SQL expression that is never NULL (so NOT is a true
 * complement), over `r`, `a`, `d` and the columns of `values`: the FROM items (CROSS JOIN LATERAL)
 * that read each attribute the tree names once per record, after a LEFT JOIN of the address's
 * enrichment `ae` when one of them is enriched (empty SQL when it names none).
 */
export interface CompiledQuery {
  where: SQL;
  values: SQL;
  /**
   * The tree's top-level lines, each compiled apart (CompiledQuery.where is their AND): the
   * entries of a root 'and', or the one root of any other tree. The funnel counts them
   * (selection-funnel.ts).
   */
  lines?: SQL[];
  /** Compiled for sel_record: whether `where` reads the dataset row `d` (dataset leaves, a file leaf's dataset fields). */
  needsDataset?: boolean;
  /**
   * The same tree compiled for sel_record rows, when the caller gave the slots and the rows can
   * answer it (compileNarrow); a count then reads sel_record for the addresses not in sel_dirty.
   */
  narrow?: CompiledQuery | null;
  /**
   * Compiled for sel_record: the same tree for the record in each position of a sel_multi row
   * (positions[k - 1] for position k; CompileContext.position).
   */
  positions?: CompiledQuery[];
  /**
   * When `narrow` joins the dataset row (needsDataset): the narrow compilation with the datasets
   * of the count's snapshot as constants instead (CompileContext.datasets), made in the count's
   * transaction.
   */
  withDatasets?: (datasets: DatasetCatalog) => CompiledQuery | null;
}

/** Compiles a query tree (see CompiledQuery); for records, and for sel_record too when `slots` are given. */
export function compileQuery(
  node: QueryNode,
  ctx: CompileContext,
  slots?: ReadonlyMap<string, number>,
): CompiledQuery {
  const reads = new AttributeReads({ ...ctx, slots: undefined });
  const { where, lines } = compileTop(node, { ...ctx, slots: undefined }, reads);
  const out: CompiledQuery = { where, values: reads.fromItems(), lines };
  if (slots) {
    out.narrow = compileNarrowRows(node, { ...ctx, slots });
    if (out.narrow?.needsDataset) {
      out.withDatasets = (datasets) => compileNarrowRows(node, { ...ctx, slots, datasets });
    }
  }
  return out;
}

/** compileNarrow, with the tree for each position of a sel_multi row (CompiledQuery.positions). */
function compileNarrowRows(node: QueryNode, ctx: CompileContext): CompiledQuery | null {
  const narrow = compileNarrow(node, ctx);
  if (!narrow) return null;
  narrow.positions = Array.from({ length: MULTI_POSITIONS }, (_, i) => {
    const at = compileNarrow(node, { ...ctx, position: i + 1 });
    if (!at) throw new Error('a tree compiled for sel_record compiles for every position');
    return at;
  });
  return narrow;
}

/** Compiles a tree for sel_record rows (ctx.slots set), or null when the rows cannot answer it. */
export function compileNarrow(node: QueryNode, ctx: CompileContext): CompiledQuery | null {
  if (!ctx.slots) throw new Error('compileNarrow needs the slots');
  const narrowReads: NarrowReads = { enrichment: false, dataset: false };
  const narrowCtx: CompileContext = { ...ctx, narrowReads };
  try {
    const { where, lines } = compileTop(node, narrowCtx, new AttributeReads(narrowCtx));
    const values = narrowReads.enrichment
      ? sql` LEFT JOIN address_enrichment ae ON ae.address_id = r.address_id`
      : sql``;
    return { where, values, lines, needsDataset: narrowReads.dataset };
  } catch (err) {
    if (err instanceof NotNarrow) return null;
    throw err;
  }
}

/** The root's boolean SQL (compileNode) and its top-level lines (CompiledQuery.lines), each compiled once. */
function compileTop(
  node: QueryNode,
  ctx: CompileContext,
  reads: AttributeReads,
): { where: SQL; lines: SQL[] } {
  if (!('and' in node)) {
    const where = compileNode(node, ctx, reads);
    return { where, lines: [where] };
  }
  const lines = node.and.map((c) => compileNode(c, ctx, reads));
  return { where: lines.length === 0 ? sql`TRUE` : sql`(${sql.join(lines, sql` AND `)})`, lines };
}

/** A node's boolean SQL: and/or/not of its children, or a leaf's test (NULL read as FALSE). */
function compileNode(node: QueryNode, ctx: CompileContext, reads: AttributeReads): SQL {
  if ('and' in node) {
    if (node.and.length === 0) return sql`TRUE`;
    return sql`(${sql.join(
      node.and.map((c) => compileNode(c, ctx, reads)),
      sql` AND `,
    )})`;
  }
  if ('or' in node) {
    if (node.or.length === 0) return sql`FALSE`;
    return sql`(${sql.join(compileOr(node.or, ctx, reads), sql` OR `)})`;
  }
  if ('not' in node) return sql`(NOT ${compileNode(node.not, ctx, reads)})`;
  return sql`coalesce(${compileLeaf(node, ctx, reads)}, FALSE)`;
}

/**
 * What an OR's leaf on a plain attribute asks of its folded value, when it is one of a few hashed
 * tests: to equal one of `equal` (match without `*`, in), or to begin with one of `prefixes` (match
 * whose only `*`s end it, startsWith). Null for any other node.
 */
function valueTest(
  node: QueryNode,
  ctx: CompileContext,
): { attr: string; equal: string[]; prefixes: string[] } | null {
  const one = (leaf: Record<string, unknown>) => Object.entries(leaf)[0] as [string, unknown];
  let attr: string;
  let equal: string[] = [];
  let prefixes: string[] = [];
  if ('match' in node) {
    const [a, value] = one(node.match);
    const v = trimValue(value as string).toLowerCase();
    if (!/^[^*]*\**$/.test(v)) return null;
    [attr, equal, prefixes] = v.includes('*') ? [a, [], [v.replace(/\*+$/, '')]] : [a, [v], []];
  } else if ('in' in node) {
    const [a, values] = one(node.in);
    [attr, equal] = [a, (values as string[]).map((v) => trimValue(v).toLowerCase())];
  } else if ('startsWith' in node) {
    const [a, value] = one(node.startsWith);
    [attr, prefixes] = [a, [trimValue(value as string).toLowerCase()]];
  } else return null;
  return ctx.encrypted.has(attr) ? null : { attr, equal, prefixes };
}

/**
 * The operands of an OR: its leaves that compare one plain attribute's folded value with values
 * or prefixes (valueTest), two or more on the same attribute, as one test in place of the first,
 * `value = ANY(values)` and per prefix length n `left(value, n) = ANY(prefixes)`: hashed
 * ScalarArrayOps (PostgreSQL 14+, nine values or more) instead of an equality or a LIKE per leaf
 * (an or of ten postcodes beginning with four digits, 1M: 0.74 → 0.56 s). The same answer: LIKE
 * 'p%' holds of a text exactly when its first characters are p's (UTF-8 bytes, in any deterministic
 * collation), and NULL (no value) is FALSE either way. Every other operand as compileNode makes it.
 */
function compileOr(children: QueryNode[], ctx: CompileContext, reads: AttributeReads): SQL[] {
  const tests = children.map((c) => valueTest(c, ctx));
  const byAttr = new Map<string, number[]>();
  tests.forEach((t, i) => {
    if (t) byAttr.set(t.attr, [...(byAttr.get(t.attr) ?? []), i]);
  });
  const out: SQL[] = [];
  children.forEach((child, i) => {
    const t = tests[i];
    const group = t ? (byAttr.get(t.attr) as number[]) : [];
    if (!t || group.length < 2) out.push(compileNode(child, ctx, reads));
    else if (group[0] === i)
      out.push(
        groupTest(
          t.attr,
          group.map((k) => tests[k] as NonNullable<typeof t>),
          reads,
        ),
      );
  });
  return out;
}

/** The one test of an OR's valueTests on `attr` (compileOr). */
function groupTest(
  attr: string,
  tests: { equal: string[]; prefixes: string[] }[],
  reads: AttributeReads,
): SQL {
  const value = reads.value(attr, 'folded');
  const equal = [...new Set(tests.flatMap((t) => t.equal))];
  const byLength = new Map<number, Set<string>>();
  for (const p of tests.flatMap((t) => t.prefixes)) {
    const n = [...p].length;
    byLength.set(n, (byLength.get(n) ?? new Set()).add(p));
  }
  const parts: SQL[] = [];
  if (equal.length > 0) parts.push(sql`${value} = ANY(${pgTextArray(equal)}::text[])`);
  for (const [n, ps] of [...byLength].sort(([a], [b]) => a - b)) {
    parts.push(sql`left(${value}, ${sql.raw(String(n))}) = ANY(${pgTextArray([...ps])}::text[])`);
  }
  return sql`coalesce(${sql.join(parts, sql` OR `)}, FALSE)`;
}

/** Escapes LIKE's own wildcards (`%`, `_` and its escape `\`). */
function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Escapes LIKE's own wildcards and turns the user's `*` into `%`. */
function likePattern(value: string): string {
  return escapeLike(value).replace(/\*/g, '%');
}

// A leaf on one attribute: its plain-text test, and for datasets that store it encrypted the
// blind-index test (the same attribute can be plain in one dataset and encrypted in another).
function attributeTest(attr: string, plain: SQL, encrypted: SQL | null, ctx: CompileContext): SQL {
  if (!ctx.encrypted.has(attr)) return plain;
  if (ctx.slots) throw new NotNarrow(attr);
  const bi = blindIndexKey(attr);
  return sql`(CASE WHEN r.attrs ? ${bi}::text THEN ${encrypted ?? sql`FALSE`} ELSE ${plain} END)`;
}

/** The leaf of a node that is one (not and/or/not). */
type Leaf = Exclude<QueryNode, { and: unknown } | { or: unknown } | { not: unknown }>;
/** The content of the leaf kind K (e.g. a match leaf's {attribute: value}). */
type LeafOf<K extends string> = Extract<Leaf, Record<K, unknown>> extends Record<K, infer V> ? V : never;

/** A leaf's test, by its kind; may be NULL (compileNode reads it as FALSE). */
function compileLeaf(node: Leaf, ctx: CompileContext, reads: AttributeReads): SQL {
  if ('match' in node) return matchLeaf(node.match, ctx, reads);
  if ('in' in node) return inLeaf(node.in, ctx, reads);
  if ('range' in node) return rangeLeaf(node.range, ctx, reads);
  if ('dateRange' in node) return dateRangeLeaf(node.dateRange, ctx, reads);
  if ('age' in node) return ageLeaf(node.age, ctx, reads);
  if ('empty' in node) return emptyLeaf(node.empty, ctx, reads);
  if ('startsWith' in node) return partLeaf(node.startsWith, 'startsWith', ctx, reads);
  if ('includes' in node) return partLeaf(node.includes, 'includes', ctx, reads);
  if ('contains' in node) return containsLeaf(node.contains, ctx);
  if ('dataset' in node) return datasetLeaf(node.dataset, ctx);
  if ('interests' in node) return interestsLeaf(node.interests, ctx);
  const file = 'intersect' in node ? node.intersect : (node as { complement: FileLeaf }).complement;
  if (!ctx.fileRows) throw badRequest(`Het bestand van regel ${file.id} is niet gevonden`);
  const inFile = ctx.fileRows(file.id, file.fields, ctx);
  return 'intersect' in node ? inFile : sql`(NOT ${inFile})`;
}

/** An attribute equal to a value (folded), or LIKE it with the user's `*` wildcards (plain values only). */
function matchLeaf(match: LeafOf<'match'>, ctx: CompileContext, reads: AttributeReads): SQL {
  const [attr, value] = Object.entries(match)[0];
  const v = trimValue(value);
  const hasWildcard = v.includes('*');
  if (hasWildcard && ctx.encrypted.has(attr)) throw badRequest(CompileMessages.wildcardEncrypted(attr));
  const lowered = v.toLowerCase();
  const plain = hasWildcard
    ? sql`${reads.value(attr, 'folded')} LIKE ${likePattern(lowered)}`
    : sql`${reads.value(attr, 'folded')} = ${lowered}`;
  const bi = blindIndexKey(attr);
  return attributeTest(attr, plain, sql`(r.attrs ->> ${bi}::text) = ${blindIndex(ctx.keys(), v)}`, ctx);
}

/** An attribute equal to one of a list of values (folded; by blind index where encrypted). */
function inLeaf(list: LeafOf<'in'>, ctx: CompileContext, reads: AttributeReads): SQL {
  const [attr, values] = Object.entries(list)[0];
  const trimmed = values.map(trimValue);
  const plain = sql`${reads.value(attr, 'folded')} = ANY(${pgTextArray(trimmed.map((v) => v.toLowerCase()))}::text[])`;
  const bi = blindIndexKey(attr);
  const hashes = trimmed.map((v) => blindIndex(ctx.keys(), v));
  return attributeTest(
    attr,
    plain,
    sql`(r.attrs ->> ${bi}::text) = ANY(${pgTextArray(hashes)}::text[])`,
    ctx,
  );
}

/** An attribute between two bounds: as numbers when both are numbers (DESIGN §6), else in text order. */
function rangeLeaf(range: LeafOf<'range'>, ctx: CompileContext, reads: AttributeReads): SQL {
  const [attr, [from, to]] = Object.entries(range)[0];
  if (ctx.encrypted.has(attr)) throw badRequest(CompileMessages.rangeEncrypted(attr));
  const lo = toNumber(from);
  const hi = toNumber(to);
  if (lo !== null && hi !== null) {
    return sql`${reads.value(attr, 'numeric')} BETWEEN ${String(lo)}::numeric AND ${String(hi)}::numeric`;
  }
  const value = sql`${reads.value(attr, 'folded')} COLLATE "C"`;
  return sql`(${value} >= ${trimValue(from).toLowerCase()} AND ${value} <= ${trimValue(to).toLowerCase()})`;
}

/** An attribute's date between two bounds (dates or relative to ctx.now: NOW-30YEARS); 400 for a bound that is no date. */
function dateRangeLeaf(range: LeafOf<'dateRange'>, ctx: CompileContext, reads: AttributeReads): SQL {
  const [attr, [from, to]] = Object.entries(range)[0];
  if (ctx.encrypted.has(attr)) throw badRequest(CompileMessages.rangeEncrypted(attr));
  const lo = resolveDateBound(from, ctx.now);
  const hi = resolveDateBound(to, ctx.now);
  if (!lo) throw badRequest(CompileMessages.dateBound(from));
  if (!hi) throw badRequest(CompileMessages.dateBound(to));
  return sql`${reads.value(attr, 'date')} BETWEEN ${lo}::date AND ${hi}::date`;
}

/** An age in years on a birth date attribute: the dateRange of its bounds (ageBounds, query-operators.ts). */
function ageLeaf(age: LeafOf<'age'>, ctx: CompileContext, reads: AttributeReads): SQL {
  const [attr, [from, to]] = Object.entries(age)[0];
  return dateRangeLeaf({ [attr]: ageBounds(from, to) }, ctx, reads);
}

/**
 * An attribute without a value (none, or blank once trimmed), or with `false` one with a value;
 * a value stored encrypted is a value.
 */
function emptyLeaf(empty: LeafOf<'empty'>, ctx: CompileContext, reads: AttributeReads): SQL {
  const [attr, isEmpty] = Object.entries(empty)[0];
  const blank = sql`coalesce(${reads.value(attr, 'folded')}, '') = ''`;
  return attributeTest(attr, isEmpty ? blank : sql`NOT ${blank}`, isEmpty ? sql`FALSE` : sql`TRUE`, ctx);
}

/**
 * An attribute that begins with or contains a text: the wildcard rule of matchLeaf (folded, LIKE)
 * with the text taken literally; refused (400) on an encrypted attribute.
 */
function partLeaf(
  leaf: Record<string, string>,
  kind: 'startsWith' | 'includes',
  ctx: CompileContext,
  reads: AttributeReads,
): SQL {
  const [attr, value] = Object.entries(leaf)[0];
  if (ctx.encrypted.has(attr)) throw badRequest(CompileMessages.partEncrypted(attr));
  const text = escapeLike(trimValue(value).toLowerCase());
  return sql`${reads.value(attr, 'folded')} LIKE ${kind === 'startsWith' ? `${text}%` : `%${text}%`}`;
}

/** The address's operating systems, domain or e-mail address among a list (external types). */
function containsLeaf(contains: LeafOf<'contains'>, ctx: CompileContext): SQL {
  if ('os' in contains) return sql`${addressField(ctx, 'os')} && ${pgTextArray(contains.os)}::text[]`;
  if ('domain' in contains) {
    return sql`${addressField(ctx, 'domain')} = ANY(${pgTextArray(contains.domain.map((d) => normalizeDomain(d) ?? trimValue(d).toLowerCase()))}::text[])`;
  }
  return sql`${addressField(ctx, 'email')} = ANY(${pgTextArray(contains.id.map((e) => normalizeEmail(e) ?? e))}::text[])`;
}

/** The record's dataset is the one named, or carries the label named. */
function datasetLeaf(dataset: LeafOf<'dataset'>, ctx: CompileContext): SQL {
  // On sel_record rows with the count's catalog (ctx.datasets), by the row's dataset number: a
  // join of datasets cost a hash probe per row, three per sel_multi row (20M, two cities or a
  // label: 3.66 → 3.04 s without). An uncorrelated subquery by the number (an InitPlan) took the
  // parallel plan away (1M: 0.30 → 0.43 s).
  if (ctx.slots && ctx.datasets) {
    const num = recordColumn(ctx, 'ds');
    if ('id' in dataset) {
      const id = dataset.id;
      const at = ctx.datasets.findIndex((d) => d?.id === id);
      return at < 0 ? sql`FALSE` : sql`${num} = ${at + 1}::int`;
    }
    const type = dataset.type;
    const flags = ctx.datasets.map((d) => (d ? String(d.types.includes(type)) : 'NULL'));
    return sql`(${`{${flags.join(',')}}`}::boolean[])[${num}]`;
  }
  return 'id' in dataset
    ? sql`${recordDatasetField(ctx, 'id')} = ${dataset.id}`
    : sql`${dataset.type}::text = ANY(${datasetAlias(ctx)}.types)`;
}

/** The address clicked or opened a mailing of one of the interests named. */
function interestsLeaf(interests: LeafOf<'interests'>, ctx: CompileContext): SQL {
  return 'click' in interests
    ? sql`${addressField(ctx, 'click_interests')} && ${pgTextArray(interests.click)}::text[]`
    : sql`${addressField(ctx, 'open_interests')} && ${pgTextArray(interests.open)}::text[]`;
}
