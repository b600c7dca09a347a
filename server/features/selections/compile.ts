import { type SQL, sql } from 'drizzle-orm';
import { normalizeDomain } from '../../../common/blacklists';
import { resolveDateBound } from '../../../common/date-math';
import { normalizeEmail } from '../../../common/email';
import type { FileLeaf, QueryNode } from '../../../common/query-tree';
import { toNumber, trimValue, VALUE_TRIM_CHARS } from '../../../common/values';
import { blindIndex, blindIndexKey, type ColumnKeys } from '../../lib/crypto';
import { badRequest } from '../../lib/http-errors';
import { pgTextArray } from '../../lib/pg-array';
import { recordAttributeSql } from '../enrichment/enrichment.sql';

// DESIGN §6: a query tree becomes one boolean SQL expression over a record `r` (records), its
// address `a` (addresses; its enrichment in address_enrichment) and its dataset `d` (datasets). Every
// value goes in as a parameter; attribute names too (as the key of `->>`), so nothing a user typed
// is ever SQL text.

/** Messages of values the compiler refuses (400). */
export const CompileMessages = {
  wildcardEncrypted: (attr: string) => `Kenmerk ${attr} is versleuteld: zoek op de precieze waarde, zonder *`,
  rangeEncrypted: (attr: string) =>
    `Kenmerk ${attr} is versleuteld: een bereik kan daarop niet worden gezocht`,
  dateBound: (bound: string) =>
    `Geen datum: ${bound} (gebruik DD-MM-JJJJ, JJJJ-MM-DD of bijvoorbeeld NOW-30YEARS)`,
} as const;

/** What a compile needs besides the tree. */
export interface CompileContext {
  /** Keys for the blind index of encrypted attributes. */
  keys: () => ColumnKeys;
  /** Attributes stored encrypted by at least one dataset's mapping. */
  encrypted: ReadonlySet<string>;
  /** Attributes enrichment files give addresses (the fallback of records without a value). */
  enriched?: ReadonlySet<string>;
  /** The collation whose lower() folds case like JavaScript's toLowerCase (see caseCollation). */
  collation: string;
  /** The moment relative dates (NOW-30YEARS) are counted from. */
  now: Date;
  /**
   * Compile for sel_record rows `r` (the narrow table, sel-record.sql.ts) instead of records:
   * attributes read from their slots (this map, attribute → slot), the address's fields from `r`,
   * the dataset from `d` joined by its number (CompiledQuery.needsDataset). A tree the narrow rows cannot answer (an attribute without a slot, encrypted
   * or enriched) throws NotNarrow: compileNarrow answers null for it.
   */
  slots?: ReadonlyMap<string, number>;
  /**
   * With slots: compile for the record in this position of a sel_multi row (its columns p<k>_...,
   * its dataset `d<k>`) instead of a sel_record row's one record.
   */
  position?: number;
  /**
   * With slots: the datasets by number as the count's snapshot holds them (DatasetCatalog). A leaf
   * on the record's dataset then reads constants indexed by the row's dataset number instead of a
   * joined dataset row (CompiledQuery.withDatasets).
   */
  datasets?: DatasetCatalog;
  /**
   * The condition "the record is in the line's file on these fields" (fileRowsSql), by line id,
   * compiled in `ctx` (the context the leaf is compiled in: for records or for sel_record rows).
   */
  fileRows?: (lineId: string, fields: string[], ctx: CompileContext) => SQL;
}

/** A dataset's fields that leaves read. */
export interface CatalogDataset {
  id: string;
  types: string[];
  description: string | null;
  partnerId: string;
}

/** The datasets by their number (datasets.num): entry num - 1, undefined for a number no dataset has. */
export type DatasetCatalog = (CatalogDataset | undefined)[];

/** Thrown while compiling for sel_record (CompileContext.slots) a tree its rows cannot answer. */
export class NotNarrow extends Error {}

/** How many attributes can have a slot in sel_record (t<k>, n<k>, d<k>: migration 0025). */
export const SLOT_COUNT = 16;

/**
 * How many records an address with several has at most for its one row in sel_multi (migration
 * 0027): its records side by side, in positions 1..MULTI_POSITIONS. An address with more keeps a
 * row per record in sel_record_multi.
 */
export const MULTI_POSITIONS = 3;

// Per context compiled for sel_record: whether a leaf read an enrichment value (from `ae`), and
// whether one read the record's dataset row (`d`, `d<k>`: dataset leaves, a file leaf's dataset
// fields).
const narrowReads = new WeakMap<CompileContext, { enrichment: boolean; dataset: boolean }>();

/** The address field `column` where the compiled rows read it: `a` (a row of addresses), or `r` (sel_record's, sel_multi's). */
export function addressField(ctx: CompileContext, column: string): SQL {
  return sql.raw(`${ctx.slots ? 'r' : 'a'}.${column}`);
}

/** The column of a sel_multi row holding the record column `name` of its record in position `k`. */
export const positionColumn = (k: number, name: string) => `p${k}_${name}`;

/** A record column of a sel_record row `r`, or of the record in ctx.position of a sel_multi row `r`. */
function recordColumn(ctx: CompileContext, name: string): SQL {
  return sql.raw(`r.${ctx.position ? positionColumn(ctx.position, name) : name}`);
}

/**
 * The alias of the record's dataset (datasets): `d`, joined to records by id or to a sel_record
 * row by number, or `d<k>` for the record in position k of a sel_multi row.
 */
function datasetAlias(ctx: CompileContext): SQL {
  const reads = narrowReads.get(ctx);
  if (reads) reads.dataset = true;
  return sql.raw(ctx.position ? `d${ctx.position}` : 'd');
}

/**
 * A field of the record's dataset for the compiled rows: of the dataset `d` (records join it by
 * id, sel_record rows by number: datasetAlias), or with ctx.datasets an element of a constant
 * array indexed by the row's dataset number (NULL past its end).
 */
export function recordDatasetField(ctx: CompileContext, field: 'id' | 'description' | 'partnerId'): SQL {
  if (!ctx.slots && field === 'id') return sql`r.dataset_id`;
  if (ctx.slots && ctx.datasets) {
    const values = ctx.datasets.map((d) => (d ? d[field] : null));
    return sql`(${pgTextArray(values)}::text[])[${recordColumn(ctx, 'ds')}]`;
  }
  return sql`${datasetAlias(ctx)}.${sql.raw(field === 'partnerId' ? 'partner_id' : field)}`;
}

/**
 * An attribute's value trimmed and case folded as leaves compare it (file lines): computed from
 * records (the enrichment value when the record has none), or sel_record's slot that holds it.
 */
export function foldedAttribute(attr: string, ctx: CompileContext): SQL {
  if (ctx.slots) return narrowValue(attr, 'folded', ctx);
  return foldSql(recordAttributeSql(attr, ctx.enriched), ctx.collation);
}

/** An attribute's value in one form as the leaves compare it, from its raw text. */
function formOf(raw: SQL, form: Form, collation: string): SQL {
  if (form === 'folded') return foldSql(raw, collation);
  return form === 'numeric' ? sql`lw_to_numeric(${raw})` : sql`lw_to_date(${raw})`;
}

/**
 * An attribute's value in one form for a sel_record row: its slot's column; for an attribute
 * enrichment files give, the enrichment value (from `ae`) where the record has none (its folded
 * form NULL). An attribute without a slot while slots are free is one no refreshed record has
 * (the refresher gives a slot the first time it meets an attribute), so its record value is NULL.
 * NotNarrow for an encrypted attribute, or one without a slot when every slot is taken.
 */
function narrowValue(attr: string, form: Form, ctx: CompileContext): SQL {
  const slots = ctx.slots as ReadonlyMap<string, number>;
  const slot = slots.get(attr);
  if (ctx.encrypted.has(attr) || (slot === undefined && slots.size >= SLOT_COUNT)) throw new NotNarrow(attr);
  const type = form === 'folded' ? 'text' : form === 'numeric' ? 'numeric' : 'date';
  const own = slot === undefined ? null : recordColumn(ctx, `${type === 'text' ? 't' : type[0]}${slot}`);
  if (!ctx.enriched?.has(attr)) return own ?? sql.raw(`NULL::${type}`);
  const reads = narrowReads.get(ctx);
  if (reads) reads.enrichment = true;
  const enriched = formOf(sql`(ae.attrs ->> ${attr}::text)`, form, ctx.collation);
  return own
    ? sql`(CASE WHEN ${recordColumn(ctx, `t${slot}`)} IS NOT NULL THEN ${own} ELSE ${enriched} END)`
    : enriched;
}

/** Escapes LIKE's own wildcards and turns the user's `*` into `%`. */
function likePattern(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%');
}

/**
 * A compiled query tree: `where`, a boolean SQL expression that is never NULL (so NOT is a true
 * complement), over `r`, `a`, `d` and the columns of `values`: the FROM items (CROSS JOIN LATERAL)
 * that read each attribute the tree names once per record, after a LEFT JOIN of the address's
 * enrichment `ae` when one of them is enriched (empty SQL when it names none).
 */
export interface CompiledQuery {
  where: SQL;
  values: SQL;
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
  const where = compileNode(node, { ...ctx, slots: undefined }, reads);
  const out: CompiledQuery = { where, values: reads.fromItems() };
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
  const reads = { enrichment: false, dataset: false };
  narrowReads.set(ctx, reads);
  try {
    const where = compileNode(node, ctx, new AttributeReads(ctx));
    const values = reads.enrichment
      ? sql` LEFT JOIN address_enrichment ae ON ae.address_id = r.address_id`
      : sql``;
    return { where, values, needsDataset: reads.dataset };
  } catch (err) {
    if (err instanceof NotNarrow) return null;
    throw err;
  } finally {
    narrowReads.delete(ctx);
  }
}

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
    return sql`(${sql.join(
      node.or.map((c) => compileNode(c, ctx, reads)),
      sql` OR `,
    )})`;
  }
  if ('not' in node) return sql`(NOT ${compileNode(node.not, ctx, reads)})`;
  return sql`coalesce(${compileLeaf(node, ctx, reads)}, FALSE)`;
}

/** A value trimmed and case-folded the way leaves compare text (DESIGN §6), in `collation` (caseCollation). */
export const foldSql = (expr: SQL, collation: string) =>
  sql`lower(btrim(${expr}, ${VALUE_TRIM_CHARS}) COLLATE ${sql.identifier(collation)})`;
// An attribute's value (DESIGN §6): the record's own (a key present in its attrs; empty values are
// never stored there) wins, else, for an attribute enrichment files give, the address's enrichment
// value (server/features/enrichment), from `ae`: address_enrichment LEFT JOINed once per record
// when the tree reads such an attribute (AttributeReads.fromItems). A scalar lookup per record
// cost 1.42 s at 1M records against 0.45 s for the join (docs/decisions.md, Selection engine and
// counts).
const attrText = (attr: string, ctx: CompileContext) =>
  ctx.enriched?.has(attr)
    ? sql`coalesce(r.attrs ->> ${attr}::text, ae.attrs ->> ${attr}::text)`
    : sql`(r.attrs ->> ${attr}::text)`;

type Form = 'folded' | 'numeric' | 'date';

/**
 * The attribute values a tree reads, each computed once per record (docs/decisions.md, Selection
 * engine and counts). Written inline, every leaf extracted, trimmed and case-folded its attribute
 * again (the wide or of ten leaves folded the postcode ten times a record), and PostgreSQL inlines
 * lw_to_date with its argument copied into each of its eight uses. Fenced (OFFSET 0) LATERAL
 * subqueries keep them apart, two per attribute: `lw_r<n>` its raw value, `lw_v<n>` the forms the
 * leaves compare (folded text, number, date); the fence stops the planner from pulling the
 * expressions back into every use.
 */
class AttributeReads {
  /** Per attribute, in order of first use: its FROM items' number and the forms the leaves compare. */
  private readonly attrs = new Map<string, { n: number; forms: Set<Form> }>();
  constructor(private readonly ctx: CompileContext) {}

  /** The column holding `attr` in `form` for the current record. */
  value(attr: string, form: Form): SQL {
    if (this.ctx.slots) return narrowValue(attr, form, this.ctx);
    let entry = this.attrs.get(attr);
    if (!entry) {
      entry = { n: this.attrs.size, forms: new Set() };
      this.attrs.set(attr, entry);
    }
    entry.forms.add(form);
    return sql.raw(`lw_v${entry.n}.${form}`);
  }

  /**
   * The FROM items that compute the values (empty when the tree reads no attribute): per attribute
   * `lw_r<n>` its raw value and `lw_v<n>` its forms, so the planner can cache (Memoize) each
   * attribute's forms by its own raw value (a birth date repeats; a tuple of four attributes rarely).
   */
  fromItems(): SQL {
    const items = [...this.attrs].map(([attr, { n, forms }]) => {
      const input = sql.raw(`lw_r${n}.raw`);
      const columns = [...forms].map(
        (form) => sql`${formOf(input, form, this.ctx.collation)} AS ${sql.raw(form)}`,
      );
      return sql` CROSS JOIN LATERAL (SELECT ${attrText(attr, this.ctx)} AS raw OFFSET 0) ${sql.raw(`lw_r${n}`)}
      CROSS JOIN LATERAL (SELECT ${sql.join(columns, sql`, `)} OFFSET 0) ${sql.raw(`lw_v${n}`)}`;
    });
    const enriched = [...this.attrs.keys()].some((attr) => this.ctx.enriched?.has(attr));
    const enrichment = enriched
      ? sql` LEFT JOIN address_enrichment ae ON ae.address_id = r.address_id`
      : sql``;
    return sql`${enrichment}${sql.join(items, sql``)}`;
  }
}

// A leaf on one attribute: its plain-text test, and for datasets that store it encrypted the
// blind-index test (the same attribute can be plain in one dataset and encrypted in another).
function attributeTest(attr: string, plain: SQL, encrypted: SQL | null, ctx: CompileContext): SQL {
  if (!ctx.encrypted.has(attr)) return plain;
  if (ctx.slots) throw new NotNarrow(attr);
  const bi = blindIndexKey(attr);
  return sql`(CASE WHEN r.attrs ? ${bi}::text THEN ${encrypted ?? sql`FALSE`} ELSE ${plain} END)`;
}

function compileLeaf(node: QueryNode, ctx: CompileContext, reads: AttributeReads): SQL {
  if ('match' in node) {
    const [attr, value] = Object.entries(node.match)[0];
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
  if ('in' in node) {
    const [attr, values] = Object.entries(node.in)[0];
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
  if ('range' in node) {
    const [attr, [from, to]] = Object.entries(node.range)[0];
    if (ctx.encrypted.has(attr)) throw badRequest(CompileMessages.rangeEncrypted(attr));
    const lo = toNumber(from);
    const hi = toNumber(to);
    // Numeric when both bounds are numbers (DESIGN §6), text order otherwise.
    if (lo !== null && hi !== null) {
      return sql`${reads.value(attr, 'numeric')} BETWEEN ${String(lo)}::numeric AND ${String(hi)}::numeric`;
    }
    const value = sql`${reads.value(attr, 'folded')} COLLATE "C"`;
    return sql`(${value} >= ${trimValue(from).toLowerCase()} AND ${value} <= ${trimValue(to).toLowerCase()})`;
  }
  if ('dateRange' in node) {
    const [attr, [from, to]] = Object.entries(node.dateRange)[0];
    if (ctx.encrypted.has(attr)) throw badRequest(CompileMessages.rangeEncrypted(attr));
    const lo = resolveDateBound(from, ctx.now);
    const hi = resolveDateBound(to, ctx.now);
    if (!lo) throw badRequest(CompileMessages.dateBound(from));
    if (!hi) throw badRequest(CompileMessages.dateBound(to));
    return sql`${reads.value(attr, 'date')} BETWEEN ${lo}::date AND ${hi}::date`;
  }
  if ('contains' in node) {
    if ('os' in node.contains)
      return sql`${addressField(ctx, 'os')} && ${pgTextArray(node.contains.os)}::text[]`;
    if ('domain' in node.contains) {
      return sql`${addressField(ctx, 'domain')} = ANY(${pgTextArray(node.contains.domain.map((d) => normalizeDomain(d) ?? trimValue(d).toLowerCase()))}::text[])`;
    }
    return sql`${addressField(ctx, 'email')} = ANY(${pgTextArray(node.contains.id.map((e) => normalizeEmail(e) ?? e))}::text[])`;
  }
  if ('dataset' in node) {
    // On sel_record rows with the count's catalog (ctx.datasets), by the row's dataset number: a
    // join of datasets cost a hash probe per row, three per sel_multi row (20M, two cities or a
    // label: 3.66 → 3.04 s without). An uncorrelated subquery by the number (an InitPlan) took the
    // parallel plan away (1M: 0.30 → 0.43 s).
    if (ctx.slots && ctx.datasets) {
      const num = recordColumn(ctx, 'ds');
      if ('id' in node.dataset) {
        const id = node.dataset.id;
        const at = ctx.datasets.findIndex((d) => d?.id === id);
        return at < 0 ? sql`FALSE` : sql`${num} = ${at + 1}::int`;
      }
      const type = node.dataset.type;
      const flags = ctx.datasets.map((d) => (d ? String(d.types.includes(type)) : 'NULL'));
      return sql`(${`{${flags.join(',')}}`}::boolean[])[${num}]`;
    }
    return 'id' in node.dataset
      ? sql`${recordDatasetField(ctx, 'id')} = ${node.dataset.id}`
      : sql`${node.dataset.type}::text = ANY(${datasetAlias(ctx)}.types)`;
  }
  if ('interests' in node) {
    return 'click' in node.interests
      ? sql`${addressField(ctx, 'click_interests')} && ${pgTextArray(node.interests.click)}::text[]`
      : sql`${addressField(ctx, 'open_interests')} && ${pgTextArray(node.interests.open)}::text[]`;
  }
  const file = 'intersect' in node ? node.intersect : (node as { complement: FileLeaf }).complement;
  if (!ctx.fileRows) throw badRequest(`Het bestand van regel ${file.id} is niet gevonden`);
  const inFile = ctx.fileRows(file.id, file.fields, ctx);
  return 'intersect' in node ? inFile : sql`(NOT ${inFile})`;
}

// Collations whose lower() folds case like JavaScript's toLowerCase, best first: ICU's root
// locale, PostgreSQL 18's builtin full case mapping, PostgreSQL 17's simple one. A database
// created with locale C folds only ASCII with the default collation.
const CASE_COLLATIONS = ['und-x-icu', 'pg_unicode_fast', 'pg_c_utf8'];
let chosenCollation: Promise<string> | undefined;

/** The collation the compiler lowers text with on this server (looked up once per process). */
export function caseCollation(db: { execute: (q: SQL) => Promise<{ rows: unknown[] }> }): Promise<string> {
  chosenCollation ??= db
    .execute(
      sql`SELECT collname FROM pg_collation WHERE collname = ANY(${pgTextArray(CASE_COLLATIONS)}::text[])`,
    )
    .then(({ rows }) => {
      const names = new Set((rows as { collname: string }[]).map((r) => r.collname));
      return CASE_COLLATIONS.find((c) => names.has(c)) ?? 'default';
    })
    .catch((err) => {
      chosenCollation = undefined;
      throw err;
    });
  return chosenCollation;
}
