import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeEmail } from '../../../common/email';
import { columnMapping as col, type MappingEntry } from '../../../common/mappings';
import { setupTestApp } from '../../test/app';
import { importFile, recordsOf, setupDataset, uploadFile, waitForTask } from '../../test/imports';
import { compileSqlEmailCheck, isSqlValidEmail } from '../records/record-mapper';
import {
  createDetachedPartition,
  dropDeadDetachedPartitions,
  recordsPartition,
} from '../records/records.queries';
import { failTask, insertTask } from '../tasks/task.queries';
import { canImportDirectly, getFirstImportTables } from './first-import.service';
import { getRecordCount, listOrphanStagingTables, reserveAddressIds } from './import.queries';

// A dataset's first import writes most records straight from the mapping pass (first-import.service.ts);
// rows whose e-mail only Node takes for valid take the usual path beside it.
const t = setupTestApp();

const q = (text: string, values: unknown[] = []) => t.database.pool.query(text, values);

/** The records of a dataset as stored: e-mail, raw, attrs and both hashes, by e-mail. */
async function stored(datasetId: string) {
  const { rows } = await q(
    `SELECT a.email, r.raw, r.attrs, r.row_hash, r.raw_hash FROM records r JOIN addresses a ON a.id = r.address_id
     WHERE r.dataset_id = $1 ORDER BY a.email`,
    [datasetId],
  );
  return rows;
}

const MAPPING: MappingEntry[] = [
  col('naam', 'firstName', { lower: true }),
  col('datum', 'birthDate', { date: 'D-M-YYYY' }),
  col('email', 'domain', { emailDomain: true }),
];

describe('the SQL e-mail check of a first import', () => {
  it('takes an e-mail for valid only where Node takes it for valid and normalises it alike', async () => {
    const samples = [
      'a@x.nl',
      '  Piet.Jansen+tag@Voorbeeld.NL  ',
      'a@x',
      'a@@x.nl',
      'a b@x.nl',
      '\ta@x.nl',
      'a@x.nl\n',
      'José@x.nl',
      'İ@x.nl',
      `${'a'.repeat(250)}@x.nl`,
      '',
      'geen',
      '"quoted"@x.nl',
      'a@b.c',
      'a@b.nl.',
      '<a@b.nl>',
      'mailto:a@b.nl',
      'a..b@x.nl',
      'a@b-.nl',
      'a@xn--bcher-kva.ch',
      'a@b.xn--p1ai',
      `a@${'b'.repeat(61)}.nl`,
      `a@${'b'.repeat(60)}.nl`,
      "o'neil@x.nl",
    ];
    const { rows } = await q(
      `SELECT v, ${compileSqlEmailCheck('v')} AS valid, lower(btrim(v) COLLATE "C") AS email FROM unnest($1::text[]) v`,
      [samples],
    );
    for (const row of rows as { v: string; valid: boolean; email: string }[]) {
      // Valid in SQL implies valid in Node with the same e-mail; Node may take more (the side rows).
      if (row.valid) expect(normalizeEmail(row.v), row.v).toBe(row.email);
    }
    expect(rows.filter((r) => r.valid).map((r) => r.v)).toEqual([
      'a@x.nl',
      '  Piet.Jansen+tag@Voorbeeld.NL  ',
      'a@xn--bcher-kva.ch',
      `a@${'b'.repeat(60)}.nl`,
      "o'neil@x.nl",
    ]);
  });

  it('is computed alike in JavaScript (for the rows without an address id)', async () => {
    // Strings of the characters that matter: letters of both cases, '@', '.', spaces, tabs,
    // non-ASCII, quotes; and lengths around the 254 limit.
    const char = fc.constantFrom(
      'a',
      'B',
      '@',
      '.',
      ' ',
      '\t',
      'é',
      'İ',
      '"',
      '-',
      '~',
      '\u00a0',
      'nl',
      '@x.nl',
    );
    const samples = fc.sample(
      fc.array(char, { maxLength: 14 }).map((cs) => cs.join('')),
      3000,
    );
    samples.push(`${'a'.repeat(249)}@x.nl`, `${'a'.repeat(250)}@x.nl`, ` ${'a'.repeat(248)}@x.nl `);
    const { rows } = await q(
      `SELECT ${compileSqlEmailCheck('v')} AS valid, lower(btrim(v) COLLATE "C") AS email
       FROM unnest($1::text[]) WITH ORDINALITY u(v, i) ORDER BY i`,
      [samples],
    );
    expect(rows.map((r) => r.valid)).toEqual(samples.map((v) => isSqlValidEmail(v)));
    rows.forEach((r, i) => {
      if (r.valid) expect(normalizeEmail(samples[i]), samples[i]).toBe(r.email);
    });
    expect(rows.some((r) => r.valid)).toBe(true);
  });

  it('is taken unless the mapping stores a column encrypted or excludes rows', () => {
    expect(canImportDirectly(MAPPING)).toBe(true);
    expect(canImportDirectly([...MAPPING, col('naam', 'secret', { encrypted: true })])).toBe(false);
    expect(canImportDirectly([...MAPPING, col('naam', 'x', { exclude: 'nee' })])).toBe(false);
  });
});

describe('a first import written straight from the mapping pass', () => {
  it('stores the same records, raw, attrs and hashes as the general path', async () => {
    // The same file into a dataset that takes the direct path and one that cannot (a filter that
    // matches nothing): every stored byte must agree, so later re-imports find them unchanged.
    const file =
      'email;naam;datum;extra\n' +
      'Anna@X.nl;ANNA;1-2-1980;"met ; en ""quotes"""\n' +
      'b@x.nl;Bob;31-12-1999;\n' +
      'geen-adres;Nee;1-1-2000;x\n' +
      'ANNA@x.nl;Dubbel;2-2-1980;y\n' +
      '" c@x.nl ";Cees;;{accolade,komma}\n' +
      'd@x.nl;NULL;13-13-2000;back\\slash\n' +
      '"\tTab@x.nl";Tab;5-5-1955;"regel\nbreuk"\n' +
      'Zoë@x.nl;Zoë;6-6-1966;é\n';
    const direct = await setupDataset(t, MAPPING);
    const general = await setupDataset(t, [...MAPPING, col('extra', 'extra', { exclude: '/^nooit$/' })]);
    const counters = { read: 8, saved: 6, skipped: 2, deleted: 0, unchanged: 0 };
    expect(await importFile(t, t.cookie, direct, file)).toEqual(counters);
    expect(await importFile(t, t.cookie, general, file)).toEqual(counters);
    const a = await stored(direct.datasetId);
    const b = await stored(general.datasetId);
    expect(a.map((r) => r.email)).toEqual([
      'anna@x.nl',
      'b@x.nl',
      'c@x.nl',
      'd@x.nl',
      'tab@x.nl',
      'zoë@x.nl',
    ]);
    // The general dataset's mapping has one attribute more (extra); all else is the same.
    const strip = (rows: typeof a) =>
      rows.map(({ attrs: { extra: _extra, ...attrs }, row_hash: _h, ...rest }) => ({ ...rest, attrs }));
    expect(strip(a)).toEqual(strip(b));
    // raw in the order of the columns' names (datum, email, extra, naam: hashOrder).
    expect(a[0].raw).toEqual(['1-2-1980', 'Anna@X.nl', 'met ; en "quotes"', 'ANNA']);
    expect(a[3].raw).toEqual(['13-13-2000', 'd@x.nl', 'back\\slash', 'NULL']);
    expect(a[4].raw).toEqual(['5-5-1955', '\tTab@x.nl', 'regel\nbreuk', 'Tab']);
    expect(await getRecordCount(t.db, direct.datasetId)).toBe(6);
    // A re-import of the same file finds every record unchanged.
    expect(await importFile(t, t.cookie, direct, file)).toEqual({ ...counters, saved: 0, unchanged: 6 });
  });

  it('keeps the first row of an address when a row only Node reads comes before, between or after', async () => {
    const s = await setupDataset(t, [col('naam', 'firstName')]);
    const file =
      'email,naam\n' +
      '"\tvoor@x.nl",Eerst\n' + // a side row before the SQL-valid row of its address: it wins
      'voor@x.nl,Later\n' +
      'na@x.nl,Eerst\n' + // an SQL-valid row before the side rows of its address: it wins
      '"na@x.nl\t",Later\n' +
      '"\tzij@x.nl",Eerst\n' + // two side rows of one address: the first wins
      '"zij@x.nl\t",Later\n' +
      'VOOR@x.nl,Nog later\n';
    expect(await importFile(t, t.cookie, s, file)).toEqual({
      read: 7,
      saved: 3,
      skipped: 4,
      deleted: 0,
      unchanged: 0,
    });
    expect((await recordsOf(t, s.datasetId)).map((r) => `${r.email}:${r.attrs.firstName}`)).toEqual([
      'na@x.nl:Eerst',
      'voor@x.nl:Eerst',
      'zij@x.nl:Eerst',
    ]);
    expect(await getRecordCount(t.db, s.datasetId)).toBe(3);
  });

  it('takes a large file whose e-mails only Node reads through the side path', async () => {
    const s = await setupDataset(t, [col('nummer', 'number')]);
    // Every e-mail has a tab around it (SQL leaves it invalid), every tenth row repeats one.
    const lines = Array.from(
      { length: 20_000 },
      (_, i) => `"\tzij${i % 10 === 9 ? i - 1 : i}@groot.nl",${i}`,
    );
    const result = await importFile(t, t.cookie, s, `email,nummer\n${lines.join('\n')}\n`);
    expect(result).toEqual({ read: 20_000, saved: 18_000, skipped: 2_000, deleted: 0, unchanged: 0 });
    const { rows } = await q(
      `SELECT count(*)::int AS n, count(DISTINCT r.address_id)::int AS d, min((r.attrs->>'number')::int) AS lo
       FROM records r WHERE r.dataset_id = $1 AND r.attrs->>'number' IN ('8', '9')`,
      [s.datasetId],
    );
    expect(rows[0]).toEqual({ n: 1, d: 1, lo: 8 });
    expect(await getRecordCount(t.db, s.datasetId)).toBe(18_000);
  });

  it('runs beside another first import with the same new addresses in the opposite order', async () => {
    const a = await setupDataset(t);
    const b = await setupDataset(t);
    const emails = Array.from({ length: 20_000 }, (_, i) => `samen${i}@tegelijk.nl`);
    // Both imports run at once (two task slots); each inserts the addresses the other inserts too.
    const [ra, rb] = await Promise.all([
      uploadFile(t, t.cookie, a, `email\n${emails.join('\n')}\n`),
      uploadFile(t, t.cookie, b, `email\n${[...emails].reverse().join('\n')}\n`),
    ]);
    const [ta, tb] = await Promise.all([
      waitForTask(t, t.cookie, ra.json().task._id),
      waitForTask(t, t.cookie, rb.json().task._id),
    ]);
    expect(ta.state, ta.error).toBe('done');
    expect(tb.state, tb.error).toBe('done');
    expect(ta.result.saved).toBe(20_000);
    expect(tb.result.saved).toBe(20_000);
    const { rows } = await q(
      `SELECT (SELECT count(*)::int FROM addresses WHERE email LIKE 'samen%@tegelijk.nl') AS addresses,
         (SELECT count(*)::int FROM records r JOIN addresses x ON x.id = r.address_id WHERE r.dataset_id = $1) AS a,
         (SELECT count(*)::int FROM records r JOIN addresses x ON x.id = r.address_id WHERE r.dataset_id = $2) AS b`,
      [a.datasetId, b.datasetId],
    );
    expect(rows[0]).toEqual({ addresses: 20_000, a: 20_000, b: 20_000 });
  });

  it('of a file without one valid e-mail stores nothing and leaves the next import a first one', async () => {
    const s = await setupDataset(t);
    expect(await importFile(t, t.cookie, s, 'email\ngeen\nook geen@x.nl\n')).toEqual({
      read: 2,
      saved: 0,
      skipped: 2,
      deleted: 0,
      unchanged: 0,
    });
    expect(await getRecordCount(t.db, s.datasetId)).toBe(0);
    expect(await importFile(t, t.cookie, s, 'email\nwel@x.nl\n')).toMatchObject({ saved: 1, deleted: 0 });
    expect((await recordsOf(t, s.datasetId)).map((r) => r.email)).toEqual(['wel@x.nl']);
  });

  it('gives new addresses ids in file order, so its records lie in id order', async () => {
    const s = await setupDataset(t);
    const emails = ['zeta', 'alfa', 'mu', 'beta'].map((n) => `${n}@volgorde.nl`);
    await importFile(t, t.cookie, s, `email\n${emails.join('\n')}\n`);
    const { rows } = await q(
      `SELECT a.email FROM records r JOIN addresses a ON a.id = r.address_id WHERE r.dataset_id = $1 ORDER BY a.id`,
      [s.datasetId],
    );
    expect(rows.map((r) => r.email)).toEqual(emails);
    const physical = await q(`SELECT address_id FROM records WHERE dataset_id = $1`, [s.datasetId]);
    const ids = physical.rows.map((r) => Number(r.address_id));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
  });

  it('writes its records frozen, their pages all-visible, so that no first read rewrites them', async () => {
    const s = await setupDataset(t);
    const lines = Array.from({ length: 2000 }, (_, i) => `bevroren${i}@koud.nl`);
    expect(await importFile(t, t.cookie, s, `email\n${lines.join('\n')}\n`)).toMatchObject({ saved: 2000 });
    const table = recordsPartition(s.datasetId);
    await q(`ANALYZE "${table}"`);
    const { rows } = await q(`SELECT relpages, relallvisible FROM pg_class WHERE relname = $1`, [table]);
    expect(rows[0].relpages).toBeGreaterThan(1);
    // All but a page where one batch of COPY's inserts ended and the next went on.
    expect(rows[0].relallvisible).toBeGreaterThanOrEqual(rows[0].relpages * 0.9);
  });

  it('reserves blocks of address ids that no other insert of addresses takes meanwhile', async () => {
    // Without a cache every insert draws on the sequence itself: an insert between reading its
    // last value and moving it on would take an id inside the block.
    const seq = (await q(`SELECT pg_get_serial_sequence('addresses', 'id') AS seq`)).rows[0].seq;
    await q(`ALTER SEQUENCE ${seq} CACHE 1`);
    try {
      let reserving = true;
      const inserted: number[] = [];
      const insert = async (worker: number) => {
        for (let i = 0; reserving; i++) {
          const { rows } = await q(
            `INSERT INTO addresses (email, domain) VALUES ($1, 'blok.nl') RETURNING id`,
            [`w${worker}-${i}@blok.nl`],
          );
          inserted.push(Number(rows[0].id));
        }
      };
      const blocks: [number, number][] = [];
      const reserve = async () => {
        for (let i = 0; i < 25; i++) {
          const base = await reserveAddressIds(t.database, 50);
          blocks.push([base + 1, base + 50]);
        }
      };
      const inserters = [1, 2, 3].map(insert);
      await Promise.all([reserve(), reserve()]);
      reserving = false;
      await Promise.all(inserters);
      expect(inserted.length).toBeGreaterThan(10);
      const sorted = [...blocks].sort((x, y) => x[0] - y[0]);
      for (let i = 1; i < sorted.length; i++) expect(sorted[i][0]).toBeGreaterThan(sorted[i - 1][1]);
      for (const id of inserted) expect(blocks.filter(([from, to]) => id >= from && id <= to)).toEqual([]);
    } finally {
      await q(`ALTER SEQUENCE ${seq} CACHE 1000`);
    }
  });
});

describe('the tables named after a staging table', () => {
  it('are left to a live task and swept once it is over', async () => {
    const task = await insertTask(t.db, { type: 'import', state: 'parsing' });
    const names = ['', ...Object.values(getFirstImportTables(''))].map((suffix) => `stg_${task.id}${suffix}`);
    for (const name of names) await q(`CREATE UNLOGGED TABLE ${name} (ln bigint)`);
    try {
      expect((await listOrphanStagingTables(t.db)).filter((n) => names.includes(n))).toEqual([]);
      await failTask(t.db, task.id, 'weg');
      expect((await listOrphanStagingTables(t.db)).filter((n) => names.includes(n)).sort()).toEqual(
        [...names].sort(),
      );
    } finally {
      for (const name of names) await q(`DROP TABLE IF EXISTS ${name}`);
    }
  });
});

describe('an unattached records table', () => {
  it('left by a dead first import is dropped by the next import of its dataset', async () => {
    const s = await setupDataset(t);
    const client = await t.database.pool.connect();
    try {
      const name = await createDetachedPartition(client, s.datasetId);
      await client.query(
        `INSERT INTO "${name}" (dataset_id, address_id, raw, attrs) VALUES ($1, 999999999, '{spook}', '{}')`,
        [s.datasetId],
      );
    } finally {
      client.release();
    }
    expect(await importFile(t, t.cookie, s, 'email\nlevend@x.nl\n')).toMatchObject({ saved: 1 });
    expect((await recordsOf(t, s.datasetId)).map((r) => r.email)).toEqual(['levend@x.nl']);
    expect(await getRecordCount(t.db, s.datasetId)).toBe(1);
  });

  it('is dropped by the sweep unless an import holds its dataset', async () => {
    const s = await setupDataset(t);
    const busy = await setupDataset(t);
    const client = await t.database.pool.connect();
    try {
      await createDetachedPartition(client, s.datasetId);
      await createDetachedPartition(client, busy.datasetId);
      // An import running on `busy` holds its dataset row.
      await client.query('BEGIN');
      await client.query('SELECT id FROM datasets WHERE id = $1 FOR UPDATE', [busy.datasetId]);
      const dropped = await dropDeadDetachedPartitions(t.database.pool);
      expect(dropped).toContain(recordsPartition(s.datasetId));
      expect(dropped).not.toContain(recordsPartition(busy.datasetId));
      await client.query('COMMIT');
      expect(await dropDeadDetachedPartitions(t.database.pool)).toContain(recordsPartition(busy.datasetId));
      const left = await q(`SELECT to_regclass($1) AS a, to_regclass($2) AS b`, [
        recordsPartition(s.datasetId),
        recordsPartition(busy.datasetId),
      ]);
      expect(left.rows[0]).toEqual({ a: null, b: null });
    } finally {
      await client.query('ROLLBACK').catch(() => {});
      client.release();
    }
  });

  it('leaves attached tables alone', async () => {
    const s = await setupDataset(t);
    await importFile(t, t.cookie, s, 'email\nblijft@x.nl\n');
    expect(await dropDeadDetachedPartitions(t.database.pool)).not.toContain(recordsPartition(s.datasetId));
    expect((await recordsOf(t, s.datasetId)).map((r) => r.email)).toEqual(['blijft@x.nl']);
  });
});
