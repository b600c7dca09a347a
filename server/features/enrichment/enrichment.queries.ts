import type pg from 'pg';
import type { EnrichmentFile } from '../../../common/enrichment';
import { VALUE_TRIM_CHARS } from '../../../common/values';
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

/** The attributes some dataset's mapping stores encrypted (their values in records are ciphertext). */
export async function listEncryptedAttributes(pool: pg.Pool): Promise<Set<string>> {
  const { rows } = await pool.query<{ name: string }>(`SELECT DISTINCT m->>'mapped' AS name
    FROM dataset_mappings dm, jsonb_array_elements(dm.mappings) m WHERE (m->>'encrypted')::boolean`);
  return new Set(rows.map((r) => r.name));
}

/**
 * Creates the temporary table `enr_side` (dropped at commit) that a file's normalised rows are
 * copied into: ln (the row's order in the file), email (normalised, when a Match column is the
 * e-mail address), m1..mN (the other Match values, trimmed and lower-cased) and attrs (the
 * row's Verrijk values as a JSON object).
 */
export async function createSideTable(client: pg.PoolClient, attributeMatches: number): Promise<void> {
  const m = Array.from({ length: attributeMatches }, (_, i) => `, m${i + 1} text`).join('');
  await client.query(
    `CREATE TEMPORARY TABLE enr_side (ln bigint, email text COLLATE "C"${m}, attrs jsonb) ON COMMIT DROP`,
  );
}

/**
 * Finds the addresses the rows of `enr_side` match into the temporary table `enr_hit` (address_id,
 * attrs): by their own e-mail address and/or by records of theirs whose attributes equal every
 * other Match value (trimmed, case-insensitive, as a selection's match line compares); an address
 * several rows match takes the last of them. Returns the number of matched addresses.
 */
export async function matchAddresses(
  client: pg.PoolClient,
  input: { byEmail: boolean; attributes: string[]; collation: string },
): Promise<number> {
  await client.query('ANALYZE enr_side');
  // $1 the characters a value is trimmed of, as everywhere (common/values.ts); then the attributes.
  const params: string[] = [VALUE_TRIM_CHARS];
  const folded = (attr: string) => {
    params.push(attr);
    return `lower(btrim(r.attrs ->> $${params.length}::text, $1::text) COLLATE "${input.collation}")`;
  };
  let matched: string;
  if (input.attributes.length === 0) {
    matched =
      'SELECT a.id AS address_id, s.ln, s.attrs FROM enr_side s JOIN addresses a ON a.email = s.email';
  } else {
    const on = input.attributes.map((attr, i) => `${folded(attr)} = s.m${i + 1}`).join(' AND ');
    matched = `SELECT r.address_id, s.ln, s.attrs FROM enr_side s JOIN records r ON ${on}${
      input.byEmail ? ' JOIN addresses a ON a.id = r.address_id AND a.email = s.email' : ''
    }`;
  }
  await client.query(
    `CREATE TEMPORARY TABLE enr_hit ON COMMIT DROP AS
     SELECT DISTINCT ON (address_id) address_id, attrs FROM (${matched}) x ORDER BY address_id, ln DESC`,
    input.attributes.length === 0 ? [] : params,
  );
  const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM enr_hit');
  return rows[0].n;
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
  await client.query(
    `INSERT INTO enrichment_values (file_id, address_id, attrs)
     SELECT $1, address_id, attrs FROM enr_hit WHERE attrs <> '{}'`,
    [file.id],
  );
  // An address whose enrichment holds these values already is not written again.
  await client.query(`UPDATE addresses a SET enrichment = coalesce(a.enrichment, '{}') || h.attrs
    FROM enr_hit h
    WHERE a.id = h.address_id AND h.attrs <> '{}' AND NOT coalesce(a.enrichment, '{}') @> h.attrs`);
  return true;
}

/**
 * Deletes a file and exactly what it added: its values are removed, and each address it enriched
 * gets the values of the remaining files laid over each other by date again (NULL when none is
 * left). Returns false when no file has this name.
 */
export async function deleteEnrichment(client: pg.PoolClient, name: string): Promise<boolean> {
  const file = await client.query<{ id: string }>(
    'DELETE FROM enrichment_files WHERE name = $1 RETURNING id',
    [name],
  );
  if (file.rowCount === 0) return false;
  await client.query('CREATE TEMPORARY TABLE enr_gone (address_id bigint) ON COMMIT DROP');
  await client.query(
    `WITH d AS (DELETE FROM enrichment_values WHERE file_id = $1 RETURNING address_id)
     INSERT INTO enr_gone SELECT DISTINCT address_id FROM d`,
    [file.rows[0].id],
  );
  await client.query('ANALYZE enr_gone');
  // jsonb_object_agg keeps the last value of a key: ordered by file date, the latest file wins.
  await client.query(`UPDATE addresses a SET enrichment = m.attrs
    FROM (SELECT g.address_id, x.attrs FROM enr_gone g LEFT JOIN (
        SELECT v.address_id, jsonb_object_agg(e.key, e.value ORDER BY f.date, f.id) AS attrs
        FROM enrichment_values v JOIN enrichment_files f ON f.id = v.file_id
        CROSS JOIN LATERAL jsonb_each(v.attrs) e
        WHERE v.address_id IN (SELECT address_id FROM enr_gone)
        GROUP BY v.address_id) x ON x.address_id = g.address_id) m
    WHERE a.id = m.address_id AND a.enrichment IS DISTINCT FROM m.attrs`);
  return true;
}
