import path from 'node:path';
import pg from 'pg';
import { normalizeEmail } from '../../common/email';
import { suppressionHash } from '../../server/features/avg/suppression';
import { loadColumnKeys } from '../../server/lib/crypto';
import type { BenchDatabase } from './database';

/**
 * Marks `emails` erased (AVG art. 17) on a benchmark's database as an erasure leaves them: the keyed
 * hash of each normalised address in avg_suppressions, with the column key of the bench server's
 * data directory (call it once the server made that key). Returns how many were stored.
 */
export async function storeSuppressions(bench: BenchDatabase, emails: string[]): Promise<number> {
  const keys = loadColumnKeys(path.join(bench.work, 'app'));
  const hashes = [...new Set(emails.map((e) => normalizeEmail(e)).filter((e) => e !== null))].map((e) =>
    suppressionHash(keys, e),
  );
  const client = new pg.Client({ connectionString: bench.url });
  await client.connect();
  try {
    const stored = await client.query(
      'INSERT INTO avg_suppressions (hash) SELECT unnest($1::bytea[]) ON CONFLICT DO NOTHING',
      [hashes],
    );
    await client.query('ANALYZE avg_suppressions');
    return stored.rowCount ?? 0;
  } finally {
    await client.end();
  }
}
