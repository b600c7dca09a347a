import { type SQL, sql } from 'drizzle-orm';
import { VALUE_TRIM_CHARS } from '../../../common/values';
import type { ColumnKeys } from '../../lib/crypto';
import { pgTextArray } from '../../lib/pg-array';
import { recordAttributeSql } from '../enrichment/enrichment.sql';
import { positionColumn, SLOT_COUNT } from './sel.table';

// What a compiled query tree reads (DESIGN §6): the context a compile runs in, and where each value
// a leaf compares comes from, in a row of records `r` with its address `a` and dataset `d`, or in a
// row of sel_record or sel_multi `r` (the narrow tables, sel.table.ts). compile.ts builds the tree
// from these.

/**
 * What a compile of sel_record rows found its leaves read, filled in as it goes: an enrichment
 * value (from `ae`), and the record's dataset row (`d`, `d<k>`: dataset leaves, a file leaf's
 * dataset fields). compileNarrow makes one per compile and reads it after.
 */
export interface NarrowReads {
  enrichment: boolean;
  dataset: boolean;
}

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
   * Compile for sel_record rows `r` (the narrow table, sel.table.ts) instead of records:
   * attributes read from their slots (this map, attribute → slot), the address's fields from `r`,
   * the dataset from `d` joined by its number (CompiledQuery.needsDataset). A tree the narrow rows
   * cannot answer (an attribute without a slot, encrypted or enriched) throws NotNarrow:
   * compileNarrow answers null for it.
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
  /** With slots: what the leaves read (NarrowReads), recorded as they compile. */
  narrowReads?: NarrowReads;
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

/** The address field `column` where the compiled rows read it: `a` (a row of addresses), or `r` (sel_record's, sel_multi's). */
export function addressField(ctx: CompileContext, column: string): SQL {
  return sql.raw(`${ctx.slots ? 'r' : 'a'}.${column}`);
}

/** A record column of a sel_record row `r`, or of the record in ctx.position of a sel_multi row `r`. */
export function recordColumn(ctx: CompileContext, name: string): SQL {
  return sql.raw(`r.${ctx.position ? positionColumn(ctx.position, name) : name}`);
}

/**
 * The alias of the record's dataset (datasets): `d`, joined to records by id or to a sel_record
 * row by number, or `d<k>` for the record in position k of a sel_multi row.
 */
export function datasetAlias(ctx: CompileContext): SQL {
  if (ctx.narrowReads) ctx.narrowReads.dataset = true;
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

/** The forms of an attribute's value that leaves compare: folded text, number, date. */
export type Form = 'folded' | 'numeric' | 'date';

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
  if (ctx.narrowReads) ctx.narrowReads.enrichment = true;
  const enriched = formOf(sql`(ae.attrs ->> ${attr}::text)`, form, ctx.collation);
  return own
    ? sql`(CASE WHEN ${recordColumn(ctx, `t${slot}`)} IS NOT NULL THEN ${own} ELSE ${enriched} END)`
    : enriched;
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

/**
 * The attribute values a tree reads, each computed once per record (docs/decisions.md, Selection
 * engine and counts). Written inline, every leaf extracted, trimmed and case-folded its attribute
 * again (the wide or of ten leaves folded the postcode ten times a record), and PostgreSQL
 * inlines lw_to_date with its argument copied into each of its eight uses. Fenced (OFFSET 0) LATERAL
 * subqueries keep them apart, two per attribute: `lw_r<n>` its raw value, `lw_v<n>` the forms the
 * leaves compare (folded text, number, date); the fence stops the planner from pulling the
 * expressions back into every use.
 */
export class AttributeReads {
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

// Collations whose lower() folds case like JavaScript's toLowerCase, best first: ICU's root
// locale, PostgreSQL 18's builtin full case mapping, PostgreSQL 17's simple one. A database
// created with locale C folds only ASCII with the default collation.
const CASE_COLLATIONS = ['und-x-icu', 'pg_unicode_fast', 'pg_c_utf8'];

/** Something that runs a statement: a Drizzle handle or transaction. */
type Executes = { execute: (q: SQL) => Promise<{ rows: unknown[] }> };

/**
 * The collation the compiler lowers text with on the server `db` connects to, looked up in its
 * catalog (the app keeps the answer: AppContext.caseCollation, made by caseCollationOnce).
 */
export async function caseCollation(db: Executes): Promise<string> {
  const { rows } = await db.execute(
    sql`SELECT collname FROM pg_collation WHERE collname = ANY(${pgTextArray(CASE_COLLATIONS)}::text[])`,
  );
  const names = new Set((rows as { collname: string }[]).map((r) => r.collname));
  return CASE_COLLATIONS.find((c) => names.has(c)) ?? 'default';
}

/**
 * A getter of caseCollation on `db` that looks it up on its first call and answers the same after
 * (a failed lookup is tried again on the next call).
 */
export function caseCollationOnce(db: Executes): () => Promise<string> {
  let chosen: Promise<string> | undefined;
  return () => {
    chosen ??= caseCollation(db).catch((err) => {
      chosen = undefined;
      throw err;
    });
    return chosen;
  };
}
