import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app';
import { partnerApiHelpers } from './partner-api.test-helpers';

// Partner API writes do their work in a few slots at once (PARTNER_API_WRITE_SLOTS). With one
// slot: a write that waits for its dataset's lock (an import of that dataset) holds no slot, so
// writes to other datasets go on; and writes to many datasets at once all finish, each stored.

const t = setupTestApp({ session: false, config: { partnerApiWriteSlots: 1 } });
const { keyedDataset, call } = partnerApiHelpers(t);

describe('partner API write slots', () => {
  it('a write waiting for its dataset’s lock holds no slot; the others go on', {
    timeout: 20_000,
  }, async () => {
    const a = await keyedDataset();
    const b = await keyedDataset();
    // An import of a holds a's row lock (as beginDatasetWrite takes it) until it ends.
    const importer = await t.database.pool.connect();
    try {
      await importer.query('BEGIN');
      await importer.query('SELECT id FROM datasets WHERE id = $1 FOR UPDATE', [a.id]);
      let aDone = false;
      const writeA = call(a.key, 'POST', '/partnerlist/upsert', [
        { email: 'wacht@example.nl', voornaam: 'A' },
      ]).then((res) => {
        aDone = true;
        return res;
      });
      // a's write waits for the lock (seen in pg_stat_activity); b's write needs the one slot and gets it.
      const waiting = async () =>
        (
          await importer.query(
            `SELECT count(*)::int AS n FROM pg_stat_activity
             WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          )
        ).rows[0].n as number;
      for (let i = 0; i < 200 && (await waiting()) === 0; i++) await new Promise((r) => setTimeout(r, 25));
      expect(await waiting()).toBe(1);
      const writeB = await call(b.key, 'POST', '/partnerlist/upsert', [
        { email: 'door@example.nl', voornaam: 'B' },
      ]);
      expect(writeB.statusCode, writeB.body).toBe(200);
      expect(writeB.json()).toMatchObject({ modified: 0, inserted: 1 });
      expect(aDone).toBe(false);
      await importer.query('COMMIT');
      const resA = await writeA;
      expect(resA.statusCode, resA.body).toBe(200);
      expect(resA.json()).toMatchObject({ modified: 0, inserted: 1 });
    } finally {
      importer.release();
    }
  });

  it('writes to many datasets at once all finish and are stored', { timeout: 60_000 }, async () => {
    const sets: Awaited<ReturnType<typeof keyedDataset>>[] = [];
    for (let i = 0; i < 6; i++) sets.push(await keyedDataset());
    const results = await Promise.all(
      sets.flatMap((d, i) =>
        [0, 1, 2].map((k) =>
          call(d.key, 'POST', '/partnerlist/upsert', [
            { email: `r${k}@set${i}.example.nl`, voornaam: `n${k}` },
            { email: `gedeeld${k}@example.nl`, voornaam: `d${i}` },
          ]),
        ),
      ),
    );
    for (const res of results) expect(res.statusCode, res.body).toBe(200);
    for (const [i, d] of sets.entries()) {
      const got = await call(d.key, 'GET', `/partnerlist/${encodeURIComponent('gedeeld2@example.nl')}`);
      expect(got.statusCode, got.body).toBe(200);
      expect(got.json().voornaam).toBe(`d${i}`);
    }
  });
});
