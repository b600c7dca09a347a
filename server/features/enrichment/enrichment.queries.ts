import { sql } from 'drizzle-orm';
import type pg from 'pg';
import type { EnrichmentFile } from '../../../common/enrichment';
import { VALUE_TRIM_CHARS } from '../../../common/values';
import { clientDb, type DbOrTx } from '../../db/client';
import type { ColumnKeys } from '../../lib/crypto';
import { anySuppressions, suppressedSql } from '../avg/suppression';
import type { EnrichmentColumn } from './enrichment.table';

// Every statement on enrichment_files, enrichment_values and addresses.enrichment (DESIGN §6
// Enrichment files). They run on one pg client inside the caller's transaction, which holds the
// enrichment lock (lockEnrichment): files are applied and deleted one at a time, so the order of
// their dates is the order in which their values were laid over each other.

/** Takes the transaction-scoped lock that serializes enrichment uploads and deletes. */
export async function lockEnrichment(client: pg.PoolClient): Promise<void> {
  await client.query(`SELECT pg_advisory_xact_lock(hashtext('lijstwerk.enrichment'))`);
}

/** Lists the enrichment files, oldest first (spec 001 §2: sorted by date ascending). */
export async function listEnrichmentFiles(pool: pg.Pool): Promise<EnrichmentFile[]> {
  const { rows } = await pool.query<{ id: string; name: string; date: Date; record_count: number }>(
    'SELECT id, name, date, record_count FROM enrichment_files ORDER BY date, id',
  );
  return rows.map((r) => ({
    _id: r.id,
    name: r.name,
    date: r.date.toISOString(),
    recordCount: r.record_count,
  }));
}

/** Whether a file of this name exists. */
export async function enrichmentFileExists(pool: pg.Pool, name: string): Promise<boolean> {
  const { rowCount } = await pool.query('SELECT 1 FROM enrichment_files WHERE name = $1', [name]);
  return (rowCount ?? 0) > 0;
}

/** The attributes enrichment files give (their Verrijk columns), for the selection compiler. */
export async function listEnrichedAttributes(db: DbOrTx): Promise<Set<string>> {
  const { rows } = await db.execute(sql`SELECT DISTINCT c->>'mapped' AS name
    FROM enrichment_files f, jsonb_array_elements(f.columns) c WHERE NOT (c->>'match')::boolean`);
  return new Set((rows as { name: string }[]).map((r) => r.name));
}

/** How a file's staged rows are read: the staging table and the 0-based columns of each kind. */
export interface StagedEnrichment {
  staging: string;
  /** The Match column mapped onto the e-mail address, if any. */
  email?: number;
  /** The other Match columns and the record attributes they are compared with. */
  attributes: { index: number; mapped: string }[];
  /** The Verrijk columns and the attributes they give. */
  enrich: { index: number; mapped: string }[];
  /** The collation whose lower() folds case like JavaScript's (compile-context.ts caseCollation). */
  collation: string;
}

/**
 * Deletes the staged rows whose e-mail (the Match column at 0-based `email`, folded as
 * matchAddresses folds it: the stored form of an address) was erased (AVG art. 17), so that no
 * match reads them; returns how many went. Nothing is hashed while no address was ever erased.
 * The caller holds holdOffErasure.
 */
export async function deleteErasedRows(
  client: pg.PoolClient,
  f: { staging: string; email: number; collation: string },
  keys: ColumnKeys,
): Promise<number> {
  const db = clientDb(client);
  if (!(await anySuppressions(db))) return 0;
  // Not `s`: suppressedSql's subquery names avg_suppressions so.
  const value = sql.raw(`stg.c${f.email + 1}`);
  const folded = sql`nullif(lower(btrim(${value}, ${VALUE_TRIM_CHARS}::text) COLLATE ${sql.raw(`"${f.collation}"`)}), '')`;
  const { rowCount } = await db.execute(
    sql`DELETE FROM ${sql.raw(f.staging)} stg WHERE ${value} IS NOT NULL AND ${suppressedSql(keys, folded)}`,
  );
  return rowCount ?? 0;
}

/**
 * Finds the addresses a staged file's rows match into the temporary table `enr_hit` (address_id,
 * attrs: the row's non-empty Verrijk values, trimmed; known: whether the address has a row in
 * address_enrichment already), all in SQL: by their own e-mail address
 * (the file's value trimmed and lower-cased as stored addresses are) and/or by a record of theirs
 * whose attributes equal every other Match value (trimmed, case-insensitive, as a selection's match
 * line compares). An address several rows match takes the last of them. Returns how many matched.
 */
export async function matchAddresses(client: pg.PoolClient, f: StagedEnrichment): Promise<number> {
  // $1 the characters a value is trimmed of, as everywhere (common/values.ts); then the names.
  const params: string[] = [VALUE_TRIM_CHARS];
  const param = (v: string) => {
    params.push(v);
    return `$${params.length}::text`;
  };
  const col = (i: number) => `s.c${i + 1}`;
  const fold = (expr: string) => `nullif(lower(btrim(${expr}, $1::text) COLLATE "${f.collation}"), '')`;
  // jsonb_object(keys, values) costs PostgreSQL a third less CPU than jsonb_build_object (0.63
  // against 0.91 s for a million rows of two values, both stripped; docs/decisions.md,
  // Enrichment files); the empty values it gives as JSON null are stripped as before. The names are
  // distinct (the mappings schema refuses an attribute twice), so the object is the same.
  const attrs = f.enrich.length
    ? `jsonb_strip_nulls(jsonb_object(ARRAY[${f.enrich.map((c) => param(c.mapped)).join(', ')}], ARRAY[${f.enrich
        .map((c) => `nullif(btrim(${col(c.index)}, $1::text), '')`)
        .join(', ')}]))`
    : `'{}'::jsonb`;
  const email = f.email === undefined ? '' : `a.email = (${fold(col(f.email))})::text COLLATE "C"`;
  let from: string;
  if (f.attributes.length === 0) {
    from = `${f.staging} s JOIN addresses a ON ${email}`;
  } else {
    const on = f.attributes.map((c) => `${fold(`r.attrs ->> ${param(c.mapped)}`)} = ${fold(col(c.index))}`);
    from = `${f.staging} s JOIN records r ON ${on.join(' AND ')}${
      email ? ` JOIN addresses a ON a.id = r.address_id AND ${email}` : ''
    }`;
  }
  const id = f.attributes.length === 0 ? 'a.id' : 'r.address_id';
  await client.query(`ANALYZE ${f.staging}`);
  // CREATE TABLE AS reports its rows: the matched addresses, without counting them again. `known`
  // is read here, before insertEnrichment writes address_enrichment (see there).
  const hits = await client.query(
    `CREATE TEMPORARY TABLE enr_hit ON COMMIT DROP AS
     SELECT h.address_id, h.attrs, e.address_id IS NOT NULL AS known
     FROM (SELECT DISTINCT ON (${id}) ${id} AS address_id, ${attrs} AS attrs FROM ${from} ORDER BY ${id}, s.ln DESC) h
     LEFT JOIN address_enrichment e ON e.address_id = h.address_id`,
    params,
  );
  return hits.rowCount ?? 0;
}

/**
 * Records a file and what it adds: its row (dated now, so it is the latest), its values per matched
 * address in enrichment_values, and those values laid over each address's enrichment (the latest
 * file wins). Returns false, writing nothing, when a file of this name exists.
 */
export async function insertEnrichment(
  client: pg.PoolClient,
  file: { id: string; name: string; columns: EnrichmentColumn[]; taskId: string; recordCount: number },
): Promise<boolean> {
  const inserted = await client.query(
    `INSERT INTO enrichment_files (id, name, date, record_count, columns, task_id)
     VALUES ($1, $2, clock_timestamp(), $3, $4::jsonb, $5) ON CONFLICT (name) DO NOTHING`,
    [file.id, file.name, file.recordCount, JSON.stringify(file.columns), file.taskId],
  );
  if (inserted.rowCount === 0) return false;
  const values = await client.query(
    `INSERT INTO enrichment_values (file_id, address_id, attrs)
     SELECT $1, address_id, attrs FROM enr_hit WHERE attrs <> '{}'`,
    [file.id],
  );
  // An update of the addresses enriched before, then an insert of the others: a third faster than
  // one INSERT ... ON CONFLICT (bench/enrichment.ts). Safe because only enrichment writes this
  // table, under the enrichment lock. An address whose values are there already is not rewritten.
  // The insert does not look into address_enrichment (enr_hit.known was read before): a NOT EXISTS
  // there, planned while the table is empty and known to be so (vacuumed after its last file was
  // deleted), became a nested loop that scans the table it is filling once per row, quadratic
  // (20,000 rows 2.1 s; a million would take hours). enr_hit is not analyzed: its size, which
  // PostgreSQL reads from the file, is all these plans need.
  const updated =
    await client.query(`UPDATE address_enrichment e SET attrs = e.attrs || h.attrs FROM enr_hit h
    WHERE h.known AND e.address_id = h.address_id AND h.attrs <> '{}' AND NOT e.attrs @> h.attrs`);
  const added = await client.query(`INSERT INTO address_enrichment (address_id, attrs)
    SELECT address_id, attrs FROM enr_hit WHERE NOT known AND attrs <> '{}'`);
  await refreshStatistics(client, 'enrichment_values', values.rowCount ?? 0);
  await refreshStatistics(client, 'address_enrichment', (updated.rowCount ?? 0) + (added.rowCount ?? 0));
  return true;
}

/**
 * Analyzes `table` (enrichment_values or address_enrichment) when this transaction changed more of
 * its rows than 1,000 and a tenth of what PostgreSQL believes it holds, so that the next upload or
 * delete is planned on its real size instead of waiting for autovacuum. Stale figures made plans
 * quadratic: a table vacuumed while empty but not shrunk is taken to hold no rows at all, however
 * many are written afterwards, and a delete of a million-row file then became a nested loop over
 * a million rows per row (bench/enrichment.ts, second round; docs/decisions.md, Enrichment files).
 * ANALYZE counts this transaction's own writes; it costs 0.1-0.3 s at a million rows.
 */
async function refreshStatistics(
  client: pg.PoolClient,
  table: 'enrichment_values' | 'address_enrichment',
  changed: number,
): Promise<void> {
  if (changed <= 1000) return;
  const { rows } = await client.query<{ n: number }>(
    'SELECT greatest(reltuples, 0)::float8 AS n FROM pg_class WHERE oid = $1::regclass',
    [table],
  );
  if (changed > (rows[0]?.n ?? 0) / 10) await client.query(`ANALYZE ${table}`);
}

/**
 * Deletes a file and exactly what it added: its values are removed, and each address it enriched
 * gets the values of the remaining files laid over each other by date again (its row goes when
 * none is left). Returns the file's id and the number of addresses whose values went; undefined
 * when no file has this name.
 */
export async function deleteEnrichment(
  client: pg.PoolClient,
  name: string,
): Promise<{ id: string; values: number } | undefined> {
  const file = await client.query<{ id: string }>(
    'DELETE FROM enrichment_files WHERE name = $1 RETURNING id',
    [name],
  );
  if (file.rowCount === 0) return undefined;
  await client.query('CREATE TEMPORARY TABLE enr_gone (address_id bigint) ON COMMIT DROP');
  const gone = await client.query(
    `WITH d AS (DELETE FROM enrichment_values WHERE file_id = $1 RETURNING address_id)
     INSERT INTO enr_gone SELECT address_id FROM d`,
    [file.rows[0].id],
  );
  await client.query('ANALYZE enr_gone');
  // jsonb_object_agg keeps the last value of a key: ordered by file date, the latest file wins.
  await client.query(`CREATE TEMPORARY TABLE enr_merged ON COMMIT DROP AS
    SELECT v.address_id, jsonb_object_agg(e.key, e.value ORDER BY f.date, f.id) AS attrs
    FROM enrichment_values v JOIN enrichment_files f ON f.id = v.file_id
    CROSS JOIN LATERAL jsonb_each(v.attrs) e
    WHERE v.address_id IN (SELECT address_id FROM enr_gone)
    GROUP BY v.address_id`);
  const removed = await client.query(`DELETE FROM address_enrichment ae USING enr_gone g
    WHERE ae.address_id = g.address_id
      AND NOT EXISTS (SELECT 1 FROM enr_merged m WHERE m.address_id = g.address_id)`);
  const updated = await client.query(`UPDATE address_enrichment ae SET attrs = m.attrs FROM enr_merged m
    WHERE ae.address_id = m.address_id AND ae.attrs IS DISTINCT FROM m.attrs`);
  await refreshStatistics(client, 'enrichment_values', gone.rowCount ?? 0);
  await refreshStatistics(client, 'address_enrichment', (removed.rowCount ?? 0) + (updated.rowCount ?? 0));
  return { id: file.rows[0].id, values: gone.rowCount ?? 0 };
}
