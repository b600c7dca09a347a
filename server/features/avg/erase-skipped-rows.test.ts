import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app';
import { columnMapping, importFile, setupDataset } from '../../test/imports';
import { caseCollation } from '../selections/compile-context';
import { skippedEmailSql } from './erase.queries';

// An erasure deletes the import skipped rows holding the address in any letter case, non-ASCII
// capitals too: the field as in the file ('ÉMILE…') is folded as normalizeEmail folds it, on a
// server with locale C (the embedded database) as on one with a full locale, through an index.

const t = setupTestApp({ role: 'staff' });

const IN_FILE = ' ÉMILE.ÇÀ@Voorbeeld.NL';
const STORED = 'émile.çà@voorbeeld.nl';

async function skippedWith(value: string): Promise<number> {
  const { rows } = await t.db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM import_skipped_rows WHERE email = ${value}`,
  );
  return rows[0].n;
}

describe('an erasure and the skipped rows', () => {
  it('deletes a skipped row whose e-mail has non-ASCII capitals', async () => {
    const s = await setupDataset(t, [columnMapping('voornaam', 'voornaam')]);
    // The repeat is skipped and kept with its e-mail as in the file.
    await importFile(t, t.cookie, s, `email,voornaam\n"${IN_FILE}",Émile\n"${IN_FILE}",Émile\n`);
    expect(await skippedWith(IN_FILE)).toBe(1);
    const res = await t.api('POST', '/api/avg/erase', { email: STORED.toUpperCase() });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ newlyErased: true, records: 1, skippedRows: 1 });
    expect(await skippedWith(IN_FILE)).toBe(0);
  });

  it('finds those rows through the index', async () => {
    const folded = skippedEmailSql(await caseCollation(t.db));
    const plan = await t.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const { rows } = await tx.execute<{ 'QUERY PLAN': string }>(
        sql`EXPLAIN SELECT 1 FROM import_skipped_rows WHERE email IS NOT NULL AND ${folded} = ${STORED}`,
      );
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('import_skipped_rows_email_idx');
  });
});
