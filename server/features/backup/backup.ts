import { once } from 'node:events';
import fs from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { APP_VERSION } from '../../version';
import {
  BACKUP_END,
  BACKUP_FORMAT_VERSION,
  BACKUP_MAGIC,
  type BackupHeader,
  type BackupSequence,
  type BackupTable,
  COPY_SETTINGS_SQL,
  FrameWriter,
  qualified,
} from './backup-format';

/** Thrown for a backup that cannot be made; its message (Dutch) is for the operator. */
export class BackupError extends Error {}

/** What createBackup reports per table as it goes, and returns at the end. */
export interface BackupProgress {
  table: string;
  rows: number;
}

/** The result of a backup: its header and the file's size. */
export interface BackupSummary {
  header: BackupHeader;
  bytes: number;
}

// Tables the app makes and drops as it works are no part of a backup: its unlogged staging and
// work tables (imports, uploads, enrichment) and the partition a first import fills before it
// attaches it to records (records_<md5 of the dataset id>, not yet a partition: an unfinished import).
const TABLES_SQL = `
  SELECT n.nspname AS schema, c.relname AS name, c.oid::int AS oid,
    pn.nspname AS parent_schema, p.relname AS parent, pg_get_expr(c.relpartbound, c.oid) AS bound
  FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
  LEFT JOIN pg_inherits i ON i.inhrelid = c.oid AND c.relispartition
  LEFT JOIN pg_class p ON p.oid = i.inhparent
  LEFT JOIN pg_namespace pn ON pn.oid = p.relnamespace
  WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relpersistence = 'p'
    AND NOT (c.relname ~ '^records_[0-9a-f]{32}$' AND NOT c.relispartition)
  ORDER BY c.relispartition, c.relname`;

const COLUMNS_SQL = `
  SELECT attname FROM pg_attribute
  WHERE attrelid = $1 AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
  ORDER BY attnum`;

// Sequences owned by a column (serial, bigserial, identity).
const SEQUENCES_SQL = `
  SELECT sn.nspname AS schema, s.relname AS name, c.relname AS "table", a.attname AS "column"
  FROM pg_class s
  JOIN pg_namespace sn ON sn.oid = s.relnamespace
  JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = s.oid
    AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')
  JOIN pg_class c ON c.oid = d.refobjid
  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = d.refobjsubid
  WHERE s.relkind = 'S' AND sn.nspname = 'public'
  ORDER BY s.relname`;

// A partition's constraints and indexes of its own: not inherited from or attached to the
// parent's (which the attach gives it), and not NOT NULL (a column property).
const OWN_CONSTRAINTS_SQL = `
  SELECT format('CONSTRAINT %I %s', conname, pg_get_constraintdef(oid)) AS def FROM pg_constraint
  WHERE conrelid = $1 AND conparentid = 0 AND coninhcount = 0 AND contype IN ('c', 'p', 'u', 'x', 'f')
  ORDER BY contype DESC, conname`;
const OWN_INDEXES_SQL = `
  SELECT pg_get_indexdef(i.indexrelid) AS def FROM pg_index i
  WHERE i.indrelid = $1
    AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.conrelid = $1)
    AND NOT EXISTS (SELECT 1 FROM pg_inherits h WHERE h.inhrelid = i.indexrelid)
  ORDER BY 1`;

async function ownDefinitions(client: pg.ClientBase, oid: number) {
  const constraints = await client.query<{ def: string }>(OWN_CONSTRAINTS_SQL, [oid]);
  const indexes = await client.query<{ def: string }>(OWN_INDEXES_SQL, [oid]);
  return { constraints: constraints.rows.map((r) => r.def), indexes: indexes.rows.map((r) => r.def) };
}

/** Reads what the header describes, in the transaction's snapshot. */
async function describeDatabase(client: pg.ClientBase, keyFingerprint: string | null) {
  const migrations = await client
    .query<{ hash: string; created_at: string }>(
      'SELECT hash, created_at FROM drizzle.__drizzle_migrations ORDER BY created_at, id',
    )
    .catch(() => {
      throw new BackupError('Deze database heeft geen Lijstwerk-gegevens (geen migraties gevonden).');
    });
  const { rows: found } = await client.query<{
    schema: string;
    name: string;
    oid: number;
    parent_schema: string | null;
    parent: string | null;
    bound: string | null;
  }>(TABLES_SQL);
  const tables: (BackupTable & { oid: number })[] = [];
  for (const t of found) {
    const { rows: cols } = await client.query<{ attname: string }>(COLUMNS_SQL, [t.oid]);
    const table = { schema: t.schema, name: t.name };
    const { rows: counted } = await client.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM ONLY ${qualified(table)}`,
    );
    tables.push({
      ...table,
      oid: t.oid,
      columns: cols.map((c) => c.attname),
      rows: Number(counted[0].n),
      ...(t.parent && t.parent_schema && t.bound
        ? {
            partitionOf: {
              schema: t.parent_schema,
              name: t.parent,
              bound: t.bound,
              ...(await ownDefinitions(client, t.oid)),
            },
          }
        : {}),
    });
  }
  const sequences: BackupSequence[] = [];
  const { rows: owned } = await client.query<Omit<BackupSequence, 'value'>>(SEQUENCES_SQL);
  for (const s of owned) {
    const { rows } = await client.query<{ last_value: string; is_called: boolean }>(
      `SELECT last_value::text, is_called FROM ${qualified(s)}`,
    );
    sequences.push({ ...s, value: rows[0].is_called ? Number(rows[0].last_value) : 0 });
  }
  const { rows: version } = await client.query<{ server_version: string }>('SHOW server_version');
  const header: BackupHeader = {
    format: BACKUP_FORMAT_VERSION,
    appVersion: APP_VERSION,
    serverVersion: version[0].server_version,
    createdAt: new Date().toISOString(),
    migrations: migrations.rows.map((m) => ({ hash: m.hash, createdAt: Number(m.created_at) })),
    keyFingerprint,
    tables: tables.map(({ oid: _oid, ...t }) => t),
    sequences,
  };
  return header;
}

/** Flushes `file`'s data to disk (an fsync on a handle of its own: it syncs the file, not the handle). */
async function syncFile(file: string): Promise<void> {
  const handle = await fsp.open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Makes a rename in `dir` durable (fsync of the folder). Platforms that cannot sync a folder
 * (EISDIR, EINVAL, EPERM: Windows, some network file systems) are let be.
 */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await fsp.open(dir, 'r');
    await handle.sync();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EINVAL' && code !== 'EPERM') throw err;
  } finally {
    await handle?.close();
  }
}

/** Writes one table's COPY data, framed, into the gzip stream. Returns the rows COPY reported. */
async function copyTable(
  client: pg.ClientBase,
  table: BackupTable,
  gzip: zlib.Gzip,
  written: Promise<void>,
): Promise<number> {
  const columns = table.columns.map((c) => `"${c.replace(/"/g, '""')}"`).join(', ');
  const source = client.query(copyTo(`COPY ${qualified(table)} (${columns}) TO STDOUT`));
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      // A file that cannot be written ends the gzip stream: no 'drain' comes, `written` fails.
      if (gzip.destroyed) done(new BackupError('het bestand kon niet geschreven worden'));
      else if (gzip.write(chunk)) done();
      else Promise.race([once(gzip, 'drain'), written]).then(() => done(), done);
    },
  });
  await pipeline(source, new FrameWriter(), sink);
  return source.rowCount;
}

/**
 * Backs up every table of the app's schema into `file` in one snapshot (REPEATABLE READ, READ
 * ONLY): the header, then each table's COPY data, streamed through gzip into `file.tmp`, which is
 * synced to disk and renamed to `file` when complete (the folder synced after). Refuses an
 * existing `file` unless `force`. Throws BackupError.
 */
export async function createBackup(
  pool: pg.Pool,
  file: string,
  options: { keyFingerprint: string | null; force?: boolean; onTable?: (p: BackupProgress) => void },
): Promise<BackupSummary> {
  if (!options.force && fs.existsSync(file))
    throw new BackupError(
      `${file} bestaat al; kies een andere naam of gebruik --force om het te overschrijven.`,
    );
  const tmp = `${file}.tmp`;
  const unwritable = (err: NodeJS.ErrnoException) =>
    new BackupError(`${tmp} kan niet geschreven worden (${err.code ?? err.message}).`);
  // Only its owner may read the file (it holds personal data), as the key file; a folder that is
  // not there or not writable is said before anything is read.
  await fsp.rm(tmp, { force: true });
  const handle = await fsp.open(tmp, 'wx', 0o600).catch((err) => {
    throw unwritable(err);
  });
  const gzip = zlib.createGzip({ level: 1 });
  const written = pipeline(gzip, handle.createWriteStream());
  let fileFailure: NodeJS.ErrnoException | undefined;
  written.catch((err) => {
    fileFailure = err;
  });
  let client: pg.PoolClient | undefined;
  let broken = false;
  try {
    client = await pool.connect();
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await client.query(COPY_SETTINGS_SQL);
    const header = await describeDatabase(client, options.keyFingerprint);
    gzip.write(BACKUP_MAGIC);
    gzip.write(`${JSON.stringify(header)}\n`);
    for (const table of header.tables) {
      const rows = await copyTable(client, table, gzip, written);
      if (rows !== table.rows)
        throw new BackupError(`${table.name}: ${rows} rijen gekopieerd, ${table.rows} geteld.`);
      options.onTable?.({ table: table.name, rows });
    }
    gzip.end(BACKUP_END);
    await written;
    // Durable before 'Backup gemaakt': the data on disk before the rename, the rename in the
    // folder after it, so a power cut never leaves a truncated or empty file under `file`.
    await syncFile(tmp);
    await client.query('COMMIT');
    await fsp.rename(tmp, file);
    await syncDirectory(path.dirname(file));
    return { header, bytes: (await fsp.stat(file)).size };
  } catch (err) {
    broken = true;
    const failure = fileFailure;
    gzip.destroy();
    await written.catch(() => {});
    // No ROLLBACK: a COPY broken off half-way still holds the connection (pg-copy-streams' COPY TO
    // has no way to stop it), and a ROLLBACK queued behind it would wait forever. The connection
    // is closed instead (release(true)), which ends the read-only transaction on the server.
    await fsp.rm(tmp, { force: true });
    throw failure ? unwritable(failure) : err;
  } finally {
    client?.release(broken);
  }
}
