import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../db/client';
import { setupDatabaseMigratedTo } from '../../test/migrations';
import { caseCollation } from '../selections/compile-context';
import { rebuildSelRecords } from '../selections/sel-record.sql';
import { insertWorld, makeWorld } from '../selections/world.test-helpers';
import { selCountDriftSql } from './sel-count.sql';

// Migration 0029 counts the narrow rows already there into sel_count, and from then on its
// triggers keep the counters equal to the rows whatever writes them.
const m = setupDatabaseMigratedTo(28);

describe('migration 0029 (sel_count)', () => {
  it('counts the rows of a database built before it, and its triggers follow every write after', async () => {
    const db = m.database.db;
    await insertWorld(db, makeWorld(5));
    const collation = await caseCollation(db);
    await rebuildSelRecords(m.database, collation);
    await migrateDatabase(m.database);
    const drift = async () => (await db.execute(selCountDriftSql())).rows;
    const total = async () =>
      Number(((await db.execute(sql`SELECT sum(n)::int AS n FROM sel_count`)).rows[0] as { n: number }).n);
    expect(await drift()).toEqual([]);
    expect(await total()).toBeGreaterThan(0);

    // A rebuild (a TRUNCATE, then inserts), changed rows, moved and deleted rows.
    await rebuildSelRecords(m.database, collation);
    expect(await drift()).toEqual([]);
    await db.execute(sql`UPDATE sel_record SET clicked = NOT clicked, partner_blocked = NOT partner_blocked
      WHERE address_id % 3 = 0`);
    await db.execute(sql`UPDATE sel_record SET multi = NOT multi WHERE address_id % 5 = 0`);
    await db.execute(sql`UPDATE sel_multi SET p2_partner_blocked = NOT p2_partner_blocked, sent_count = sent_count + 1
      WHERE address_id % 2 = 0`);
    await db.execute(sql`DELETE FROM sel_multi WHERE address_id % 7 = 0`);
    await db.execute(sql`DELETE FROM sel_record WHERE address_id % 11 = 0`);
    expect(await drift()).toEqual([]);
    await db.execute(sql`TRUNCATE sel_record`);
    expect(await drift()).toEqual([]);
    await db.execute(sql`TRUNCATE sel_multi`);
    expect(await total()).toBe(0);
  });
});
