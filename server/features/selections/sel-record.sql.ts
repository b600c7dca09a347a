import { type SQL, sql } from 'drizzle-orm';
import type { PoolClient } from 'pg';
import { clientDb, type Database, type DbOrTx } from '../../db/client';
import { blindIndexKey } from '../../lib/crypto';
import { pgTextArray } from '../../lib/pg-array';
import { blacklistedEverywhereSql, partnerBlacklistedSql } from '../blacklists/blacklist.sql';
import { foldSql } from './compile-context';
import {
  ADDRESS_COLUMNS,
  MULTI_POSITIONS,
  positionColumn,
  RECORD_COLUMNS,
  SEL_RECORD_COLUMNS,
  SLOT_COUNT,
} from './sel.table';
import { recordPartitionsSql } from './sel-dirty.sql';

// The narrow tables of the selection engine (migrations 0024, 0025, 0027; docs/decisions.md, Narrow
// tables and the refresher): a row per record with what a count reads (sel_record), every join done
// at write time, integers where a count joins and each attribute's forms in a typed slot; for an
// address with two or three records one row with its records side by side instead (sel_multi).
// Their layout is sel.table.ts's; this file is their rows' one definition: the rows they must hold
// are selRecordRowsSql's (recordRowsSql, multiRowsSql), over records, addresses, datasets and the
// blacklists.
//
// How it stays exact: a writer of anything the rows derive from adds the addresses it touched to
// sel_dirty (markSelDirty) in its own transaction; the refresher (refreshDirtyBatch) takes
// addresses out of sel_dirty and rewrites their rows in one snapshot. A count reads sel_record
// for the addresses not in sel_dirty and the normalized tables for those in it
// (selection-plan.ts), so it is exact at every moment, however far the refresher has come. Text is
// folded in the compiler's collation (`collation`: AppContext.caseCollation).

/** The attribute held in each slot (sel_slot), as a map attribute → slot number (1-based). */
export type SlotMap = ReadonlyMap<string, number>;

/** Reads sel_slot. */
export async function loadSlots(db: DbOrTx): Promise<SlotMap> {
  const { rows } = await db.execute(sql`SELECT attr, slot FROM sel_slot`);
  return new Map((rows as { attr: string; slot: number }[]).map((r) => [r.attr, Number(r.slot)]));
}

/** The columns of sel_record, in table order. */
const COLUMNS = sql.raw(SEL_RECORD_COLUMNS.join(', '));

/** The positions of a sel_multi row, 1..MULTI_POSITIONS. */
const POSITIONS = Array.from({ length: MULTI_POSITIONS }, (_, i) => i + 1);

/** The columns of sel_multi as an INSERT and the drift check list them: the address's, then each position's. */
const MULTI_NAMES = [
  ...ADDRESS_COLUMNS,
  ...POSITIONS.flatMap((k) => RECORD_COLUMNS.map((c) => positionColumn(k, c))),
];
const MULTI_COLUMNS = sql.raw(MULTI_NAMES.join(', '));

/**
 * The sel_multi rows of the rows `derived` (selRecordRowsSql's) of addresses with 2..MULTI_POSITIONS
 * records: one per address, its records in dataset number order (the records of an address are in
 * distinct datasets: records' key).
 */
function multiRowsSql(derived: SQL): SQL {
  const address = sql.raw(ADDRESS_COLUMNS.join(', '));
  const positions = POSITIONS.flatMap((k) =>
    RECORD_COLUMNS.map(
      (name) =>
        `${name === 'partner_blocked' ? 'bool_or' : 'max'}(${name}) FILTER (WHERE pos = ${k}) AS ${positionColumn(k, name)}`,
    ),
  );
  return sql`SELECT ${address}, ${sql.raw(positions.join(', '))}
    FROM (SELECT x.*, row_number() OVER (PARTITION BY address_id ORDER BY ds) AS pos
      FROM (${derived}) x WHERE records_n BETWEEN 2 AND ${sql.raw(String(MULTI_POSITIONS))}) y
    GROUP BY ${address}`;
}

/** The sel_record rows of the rows `derived` (selRecordRowsSql's): those of addresses not in sel_multi. */
function recordRowsSql(derived: SQL): SQL {
  return sql`SELECT ${COLUMNS} FROM (${derived}) x
    WHERE records_n = 1 OR records_n > ${sql.raw(String(MULTI_POSITIONS))}`;
}

/**
 * Writes the rows `derived` (selRecordRowsSql's) into sel_record and sel_multi, in one statement
 * that computes them once.
 */
async function writeSelRows(db: DbOrTx, derived: SQL): Promise<void> {
  const rows = sql`SELECT * FROM lw_derived`;
  await db.execute(sql`WITH lw_derived AS MATERIALIZED (${derived}),
    lw_records AS (INSERT INTO sel_record (${COLUMNS}) ${recordRowsSql(rows)})
    INSERT INTO sel_multi (${MULTI_COLUMNS}) ${multiRowsSql(rows)}`);
}

/**
 * A row per record, for the records whose address satisfies `addressFilter` (a condition on
 * `r.address_id`; all records when null), read from `source` (records, or a table of some
 * addresses' records with its columns address_id, dataset_id, attrs), given the slots and the
 * collation the compiler folds text with: sel_record's columns and `records_n`, how many records
 * the address has (`multi`: more than one), counted over all its records, so the filter must select
 * whole addresses (writeSelRows puts each row in its table). A slot holds its attribute's value
 * in the three forms the leaves compare, each by the compiler's own expression: folded text
 * (foldSql), lw_to_numeric, lw_to_date; NULL where the record has no value.
 */
export function selRecordRowsSql(
  addressFilter: SQL | null,
  slots: SlotMap,
  collation: string,
  source: SQL = sql`records`,
): SQL {
  const byslot = new Map([...slots].map(([attr, slot]) => [slot, attr]));
  const raws: SQL[] = [];
  const forms: SQL[] = [];
  for (let k = 1; k <= SLOT_COUNT; k++) {
    const attr = byslot.get(k);
    if (attr === undefined) {
      forms.push(sql.raw(`NULL::text AS t${k}, NULL::numeric AS n${k}, NULL::date AS d${k}`));
      continue;
    }
    const v = sql.raw(`lw_raw.v${k}`);
    raws.push(sql`r.attrs ->> ${attr}::text AS ${sql.raw(`v${k}`)}`);
    forms.push(
      sql`${foldSql(v, collation)} AS ${sql.raw(`t${k}`)}, lw_to_numeric(${v}) AS ${sql.raw(`n${k}`)}, lw_to_date(${v}) AS ${sql.raw(`d${k}`)}`,
    );
  }
  const raw =
    raws.length > 0 ? sql` CROSS JOIN LATERAL (SELECT ${sql.join(raws, sql`, `)} OFFSET 0) lw_raw` : sql``;
  return sql`SELECT r.address_id, d.num AS ds,
      count(*) OVER (PARTITION BY r.address_id) > 1 AS multi,
      a.last_click_at IS NOT NULL AS clicked, a.last_open_at IS NOT NULL AS opened, a.sent_count,
      a.hard_bounced_at IS NOT NULL AS hard_bounced,
      ${blacklistedEverywhereSql('a')} AS blacklisted,
      ${partnerBlacklistedSql('a', 'd')} AS partner_blocked, a.email, a.domain,
      nullif(a.os, '{}'::text[]) AS os, nullif(a.open_interests, '{}'::text[]) AS open_interests,
      nullif(a.click_interests, '{}'::text[]) AS click_interests,
      ${sql.join(forms, sql`, `)}, count(*) OVER (PARTITION BY r.address_id) AS records_n
    FROM ${source} r JOIN addresses a ON a.id = r.address_id JOIN datasets d ON d.id = r.dataset_id${raw}
    ${addressFilter ? sql`WHERE ${addressFilter}` : sql``}`;
}

/**
 * Gives a slot to each attribute of the records in `source` (records, or a table of some of them)
 * that has none, while slots are free (in name order). Blind index keys take none. Only the
 * refresher and a rebuild call it, under the refresher's lock.
 */
async function assignSlots(db: DbOrTx, source: SQL): Promise<SlotMap> {
  const slots = await loadSlots(db);
  if (slots.size >= SLOT_COUNT) return slots;
  const { rows } = await db.execute(
    sql`SELECT DISTINCT k AS attr FROM ${source} r CROSS JOIN LATERAL jsonb_object_keys(r.attrs) k`,
  );
  const fresh = (rows as { attr: string }[])
    .map((r) => r.attr)
    .filter((attr) => !slots.has(attr) && !attr.endsWith(blindIndexKey('')))
    .sort();
  const used = new Set(slots.values());
  const out = new Map(slots);
  for (const attr of fresh) {
    let slot = 1;
    while (used.has(slot)) slot++;
    if (slot > SLOT_COUNT) break;
    used.add(slot);
    out.set(attr, slot);
    await db.execute(sql`INSERT INTO sel_slot (attr, slot) VALUES (${attr}, ${slot})`);
  }
  return out;
}

/**
 * Adds the addresses `addressIds` (SQL yielding one bigint column: a subquery, or
 * `unnest(array)`) to sel_dirty, in the caller's transaction: every writer of an address's facts
 * or of a blacklist calls it (or a trigger does) for the addresses whose rows it may have changed.
 * A writer of records calls markSelDirtyRecords.
 */
export async function markSelDirty(db: DbOrTx, addressIds: SQL): Promise<void> {
  await db.execute(sql`INSERT INTO sel_dirty (address_id) ${addressIds}`);
}

/**
 * Adds the records `records` (SQL yielding the columns address_id, dataset_id) to sel_dirty, in
 * the caller's transaction: a writer of records calls it for every record it inserted, changed or
 * deleted (the refresher finds an address's records by the datasets of its marks and of its
 * sel_record rows).
 */
export async function markSelDirtyRecords(db: DbOrTx, records: SQL): Promise<void> {
  await db.execute(sql`INSERT INTO sel_dirty (address_id, dataset_id) ${records}`);
}

/**
 * Rewrites the sel_record rows of the addresses of `marks` (sel_dirty rows: an address and,
 * for a record's mark, its dataset), in the caller's transaction, under the refresher's lock (two
 * refreshes of one address at once would both insert its rows). An address's records are read
 * from the datasets of its marks and of its present rows, each by its key in that dataset's
 * partition: every record written since the address's rows were made was marked with its dataset.
 */
export async function refreshSelRecords(
  db: DbOrTx,
  marks: { addressId: number; datasetId: string | null }[],
  collation: string,
): Promise<void> {
  if (marks.length === 0) return;
  await db.execute(sql`${REFRESH_SETTINGS}; ${REFRESH_BY_KEY}`);
  const addressArray = sql`${`{${marks.map((m) => m.addressId).join(',')}}`}::bigint[]`;
  const datasetArray = sql`${pgTextArray(marks.map((m) => m.datasetId))}::text[]`;
  // The partitions to read, each with its addresses (recordPartitionsSql).
  const { rows: groups } = await db.execute(
    recordPartitionsSql(
      sql`SELECT * FROM unnest(${addressArray}, ${datasetArray}) AS m(address_id, dataset_id)`,
      addressArray,
    ),
  );
  // Made once a connection and emptied at each commit (and here, for a second refresh in one
  // transaction): one made and dropped every batch wrote and deleted its catalog rows each time,
  // bloating pg_class and pg_attribute while the refresher runs.
  await db.execute(
    sql`CREATE TEMP TABLE IF NOT EXISTS lw_sel_src (address_id bigint, dataset_id text, attrs jsonb) ON COMMIT DELETE ROWS;
      DELETE FROM lw_sel_src`,
  );
  // Each dataset's partition is read by its key, named in the statement: through the partitioned
  // parent the planner saw every partition and, not knowing how few pairs there are, chose a hash
  // join over all their records (155 of the 189 ms a batch of 1,000 marks took, at 450,000 records).
  const parts = groups as { part: string; ids: string }[];
  for (let i = 0; i < parts.length; i += PARTITIONS_PER_STATEMENT) {
    const reads = parts
      .slice(i, i + PARTITIONS_PER_STATEMENT)
      .map(
        (g) =>
          sql`SELECT address_id, dataset_id, attrs FROM ${sql.identifier(g.part)} WHERE address_id = ANY(${g.ids}::bigint[])`,
      );
    await db.execute(sql`INSERT INTO lw_sel_src ${sql.join(reads, sql` UNION ALL `)}`);
  }
  const source = sql`lw_sel_src`;
  const slots = await assignSlots(db, source);
  await db.execute(sql`DELETE FROM sel_record WHERE address_id = ANY(${addressArray})`);
  await db.execute(sql`DELETE FROM sel_multi WHERE address_id = ANY(${addressArray})`);
  await db.execute(REFRESH_SCAN_SOURCE);
  await writeSelRows(db, selRecordRowsSql(null, slots, collation, source));
}

/** How many datasets' partitions one statement of a refresh reads (a UNION ALL of index scans). */
const PARTITIONS_PER_STATEMENT = 50;

/**
 * For the transaction of a refresh or rebuild: no JIT (the plan reads every dataset's partition:
 * compiling its expressions took 70 of 71 s of a rebuild of 125,000 records), and memory for the
 * sort by address the `multi` window needs.
 */
const REFRESH_SETTINGS = sql`SET LOCAL jit = off; SET LOCAL work_mem = '256MB'`;

/**
 * For a refresh's statements, which touch a batch's addresses only: every row by its key. Without
 * it the planner, costing index probes as reads from disk, chose a hash join over all addresses for
 * the rows' INSERT (10,000 marks at 450,000 addresses: 170 of its 340 ms, growing with the table)
 * and sequential scans of sel_record for the batch's present rows and their DELETE.
 */
const REFRESH_BY_KEY = sql`SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off; SET LOCAL enable_seqscan = off`;

/**
 * Before the refresh's INSERT, which reads the batch's table lw_sel_src as a whole: with sequential
 * scans off that one scan gets the penalty and the planner put it inside a nested loop over all
 * addresses.
 */
const REFRESH_SCAN_SOURCE = sql`SET LOCAL enable_seqscan = on`;

/** The session-level advisory lock the refresher and a rebuild take (one of them at a time). */
const REFRESH_LOCK = 727018;

/**
 * Runs `work` in a REPEATABLE READ transaction on one connection that holds the refresher's
 * session-level advisory lock, taken before the transaction so its snapshot sees what the lock's
 * previous holder committed. `wait`: wait for the lock, else answer null at once when another holds it.
 */
async function underRefreshLock<T>(
  database: Database,
  wait: boolean,
  work: (db: DbOrTx, client: PoolClient) => Promise<T>,
): Promise<T | null> {
  const client = await database.pool.connect();
  let broken = false;
  try {
    const { rows } = await client.query<{ got: boolean }>(
      wait ? 'SELECT pg_advisory_lock($1), true AS got' : 'SELECT pg_try_advisory_lock($1) AS got',
      [REFRESH_LOCK],
    );
    if (!rows[0].got) return null;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      const result = await work(clientDb(client), client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      broken = true;
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      if (!broken) await client.query('SELECT pg_advisory_unlock($1)', [REFRESH_LOCK]);
    }
  } finally {
    client.release(broken);
  }
}

/**
 * Refreshes up to `limit` marks of sel_dirty: under the refresher's lock (0 at once when another
 * holds it), in one REPEATABLE READ transaction, deletes those sel_dirty rows and rewrites their
 * addresses' sel_record rows from the same snapshot. A writer that commits after the snapshot keeps
 * its own sel_dirty rows (not visible to the delete), so nothing is lost. Returns the number of
 * marks taken (0: nothing was dirty, or another refresher is at work).
 */
export async function refreshDirtyBatch(
  database: Database,
  collation: string,
  limit = 50_000,
): Promise<number> {
  const taken = await underRefreshLock(database, false, async (db, client) => {
    // Marks, not addresses, are claimed: an address whose other marks stay behind stays dirty
    // (counts read it from records) until a later batch claims the rest.
    const claimed = await client.query<{ address_id: number; dataset_id: string | null }>(
      `DELETE FROM sel_dirty WHERE ctid = ANY (ARRAY(SELECT ctid FROM sel_dirty LIMIT $1))
       RETURNING address_id, dataset_id`,
      [limit],
    );
    const marks = new Map(
      claimed.rows.map((r) => [
        `${r.address_id} ${r.dataset_id}`,
        { addressId: r.address_id, datasetId: r.dataset_id },
      ]),
    );
    await refreshSelRecords(db, [...marks.values()], collation);
    return claimed.rows.length;
  });
  return taken ?? 0;
}

/** Refreshes batches until sel_dirty is empty (tests, the benchmark, after a large write). */
export async function drainSelDirty(database: Database, collation: string, limit = 50_000): Promise<void> {
  for (;;) {
    const n = await refreshDirtyBatch(database, collation, limit);
    if (n > 0) continue;
    const { rows } = await database.db.execute(sql`SELECT EXISTS (SELECT 1 FROM sel_dirty) AS dirty`);
    if (!(rows[0] as { dirty: boolean }).dirty) return;
    // Another refresher holds the lock: wait for it.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Rebuilds all of sel_record from the tables it derives from and empties sel_dirty (the tests,
 * the benchmark, a repair), under the refresher's lock.
 */
export async function rebuildSelRecords(database: Database, collation: string): Promise<void> {
  await underRefreshLock(database, true, async (db) => {
    await db.execute(REFRESH_SETTINGS);
    await db.execute(sql`DELETE FROM sel_dirty`);
    await db.execute(sql`TRUNCATE sel_record, sel_multi`);
    const slots = await assignSlots(db, sql`records`);
    await writeSelRows(db, selRecordRowsSql(null, slots, collation));
  });
}

/**
 * The rows in which sel_record and sel_multi differ from their definition, for the addresses not
 * in sel_dirty (those may differ: counts read them from the normalized tables): `side` 'stored' for
 * a row a table holds that it should not (or with other values), 'derived' for a row it lacks;
 * `tbl` the table. Empty when every writer marked what it touched.
 */
export async function selRecordDriftSql(db: DbOrTx, collation: string): Promise<SQL> {
  const derived = selRecordRowsSql(
    sql`NOT EXISTS (SELECT 1 FROM sel_dirty x WHERE x.address_id = r.address_id)`,
    await loadSlots(db),
    collation,
  );
  const clean = (t: string) =>
    sql.raw(`FROM ${t} s WHERE NOT EXISTS (SELECT 1 FROM sel_dirty x WHERE x.address_id = s.address_id)`);
  const pairs: [string, SQL, SQL][] = [
    ['sel_record', sql`SELECT ${COLUMNS} ${clean('sel_record')}`, recordRowsSql(derived)],
    ['sel_multi', sql`SELECT ${MULTI_COLUMNS} ${clean('sel_multi')}`, multiRowsSql(derived)],
  ];
  return sql.join(
    pairs.map(
      ([
        tbl,
        stored,
        want,
      ]) => sql`(SELECT 'stored' AS side, ${tbl}::text AS tbl, x.address_id, row_to_json(x)::text AS row
        FROM (${stored} EXCEPT ALL ${want}) x)
      UNION ALL
      (SELECT 'derived' AS side, ${tbl}::text AS tbl, y.address_id, row_to_json(y)::text AS row FROM (${want} EXCEPT ALL ${stored}) y)`,
    ),
    sql` UNION ALL `,
  );
}
