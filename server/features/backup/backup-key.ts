import type pg from 'pg';
import { CIPHERTEXT_PREFIX, deriveColumnKeys, tryDecryptValue } from '../../lib/crypto';

// Whether the column key the CLI finds is the one the data was encrypted with. The CLI reads the
// key from its own environment (ENCRYPTION_KEY or DATA_DIR/encryption.key), which with
// DATABASE_URL need not be the running app's: a backup's key fingerprint is only written when the
// key decrypts a stored value, and a restore says so when the restored values do not decrypt.

/** The Dutch messages about the column key of a backup or restore; `where` names the key's place. */
export const BackupKeyMessages = {
  wrongKey: (where: string) =>
    `De sleutel in ${where} ontsleutelt de versleutelde waarden in deze database niet: dit is niet ` +
    'de sleutel van de app. Gebruik de sleutel van de app, of --force om toch een backup te maken ' +
    '(zonder vingerafdruk van de sleutel).',
  wrongKeyForced: (where: string) =>
    `De sleutel in ${where} ontsleutelt de versleutelde waarden in deze database niet: de backup ` +
    'krijgt geen vingerafdruk van de sleutel. Bewaar de sleutel van de app apart: zonder die ' +
    'sleutel zijn de versleutelde waarden in deze backup nooit meer leesbaar.',
  noKey: (where: string) =>
    `er is geen sleutel voor versleutelde kolommen (ENCRYPTION_KEY of ${where}), maar deze database ` +
    'bevat versleutelde waarden: die zijn na terugzetten alleen leesbaar met de sleutel van de app. ' +
    'Bewaar die sleutel apart, bij de backup; zonder hem zijn ze nooit meer leesbaar.',
  noKeyNoValues: (where: string) =>
    `er is geen sleutel voor versleutelde kolommen (ENCRYPTION_KEY of ${where}). ` +
    'Versleutelde waarden in deze backup zijn alleen leesbaar met de sleutel die de app gebruikte.',
  restoredWrongKey: (where: string) =>
    `De sleutel in ${where} ontsleutelt de versleutelde waarden in de teruggezette gegevens niet: ` +
    'ze zijn onleesbaar tot de sleutel waarmee ze versleuteld zijn in ENCRYPTION_KEY of ' +
    'DATA_DIR/encryption.key staat. Start de app niet met deze sleutel.',
  restoredNoKey: (where: string) =>
    'De teruggezette gegevens bevatten versleutelde waarden en er is geen sleutel voor versleutelde ' +
    `kolommen (ENCRYPTION_KEY of ${where}): zet de sleutel van de backup daar voordat de app start; ` +
    'anders maakt de app een nieuwe, verkeerde sleutel.',
};

/**
 * One stored encrypted value, or null when the database holds none. Encrypted values live in
 * records' attributes that a dataset's mapping marks encrypted (record-mapper.ts), so only those
 * datasets' records are read (their own partitions), one value each at most: a database whose
 * mappings encrypt nothing costs one query on dataset_mappings, whatever its records.
 */
export async function findEncryptedValue(db: pg.Pool | pg.ClientBase): Promise<string | null> {
  const { rows: columns } = await db.query<{ datasetId: string; name: string }>(
    `SELECT DISTINCT dm.dataset_id AS "datasetId", m->>'mapped' AS name
       FROM dataset_mappings dm, jsonb_array_elements(dm.mappings) m
      WHERE (m->>'encrypted')::boolean AND m->>'mapped' IS NOT NULL
      ORDER BY 1, 2`,
  );
  for (const { datasetId, name } of columns) {
    const { rows } = await db.query<{ value: string }>(
      `SELECT attrs->>$2 AS value FROM records
        WHERE dataset_id = $1 AND starts_with(attrs->>$2, $3) LIMIT 1`,
      [datasetId, name, CIPHERTEXT_PREFIX],
    );
    if (rows[0]) return rows[0].value;
  }
  return null;
}

/**
 * What the column key `master` (undefined: none) makes of the stored encrypted values: there are
 * none, it decrypts one, there is no key, or it does not decrypt one (another key).
 */
export type KeyVerdict = 'no-encrypted-values' | 'decrypts' | 'no-key' | 'wrong-key';

/** Tries the column key `master` on one stored encrypted value (findEncryptedValue). */
export async function verifyColumnKey(
  db: pg.Pool | pg.ClientBase,
  master: Buffer | undefined,
): Promise<KeyVerdict> {
  const value = await findEncryptedValue(db);
  if (value === null) return 'no-encrypted-values';
  if (!master) return 'no-key';
  return tryDecryptValue(deriveColumnKeys(master), value) === null ? 'wrong-key' : 'decrypts';
}
