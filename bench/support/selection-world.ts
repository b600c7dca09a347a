import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../server/db/client';

// The world of the selection benchmarks (bench/selection.ts, bench/counts.ts), generated with SQL:
// N addresses and 1.25·N records over D datasets with realistic attributes (postcode, gender, birth
// date, city, income class) and engagement (a third of the addresses with results), blacklists (1%
// of the addresses by e-mail, 10% of 50,000 domains, partner entries), 3 Definitief/Aangeboden
// mailings in the week and a 100,000-row line file.

/**
 * Generates the world of `addresses` addresses over `datasets` datasets into the migrated, empty
 * database `db`, each step timed by `timed` (a label and the step; it prints the time).
 */
export async function generateSelectionWorld(
  db: Db,
  addresses: number,
  datasets: number,
  timed: <T>(label: string, work: () => Promise<T>) => Promise<T>,
): Promise<void> {
  const N = addresses;
  const DATASETS = datasets;
  await timed('datasets and partitions', async () => {
    await db.execute(
      sql.raw(`
    INSERT INTO partners (id, name) SELECT 'p' || i, 'Partner ' || i FROM generate_series(1, 50) i;
    INSERT INTO labels (name) VALUES ('lifestyle'), ('b2b'), ('senioren') ON CONFLICT DO NOTHING;
    INSERT INTO datasets (id, partner_id, name, description, types, active, sort, config)
    SELECT 'ds' || i, 'p' || (1 + i % 50), 'bestand' || i, 'Bestand ' || i,
      CASE i % 3 WHEN 0 THEN ARRAY['lifestyle'] WHEN 1 THEN ARRAY['b2b'] ELSE ARRAY['lifestyle', 'senioren'] END,
      i % 10 <> 0, (i * 7919) % 100, '{}'
    FROM generate_series(1, ${DATASETS}) i;`),
    );
    for (let i = 1; i <= DATASETS; i++) {
      const part = `records_${crypto.createHash('md5').update(`ds${i}`).digest('hex')}`;
      await db.execute(sql.raw(`CREATE TABLE "${part}" (LIKE records INCLUDING DEFAULTS)`));
    }
  });
  await timed('addresses', () =>
    db.execute(
      sql.raw(`
    INSERT INTO addresses (email, domain, sent_count, last_open_at, last_click_at, hard_bounced_at, os,
      open_interests, click_interests)
    SELECT 'u' || g || '@' || d, d, (h % 6)::int,
      CASE WHEN h % 100 < 25 THEN now() - (h % 300) * interval '1 day' END,
      CASE WHEN h % 100 < 8 THEN now() - (h % 200) * interval '1 day' END,
      CASE WHEN h % 100 = 99 THEN now() END,
      CASE WHEN h % 3 = 0 THEN ARRAY['ios'] WHEN h % 3 = 1 THEN ARRAY['android'] ELSE '{}' END,
      CASE WHEN h % 100 < 25 THEN ARRAY[(ARRAY['auto','reizen','sport','wonen'])[1 + h % 4]] ELSE '{}' END,
      CASE WHEN h % 100 < 8 THEN ARRAY[(ARRAY['auto','reizen','sport','wonen'])[1 + (h / 7) % 4]] ELSE '{}' END
    FROM (SELECT g, abs(hashint8(g)) AS h,
            CASE WHEN g % 10 < 4 THEN (ARRAY['gmail.com','hotmail.com','ziggo.nl','kpn.nl'])[1 + g % 4]
                 ELSE 'domein' || (abs(hashint8(g * 31)) % 50000) || '.nl' END AS d
          FROM generate_series(1, ${N}) g) s`),
    ),
  );
  await timed('records (1.25 per address)', async () => {
    // 80% of the addresses in one dataset, 15% in two, 5% in three.
    await db.execute(
      sql.raw(`
    CREATE UNLOGGED TABLE bench_records AS
    SELECT 'ds' || (1 + (abs(hashint8(a.id * k)) % ${DATASETS})) AS dataset_id, a.id AS address_id,
      jsonb_build_object(
        'postcode', (1000 + abs(hashint8(a.id)) % 9000) || chr(65 + (a.id % 26)::int) || chr(65 + (a.id / 26 % 26)::int),
        'pc4', (1000 + abs(hashint8(a.id)) % 9000)::text,
        'gender', CASE WHEN a.id % 2 = 0 THEN 'M' ELSE 'V' END,
        'birthDate', to_char(date '1940-01-01' + (abs(hashint8(a.id * 3)) % 25000)::int, 'YYYY-MM-DD') || ' 00:00:00',
        'city', (ARRAY['Amsterdam','Rotterdam','Den Haag','Utrecht','Eindhoven','Groningen','Tilburg','Almere','Breda','Nijmegen'])[1 + abs(hashint8(a.id * 5)) % 10],
        'income', (1 + abs(hashint8(a.id * 7)) % 5)::text) AS attrs
    FROM addresses a, generate_series(1, 3) k
    WHERE k = 1 OR (k = 2 AND a.id % 20 < 4) OR (k = 3 AND a.id % 20 = 4)`),
    );
    // Each partition reads its own rows by this index: without it every one of the D inserts read
    // all 1.25·N rows (D·1.25·N rows in all, most of the generation's time from 1M up).
    await db.execute(sql.raw('CREATE INDEX ON bench_records (dataset_id, address_id)'));
    for (let i = 1; i <= DATASETS; i++) {
      const part = `records_${crypto.createHash('md5').update(`ds${i}`).digest('hex')}`;
      await db.execute(
        sql.raw(`INSERT INTO "${part}" (dataset_id, address_id, raw, attrs)
      SELECT DISTINCT ON (address_id) dataset_id, address_id, '{}', attrs FROM bench_records
      WHERE dataset_id = 'ds${i}' ORDER BY address_id`),
      );
      await db.execute(
        sql.raw(`ALTER TABLE "${part}" ADD PRIMARY KEY (address_id);
      ALTER TABLE records ATTACH PARTITION "${part}" FOR VALUES IN ('ds${i}')`),
      );
    }
    await db.execute(sql.raw('DROP TABLE bench_records'));
  });
  await timed('blacklists, mailings and a line file', () =>
    db.execute(
      sql.raw(`
    INSERT INTO blacklist_emails (email) SELECT email FROM addresses WHERE id % 100 = 42;
    INSERT INTO blacklist_domains (domain) SELECT 'domein' || i || '.nl' FROM generate_series(0, 4999) i;
    INSERT INTO partner_blacklist (partner_id, dataset_name, email)
      SELECT d.partner_id, d.name, a.email FROM records r JOIN datasets d ON d.id = r.dataset_id
      JOIN addresses a ON a.id = r.address_id WHERE a.id % 1000 = 7;
    INSERT INTO campaigns (id, name, type) VALUES ('cb', 'Bench', 'lifestyle'), ('co', 'Ander', NULL);
    INSERT INTO mailings (id, campaign_id, name, state, planned_send) VALUES
      ('mb', 'cb', 'Bench', 'draft', '2026-11-25 10:00+01'),
      ('f1', 'co', 'Def 1', 'final', '2026-11-24 10:00+01'),
      ('f2', 'co', 'Def 2', 'final', '2026-11-26 10:00+01'),
      ('f3', 'co', 'Def 3', 'offered', '2026-11-27 10:00+01');
    INSERT INTO selections (id, mailing_id, campaign_id) VALUES ('sb', 'mb', 'cb'), ('s1', 'f1', 'co'), ('s2', 'f2', 'co'), ('s3', 'f3', 'co');
    INSERT INTO mailing_addresses (mailing_id, address_id, dataset_id, selection_id, category)
      SELECT 'f' || k, r.address_id, r.dataset_id, 's' || k, 'new'
      FROM generate_series(1, 3) k, LATERAL (SELECT DISTINCT ON (address_id) address_id, dataset_id FROM records
        WHERE address_id % 97 = k ORDER BY address_id LIMIT ${Math.min(100_000, Math.floor(N / 20))}) r;
    INSERT INTO selection_files (selection_id, line_id, name, columns)
      VALUES ('sb', 'bench', 'klanten.csv', '[{"field":"email","name":"gen_id","base":"id"}]');
    INSERT INTO selection_file_rows (selection_id, line_id, vals)
      SELECT 'sb', 'bench', ARRAY[email] FROM addresses WHERE id % ${Math.max(1, Math.floor(N / 100_000))} = 0 LIMIT 100000;
    ANALYZE;`),
    ),
  );
}
