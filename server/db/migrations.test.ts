import { describe, expect, it } from 'vitest';
import { recordsPartition } from '../features/records/records.queries';
import { setupDatabaseMigratedTo } from '../test/migrations';
import { migrateDatabase } from './client';

// Migration 0009 turns records.raw from a jsonb object into text[] positioned by
// dataset_mappings.raw_columns: no stored value may get lost or moved to another column.
// Migration 0010 moves each dataset's records into a partition of its own.
const m = setupDatabaseMigratedTo(8);

describe('migrations 0009 (raw as text[]) and 0010 (records partitioned by dataset)', () => {
  it("keeps every stored raw value under its column, in its dataset's partition", async () => {
    const q = (text: string) => m.database.pool.query(text);
    await q(`INSERT INTO partners (id, name) VALUES ('p1', 'Partner')`);
    await q(`INSERT INTO datasets (id, partner_id, name) VALUES ('d1', 'p1', 'een'), ('d2', 'p1', 'twee')`);
    await q(`INSERT INTO dataset_mappings (dataset_id, headers) VALUES ('d1', '{email,naam,stad}')`);
    await q(`INSERT INTO addresses (email, domain) VALUES ('a@m.nl', 'm.nl'), ('b@m.nl', 'm.nl')`);
    await q(`INSERT INTO records (dataset_id, address_id, raw, attrs)
      SELECT 'd1', id, CASE email
        WHEN 'a@m.nl' THEN '{"email":"a@m.nl","naam":"Anna","stad":"Ede"}'::jsonb
        ELSE '{"email":"b@m.nl","naam":null,"oud":"x, \\"y\\"","tel__bi":"ab"}'::jsonb END, '{}'
      FROM addresses`);
    // A dataset with records but no mapping row.
    await q(`INSERT INTO records (dataset_id, address_id, raw, attrs)
      SELECT 'd2', id, '{"E-mail":"A@M.NL"}'::jsonb, '{}' FROM addresses WHERE email = 'a@m.nl'`);

    await migrateDatabase(m.database);

    const columns = await q(`SELECT dataset_id, raw_columns FROM dataset_mappings ORDER BY dataset_id`);
    expect(columns.rows).toEqual([
      { dataset_id: 'd1', raw_columns: ['email', 'naam', 'stad', 'oud', 'tel__bi'] },
      { dataset_id: 'd2', raw_columns: ['E-mail'] },
    ]);
    const rows =
      await q(`SELECT r.dataset_id, a.email, r.raw FROM records r JOIN addresses a ON a.id = r.address_id
      ORDER BY r.dataset_id, a.email`);
    expect(rows.rows).toEqual([
      { dataset_id: 'd1', email: 'a@m.nl', raw: ['a@m.nl', 'Anna', 'Ede', null, null] },
      { dataset_id: 'd1', email: 'b@m.nl', raw: ['b@m.nl', null, null, 'x, "y"', 'ab'] },
      { dataset_id: 'd2', email: 'a@m.nl', raw: ['A@M.NL'] },
    ]);
    // One partition per dataset, named as the app names it, holding that dataset's records only,
    // with its primary key on address_id as its one index.
    const partitions = await q(`
      SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound,
        (SELECT array_agg(pg_get_indexdef(x.indexrelid)) FROM pg_index x WHERE x.indrelid = c.oid) AS indexes,
        (SELECT count(*)::int FROM records r WHERE r.tableoid = c.oid) AS n
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'records'::regclass ORDER BY bound`);
    expect(partitions.rows).toEqual([
      {
        name: recordsPartition('d1'),
        bound: "FOR VALUES IN ('d1')",
        indexes: [expect.stringMatching(/UNIQUE INDEX .* USING btree \(address_id\)$/)],
        n: 2,
      },
      {
        name: recordsPartition('d2'),
        bound: "FOR VALUES IN ('d2')",
        indexes: [expect.stringMatching(/UNIQUE INDEX .* USING btree \(address_id\)$/)],
        n: 1,
      },
    ]);
    expect((await q(`SELECT to_regclass('records_unpartitioned') AS t`)).rows[0].t).toBeNull();
  });
});
