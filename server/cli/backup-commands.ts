import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { BackupError, createBackup } from '../features/backup/backup';
import { BackupKeyMessages, verifyColumnKey } from '../features/backup/backup-key';
import { checkKey, RestoreError, readBackupHeader, restoreBackup } from '../features/backup/restore';
import { COLUMN_KEY_FILE, columnKeyFingerprint, readColumnKey } from '../lib/crypto';
import { CliError, openAppDatabase } from './cli-support';

/** The help text of the backup and restore commands. */
export const BACKUP_HELP = `
  backup <bestand>
                Maakt een backup van alle gegevens in een bestand (gzip), in een momentopname;
                met DATABASE_URL kan dat terwijl de app draait.
      --force                   overschrijft een bestaand bestand, en maakt de backup ook als de
                                sleutel de versleutelde waarden niet ontsleutelt (dan zonder
                                vingerafdruk van de sleutel)
  restore <bestand>
                Zet een backup terug in een LEGE database: een nieuwe DATA_DIR, of een nieuwe,
                lege database achter DATABASE_URL (als superuser). Alles of niets.
      --force                   zet ook terug als de sleutel een andere is dan die van de backup

  De sleutel voor versleutelde kolommen (ENCRYPTION_KEY of DATA_DIR/${COLUMN_KEY_FILE}) zit NIET in de
  backup: bewaar hem apart. Zonder die sleutel zijn versleutelde waarden niet meer leesbaar. Een backup
  probeert de sleutel op een versleutelde waarde in de database en weigert een sleutel die niet past.
`;

/** The configured column key, its fingerprint and where it lives; fingerprint null when there is none. */
function currentKey(): { key: Buffer | undefined; fingerprint: string | null; where: string } {
  const config = loadConfig();
  const where = config.encryptionKey ? 'ENCRYPTION_KEY' : path.join(config.dataDir, COLUMN_KEY_FILE);
  let key: Buffer | undefined;
  try {
    key = readColumnKey(config.dataDir, config.encryptionKey);
  } catch (err) {
    throw new CliError(`${where}: ${err instanceof Error ? err.message : err}`);
  }
  return { key, fingerprint: key ? columnKeyFingerprint(key) : null, where };
}

function fileArgument(args: string[], command: string): { file: string; force: boolean } {
  const { values, positionals } = parseArgs({
    args,
    options: { force: { type: 'boolean' } },
    allowPositionals: true,
  });
  if (positionals.length !== 1) throw new CliError(`Gebruik: npm run cli -- ${command} <bestand> [--force]`);
  return { file: path.resolve(positionals[0]), force: values.force === true };
}

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** `backup <file> [--force]`: writes the backup and prints each table's rows and a summary. */
export async function runBackup(args: string[]): Promise<void> {
  const { file, force } = fileArgument(args, 'backup');
  const key = currentKey();
  const app = await openAppDatabase({ existing: true });
  const started = performance.now();
  try {
    // The fingerprint goes in only when the key decrypts the data: the CLI's environment need not
    // hold the running app's key, and a restore trusts the fingerprint.
    let keyFingerprint = key.fingerprint;
    const verdict = await verifyColumnKey(app.database.pool, key.key);
    if (verdict === 'wrong-key') {
      if (!force) throw new CliError(BackupKeyMessages.wrongKey(key.where));
      console.warn(`Waarschuwing: ${BackupKeyMessages.wrongKeyForced(key.where)}`);
      keyFingerprint = null;
    } else if (verdict === 'no-key') {
      console.warn(`Waarschuwing: ${BackupKeyMessages.noKey(key.where)}`);
    } else if (!key.key) {
      console.warn(`Waarschuwing: ${BackupKeyMessages.noKeyNoValues(key.where)}`);
    }
    const { header, bytes } = await createBackup(app.database.pool, file, {
      keyFingerprint,
      force,
      onTable: ({ table, rows }) => console.log(`  ${table}: ${rows} rijen`),
    });
    const rows = header.tables.reduce((sum, t) => sum + t.rows, 0);
    console.log(
      `Backup gemaakt: ${file} (${header.tables.length} tabellen, ${rows} rijen, ${megabytes(bytes)} MB) in ${seconds(started)} s.`,
    );
    console.log(
      `De sleutel voor versleutelde kolommen zit niet in de backup: bewaar ${key.where} apart, bij de backup.`,
    );
  } catch (err) {
    if (err instanceof BackupError) throw new CliError(err.message);
    throw err;
  } finally {
    await app.close();
  }
}

/** `restore <file> [--force]`: checks the file and the key, restores, prints each table's rows and a summary. */
export async function runRestore(args: string[]): Promise<void> {
  const { file, force } = fileArgument(args, 'restore');
  try {
    const header = await readBackupHeader(file);
    const key = currentKey();
    for (const warning of checkKey(header, key.fingerprint, key.where, force))
      console.warn(`Waarschuwing: ${warning}`);
    const app = await openAppDatabase();
    const started = performance.now();
    try {
      await restoreBackup(app.database.pool, file, {
        onTable: ({ table, rows }) => console.log(`  ${table}: ${rows} rijen`),
      });
      // The header's fingerprint was checked above; the restored values themselves tell too (a
      // backup made with --force, or before the key was checked, has no or a wrong fingerprint).
      const verdict = await verifyColumnKey(app.database.pool, key.key);
      if (verdict === 'wrong-key')
        console.warn(`Waarschuwing: ${BackupKeyMessages.restoredWrongKey(key.where)}`);
      if (verdict === 'no-key') console.warn(`Waarschuwing: ${BackupKeyMessages.restoredNoKey(key.where)}`);
    } finally {
      await app.close();
    }
    const rows = header.tables.reduce((sum, t) => sum + t.rows, 0);
    console.log(
      `Backup van ${header.createdAt} (Lijstwerk ${header.appVersion}) teruggezet: ` +
        `${header.tables.length} tabellen, ${rows} rijen in ${seconds(started)} s.`,
    );
  } catch (err) {
    if (err instanceof RestoreError) throw new CliError(err.message);
    throw err;
  }
}
