import { once } from 'node:events';
import fs from 'node:fs';
import { finished } from 'node:stream/promises';
import zlib from 'node:zlib';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { migrationsFolder, withClientTransaction } from '../../db/client';
import {
  BACKUP_END,
  BackupFileError,
  type BackupHeader,
  BackupReader,
  COPY_SETTINGS_SQL,
  ident,
  qualified,
  readHeader,
} from './backup-format';

/** Thrown when a restore is refused or fails; its message (Dutch) is for the operator. */
export class RestoreError extends Error {}

/** The Dutch messages of a restore's refusals and warnings. */
export const RestoreMessages = {
  notEmpty:
    'De database is niet leeg. Terugzetten kan alleen in een lege database: een nieuwe DATA_DIR, ' +
    'of een nieuwe, lege database achter DATABASE_URL.',
  unknownMigration: (version: string) =>
    `Deze backup is gemaakt door Lijstwerk ${version} met migraties die deze versie niet kent. ` +
    'Zet hem terug met die (of een nieuwere) versie.',
  keyMismatch:
    'De sleutel voor versleutelde kolommen is een andere dan die van de backup: versleutelde ' +
    'waarden zouden onleesbaar zijn. Zet de sleutel van de backup terug (ENCRYPTION_KEY of ' +
    'DATA_DIR/encryption.key), of gebruik --force om toch terug te zetten.',
  keyMissing: (keyFile: string) =>
    'Er is geen sleutel voor versleutelde kolommen (ENCRYPTION_KEY of ' +
    `${keyFile}): versleutelde waarden zijn niet leesbaar tot de sleutel van de backup daar staat. ` +
    'Zet hem daar voordat de app start; anders maakt de app een nieuwe, verkeerde sleutel.',
  backupWithoutKey:
    'De backup is gemaakt zonder sleutel voor versleutelde kolommen; als er versleutelde waarden ' +
    'in staan, zijn die alleen leesbaar met de sleutel die toen in gebruik was.',
  noSuperuser:
    'Terugzetten vereist een superuser-rol op de database, of een rol die session_replication_role ' +
    'mag zetten (GRANT SET ON PARAMETER session_replication_role TO <rol>, PostgreSQL 15+): ' +
    'triggers en verwijzingen staan uit tijdens het laden.',
  damaged: (detail: string) =>
    `Het backupbestand is beschadigd of onvolledig (${detail}); er is niets teruggezet.`,
};

// What a backup may say about a dataset's records table, which restore makes from the header's
// own SQL: only the shapes backup writes (createDetachedPartition's table), so that a file that was
// altered runs no other statement with the restore's superuser rights.
const QUOTED = "'(?:[^']|'')*'";
const PARTITION_NAME = /^records_[0-9a-f]{32}$/;
const PARTITION_BOUND = new RegExp(`^FOR VALUES IN \\(${QUOTED}\\)$`);
const PARTITION_CONSTRAINT = new RegExp(
  `^CONSTRAINT "?[a-z0-9_]+"? (PRIMARY KEY \\(address_id\\)|CHECK \\(\\(dataset_id = ${QUOTED}::text\\)\\))$`,
);
const PARTITION_INDEX =
  /^CREATE (UNIQUE )?INDEX "?[a-z0-9_]+"? ON (ONLY )?public\.records_[0-9a-f]{32} USING [a-z]+ \([a-z0-9_, ()]+\)$/;

/** The header's way to make a dataset's records table; throws RestoreError for any other SQL. */
function checkedPartition(table: BackupHeader['tables'][number]) {
  const p = table.partitionOf;
  if (!p) return undefined;
  const ok =
    table.schema === 'public' &&
    PARTITION_NAME.test(table.name) &&
    p.schema === 'public' &&
    p.name === 'records' &&
    PARTITION_BOUND.test(p.bound) &&
    p.constraints.every((c) => PARTITION_CONSTRAINT.test(c)) &&
    p.indexes.every((i) => PARTITION_INDEX.test(i));
  if (!ok) throw new RestoreError(RestoreMessages.damaged(`tabel ${table.name}: onbekende definitie`));
  return p;
}

/**
 * Throws RestoreError for a table or sequence of the header outside the app's schema (public): a
 * restore empties and loads each table it names, with superuser rights, so an altered file could
 * otherwise empty drizzle's journal or a catalog.
 */
function checkSchemas(header: BackupHeader): void {
  for (const t of header.tables)
    if (t.schema !== 'public')
      throw new RestoreError(RestoreMessages.damaged(`${t.schema}.${t.name}: geen tabel van Lijstwerk`));
  for (const s of header.sequences)
    if (s.schema !== 'public')
      throw new RestoreError(RestoreMessages.damaged(`${s.schema}.${s.name}: geen reeks van Lijstwerk`));
}

/** Opens a backup file as a reader over its decompressed bytes. */
export function openBackup(file: string): BackupReader {
  const gunzip = zlib.createGunzip();
  const source = fs.createReadStream(file);
  source.on('error', (err) => gunzip.destroy(err));
  // The reader's async iterator listens for errors only from its first read: an error before that
  // (a missing file, a damaged gzip) would be unhandled. The iterator still throws it, as the
  // stream keeps it (`errored`).
  gunzip.on('error', () => {});
  source.pipe(gunzip);
  return new BackupReader(gunzip, () => {
    source.destroy();
    gunzip.destroy();
  });
}

/** Turns a read failure (a damaged or truncated file, gzip's checksum) into RestoreError. */
function fileError(err: unknown): unknown {
  if (err instanceof BackupFileError) return new RestoreError(RestoreMessages.damaged(err.message));
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT')
    return new RestoreError(`Het bestand ${(err as { path?: string }).path} bestaat niet.`);
  if (typeof code === 'string' && code.startsWith('Z_'))
    return new RestoreError(
      RestoreMessages.damaged(code === 'Z_BUF_ERROR' ? 'het houdt halverwege op' : 'gzip'),
    );
  // A folder, or a file this user may not read (EISDIR, EACCES).
  const syscall = (err as NodeJS.ErrnoException | undefined)?.syscall;
  if (code && (syscall === 'open' || syscall === 'read'))
    return new RestoreError(`Het backupbestand kan niet gelezen worden (${code}).`);
  return err;
}

/** Reads a backup's header; throws RestoreError when the file is none or cannot be read. */
export async function readBackupHeader(file: string): Promise<BackupHeader> {
  const reader = openBackup(file);
  try {
    return await readHeader(reader);
  } catch (err) {
    throw fileError(err);
  } finally {
    reader.close();
  }
}

/**
 * The warnings of a restore about the column key, or a RestoreError when the current key differs
 * from the backup's (unless `force`). `current` is the fingerprint of the key in place, null when none.
 */
export function checkKey(
  header: BackupHeader,
  current: string | null,
  keyFile: string,
  force = false,
): string[] {
  if (header.keyFingerprint === null) return [RestoreMessages.backupWithoutKey];
  if (current === null) return [RestoreMessages.keyMissing(keyFile)];
  if (current !== header.keyFingerprint && !force) throw new RestoreError(RestoreMessages.keyMismatch);
  return current === header.keyFingerprint ? [] : [`Let op: ${RestoreMessages.keyMismatch}`];
}

/**
 * The app's migrations up to the backup's and after it; throws RestoreError unless the backup's
 * are the app's first ones. A migration is known by its journal timestamp, as drizzle's migrator
 * (migrateDatabase) tells applied from new ones.
 */
function splitMigrations(header: BackupHeader) {
  const known = readMigrationFiles({ migrationsFolder });
  const ok =
    header.migrations.length <= known.length &&
    header.migrations.every((m, i) => known[i].folderMillis === m.createdAt);
  if (!ok) throw new RestoreError(RestoreMessages.unknownMigration(header.appVersion));
  return {
    upToBackup: known.slice(0, header.migrations.length),
    after: known.slice(header.migrations.length),
  };
}

async function applyMigrations(client: pg.ClientBase, migrations: ReturnType<typeof readMigrationFiles>) {
  // As drizzle's migrator does (migrateDatabase), inside this transaction.
  await client.query('CREATE SCHEMA IF NOT EXISTS drizzle');
  await client.query(
    'CREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)',
  );
  for (const m of migrations) {
    for (const statement of m.sql) await client.query(statement);
    await client.query('INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ($1, $2)', [
      m.hash,
      m.folderMillis,
    ]);
  }
}

/** Whether the connected database holds no relation of its own (a fresh one). */
export async function isEmptyDatabase(client: pg.ClientBase): Promise<boolean> {
  const { rows } = await client.query<{ n: number }>(`
    SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
      AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'`);
  return rows[0].n === 0;
}

/** Loads one table's frames with COPY FROM; returns the rows COPY reported. */
async function loadTable(client: pg.ClientBase, reader: BackupReader, columns: string[], target: string) {
  const sink = client.query(copyFrom(`COPY ${target} (${columns.map(ident).join(', ')}) FROM STDIN`));
  let failed: Error | undefined;
  sink.on('error', (err: Error) => {
    failed = err;
  });
  try {
    for (let frame = await reader.frame(); frame; frame = await reader.frame()) {
      if (failed) break;
      // once() rejects when the stream fails while it waits, and leaves no listener behind.
      if (!sink.write(frame)) await once(sink, 'drain');
    }
  } catch (err) {
    sink.destroy(err as Error);
    throw err;
  }
  if (failed) throw failed;
  sink.end();
  await finished(sink);
  return sink.rowCount;
}

/**
 * Restores a backup into the EMPTY database of `pool`, in one transaction: the backup's migrations,
 * every table's rows (triggers and foreign keys off: session_replication_role = replica), the
 * sequences, then the app's newer migrations. Checks the row counts and the file's end; on any
 * failure nothing is left. Throws RestoreError with a Dutch message.
 */
export async function restoreBackup(
  pool: pg.Pool,
  file: string,
  options: { onTable?: (p: { table: string; rows: number }) => void } = {},
): Promise<BackupHeader> {
  const reader = openBackup(file);
  try {
    const header = await readHeader(reader).catch((err) => {
      throw fileError(err);
    });
    checkSchemas(header);
    const { upToBackup, after } = splitMigrations(header);
    return await withClientTransaction({ pool }, async (_tx, client) => {
      await client.query(COPY_SETTINGS_SQL);
      await client.query('SELECT pg_advisory_xact_lock(727001)');
      if (!(await isEmptyDatabase(client))) throw new RestoreError(RestoreMessages.notEmpty);
      await applyMigrations(client, upToBackup);
      await client.query('SET LOCAL session_replication_role = replica').catch((err) => {
        throw err?.code === '42501' ? new RestoreError(RestoreMessages.noSuperuser) : err;
      });
      for (const table of header.tables) {
        const target = qualified(table);
        const { rows } = await client.query('SELECT to_regclass($1) AS oid', [target]);
        const partition = rows[0].oid === null ? checkedPartition(table) : undefined;
        if (partition) {
          // As a first import makes a dataset's table: filled first, then given its constraints
          // and indexes (one sorted build each), then attached.
          await client.query(`CREATE TABLE ${target} (LIKE ${qualified(partition)} INCLUDING DEFAULTS)`);
        } else if (rows[0].oid === null) {
          throw new RestoreError(RestoreMessages.damaged(`tabel ${table.name} bestaat niet in deze versie`));
        } else {
          // Rows the migrations made (defaults) give way to the backup's.
          await client.query(`DELETE FROM ONLY ${target}`);
        }
        const loaded = await loadTable(client, reader, table.columns, target).catch((err) => {
          throw fileError(err);
        });
        if (loaded !== table.rows)
          throw new RestoreError(
            RestoreMessages.damaged(`${table.name}: ${loaded} rijen in plaats van ${table.rows}`),
          );
        if (partition) {
          for (const def of partition.constraints) await client.query(`ALTER TABLE ${target} ADD ${def}`);
          for (const def of partition.indexes) await client.query(def);
          await client.query(
            `ALTER TABLE ${qualified(partition)} ATTACH PARTITION ${target} ${partition.bound}`,
          );
        }
        options.onTable?.({ table: table.name, rows: loaded });
      }
      try {
        const end = await reader.read(Buffer.byteLength(BACKUP_END));
        if (end.toString('latin1') !== BACKUP_END) throw new BackupFileError('het einde ontbreekt');
        await reader.expectEnd();
      } catch (err) {
        throw fileError(err);
      }
      for (const s of header.sequences) {
        const { rows } = await client.query<{ max: string | null }>(
          `SELECT max(${ident(s.column)})::text AS max FROM ${ident(s.schema)}.${ident(s.table)}`,
        );
        const value = Math.max(s.value, Number(rows[0].max ?? 0));
        await client.query('SELECT setval($1::regclass, $2, $3)', [
          qualified(s),
          Math.max(value, 1),
          value > 0,
        ]);
      }
      await client.query('SET LOCAL session_replication_role = origin');
      await applyMigrations(client, after);
      return header;
    });
  } finally {
    reader.close();
  }
}
