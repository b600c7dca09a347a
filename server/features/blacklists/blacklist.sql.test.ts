import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app';
import { makeDataset, makePartner } from '../../test/factories';
import { blacklistedEverywhereSql, blacklistedSql, notBlacklistedSql } from './blacklist.sql';

const t = setupTestApp({ startWorker: false, session: false });

describe('blacklistedSql (the one definition of "blacklisted", DESIGN §6)', () => {
  it('excludes a partner-dataset entry from that one dataset only, and e-mail and domain entries from all', async () => {
    const db = t.db;
    const p = await makePartner(db);
    const q = await makePartner(db);
    const d1 = await makeDataset(db, p, { name: 'nieuwsbrief' });
    const d2 = await makeDataset(db, p, { name: 'acties' });
    const d3 = await makeDataset(db, q, { name: 'nieuwsbrief' });
    for (const email of ['pb@x.nl', 'em@x.nl', 'dom@spam.nl', 'vrij@x.nl'])
      await db.execute(sql`INSERT INTO addresses (email, domain) VALUES (${email}, ${email.split('@')[1]})`);
    await db.execute(
      sql`INSERT INTO partner_blacklist (partner_id, dataset_name, email) VALUES (${p}, 'nieuwsbrief', 'pb@x.nl')`,
    );
    await db.execute(sql`INSERT INTO blacklist_emails (email) VALUES ('em@x.nl')`);
    await db.execute(sql`INSERT INTO blacklist_domains (domain) VALUES ('spam.nl')`);

    const rows = await db.execute<{
      email: string;
      dataset: string;
      blacklisted: boolean;
      everywhere: boolean;
      allowed: boolean;
    }>(sql`
      SELECT a.email, d.id AS dataset, ${blacklistedSql('a', 'd')} AS blacklisted,
             ${blacklistedEverywhereSql('a')} AS everywhere, (${notBlacklistedSql('a', 'd')}) AS allowed
      FROM addresses a CROSS JOIN datasets d
      WHERE d.id IN (${d1}, ${d2}, ${d3})`);
    const blacklisted = (email: string) =>
      rows.rows
        .filter((r) => r.email === email && r.blacklisted)
        .map((r) => r.dataset)
        .sort();
    expect(blacklisted('pb@x.nl')).toEqual([d1]);
    expect(blacklisted('em@x.nl')).toEqual([d1, d2, d3].sort());
    expect(blacklisted('dom@spam.nl')).toEqual([d1, d2, d3].sort());
    expect(blacklisted('vrij@x.nl')).toEqual([]);
    expect(rows.rows.filter((r) => r.everywhere).map((r) => r.email)).not.toContain('pb@x.nl');
    // The anti-join form the selection counts use is its exact negation.
    for (const r of rows.rows) expect(r.allowed, `${r.email} ${r.dataset}`).toBe(!r.blacklisted);
  });

  it('refuses an alias that is not a plain SQL name', () => {
    expect(() => blacklistedSql('a; DROP TABLE x', 'd')).toThrow();
  });
});
