import { Readable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import type { MappingEntry } from '../../../common/mappings';
import { setupTestApp } from '../../test/app';
import {
  columnMapping,
  type ImportSetup,
  importFile as importWith,
  recordsOf as recordsOfTest,
  setupDataset,
  uploadFile,
  waitForTask,
} from '../../test/imports';
import { records } from '../records/address.table';
import { claimTask } from '../tasks/task.queries';
import { stageUpload } from '../uploads/upload.service';
import { getRecordCount } from './import.queries';
import { queueUpload } from './import-task';
import { saveDatasetMappings } from './mapping.queries';

const t = setupTestApp();

type Setup = ImportSetup;
const setup = (mappings: MappingEntry[] = [], email?: string) => setupDataset(t, mappings, email);
const upload = (s: Setup, content: string | Buffer, fileName?: string) =>
  uploadFile(t, t.cookie, s, content, fileName);
const importFile = (s: Setup, content: string | Buffer) => importWith(t, t.cookie, s, content);
const recordsOf = (id: string) => recordsOfTest(t, id);
const col = columnMapping;

describe('import counters', () => {
  it('counts read, saved, skipped (invalid, duplicate) on a first import', async () => {
    const s = await setup([col('naam', 'firstName')]);
    const result = await importFile(
      s,
      'email,naam\nA@X.nl,Anna\nb@x.nl,Bob\ngeen-mail,Nee\na@x.nl,Dubbel\n,Leeg\n',
    );
    expect(result).toEqual({ read: 5, saved: 2, skipped: 3, deleted: 0, unchanged: 0 });
    const rows = await recordsOf(s.datasetId);
    expect(rows.map((r) => r.email)).toEqual(['a@x.nl', 'b@x.nl']);
    expect(rows[0].attrs).toEqual({ firstName: 'Anna' });
    expect(rows[0].raw).toEqual({ email: 'A@X.nl', naam: 'Anna' });
    const [ds] = await t.db
      .execute<{ record_count: number }>(sql`SELECT record_count FROM datasets WHERE id = ${s.datasetId}`)
      .then((r) => r.rows);
    expect(Number(ds.record_count)).toBe(2);
  });

  it('re-import: unchanged, changed (saved) and removed (deleted)', async () => {
    const s = await setup([col('naam', 'firstName')]);
    await importFile(s, 'email,naam\na@y.nl,Anna\nb@y.nl,Bob\nc@y.nl,Cor\n');
    const same = await importFile(s, 'email,naam\na@y.nl,Anna\nb@y.nl,Bob\nc@y.nl,Cor\n');
    expect(same).toEqual({ read: 3, saved: 0, skipped: 0, deleted: 0, unchanged: 3 });
    const next = await importFile(s, 'email,naam\na@y.nl,Anna\nb@y.nl,Bobby\nd@y.nl,Dirk\n');
    expect(next).toEqual({ read: 3, saved: 2, skipped: 0, deleted: 1, unchanged: 1 });
    expect((await recordsOf(s.datasetId)).map((r) => `${r.email}:${r.attrs.firstName}`)).toEqual([
      'a@y.nl:Anna',
      'b@y.nl:Bobby',
      'd@y.nl:Dirk',
    ]);
    const [ds] = await t.db
      .execute<{ record_count: number }>(sql`SELECT record_count FROM datasets WHERE id = ${s.datasetId}`)
      .then((r) => r.rows);
    expect(Number(ds.record_count)).toBe(3);
  });

  it("leaves none of a re-import's settings on the connections it hands back", async () => {
    const s = await setup([col('naam', 'firstName')]);
    await importFile(s, 'email,naam\ninst1@y.nl,Anna\ninst2@y.nl,Bob\n');
    expect(await importFile(s, 'email,naam\ninst1@y.nl,Anna\ninst2@y.nl,Bo\n')).toMatchObject({ saved: 1 });
    const pool = t.database.pool;
    const clients = await Promise.all(Array.from({ length: pool.totalCount }, () => pool.connect()));
    try {
      for (const c of clients) {
        const { rows } = await c.query(
          `SELECT current_setting('work_mem') AS w, current_setting('enable_nestloop') AS n,
             current_setting('enable_hashjoin') AS h, current_setting('enable_mergejoin') AS m`,
        );
        expect(rows[0]).toMatchObject({ n: 'on', h: 'on', m: 'on' });
        expect(rows[0].w).not.toBe('256MB');
      }
    } finally {
      for (const c of clients) c.release();
    }
  });
});

describe('re-import of e-mails SQL normalises otherwise', () => {
  it('finds their records by lookup: unchanged and changed ones counted, none inserted twice', async () => {
    const s = await setup([col('naam', 'firstName')]);
    // A surrounding tab (and, under a collation without Unicode case rules, a non-ASCII capital):
    // lower(btrim()) in SQL differs from the normalisation in JavaScript, so such rows find their
    // record by a lookup. A repeated and an invalid address are skipped each time.
    const file = (b: string) =>
      `email,naam\nJOSÉ@Z.nl,José\n"\tTab@z.nl",${b}\nplain@z.nl,Plain\nPLAIN@z.nl,Dubbel\ngeen,X\n`;
    const counters = (saved: number, unchanged: number, deleted = 0) => ({
      read: 5,
      saved,
      skipped: 2,
      deleted,
      unchanged,
    });
    expect(await importFile(s, file('Tab'))).toEqual(counters(3, 0));
    expect(await importFile(s, file('Tab'))).toEqual(counters(0, 3));
    expect(await importFile(s, file('Tabby'))).toEqual(counters(1, 2));
    expect((await recordsOf(s.datasetId)).map((r) => `${r.email}:${r.attrs.firstName}`)).toEqual([
      'josé@z.nl:José',
      'plain@z.nl:Plain',
      'tab@z.nl:Tabby',
    ]);
    expect(await getRecordCount(t.db, s.datasetId)).toBe(3);
    // Rows left out are deleted; the count follows without a recount.
    expect(await importFile(s, 'email,naam\nplain@z.nl,Plain\nplain@z.nl,Weer\n')).toEqual({
      read: 2,
      saved: 0,
      skipped: 1,
      deleted: 2,
      unchanged: 1,
    });
    expect(await getRecordCount(t.db, s.datasetId)).toBe(1);
  });
});

describe('a database with many more addresses than the file', () => {
  it('finds existing addresses by index lookups with the same results', async () => {
    // 4,000 addresses against a file of 6 rows: the import looks addresses up one by one.
    await t.db.execute(sql`
      INSERT INTO addresses (email, domain)
      SELECT 'veel' || g || '@groot.nl', 'groot.nl' FROM generate_series(1, 4000) g`);
    await t.db.execute(sql`ANALYZE addresses`);
    const s = await setup([col('naam', 'firstName')]);
    const file =
      'email,naam\nveel7@groot.nl,Zeven\nnieuw1@groot.nl,Een\nVEEL7@groot.nl,Dubbel\nveel3999@groot.nl,Laatst\nnieuw2@groot.nl,Twee\nfout,Nee\n';
    expect(await importFile(s, file)).toEqual({ read: 6, saved: 4, skipped: 2, deleted: 0, unchanged: 0 });
    const rows = await recordsOf(s.datasetId);
    expect(rows.map((r) => `${r.email}:${r.attrs.firstName}`)).toEqual([
      'nieuw1@groot.nl:Een',
      'nieuw2@groot.nl:Twee',
      'veel3999@groot.nl:Laatst',
      'veel7@groot.nl:Zeven',
    ]);
    const ids = await t.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM addresses WHERE email IN ('veel7@groot.nl', 'nieuw1@groot.nl')`,
    );
    expect(ids.rows[0].n).toBe(2);
    const next = 'email,naam\nveel7@groot.nl,Zeven\nnieuw1@groot.nl,Anders\nveel8@groot.nl,Acht\n';
    expect(await importFile(s, next)).toEqual({ read: 3, saved: 2, skipped: 0, deleted: 2, unchanged: 1 });
  });
});

describe('mapping changes between imports', () => {
  it('re-computes every record when the mapping changed since the last import, none when it did not', async () => {
    const s = await setup([col('naam', 'firstName')]);
    const file = 'email,naam\na@m.nl,Anna\nb@m.nl,Bob\n';
    await importFile(s, file);
    expect(await importFile(s, file)).toMatchObject({ saved: 0, unchanged: 2 });
    await saveDatasetMappings(t.db, s.datasetId, [col('naam', 'firstName', { lower: true })]);
    expect(await importFile(s, file)).toMatchObject({ saved: 2, unchanged: 0 });
    expect((await recordsOf(s.datasetId)).map((r) => r.attrs.firstName)).toEqual(['anna', 'bob']);
    expect(await importFile(s, 'email,naam\na@m.nl,Anna\nb@m.nl,BOBBY\n')).toMatchObject({
      saved: 1,
      unchanged: 1,
    });
    expect((await recordsOf(s.datasetId)).map((r) => r.attrs.firstName)).toEqual(['anna', 'bobby']);
  });
});

describe('file formats', () => {
  it('reads semicolons, tabs, quoted separators and line breaks, and a BOM', async () => {
    const s = await setup([col('opmerking', 'comment')]);
    await importFile(s, '\uFEFFemail;opmerking\n"q@x.nl";"een; twee\ndrie"\n');
    expect((await recordsOf(s.datasetId))[0].attrs.comment).toBe('een; twee\ndrie');
    const tab = await setup([col('naam', 'firstName')]);
    await importFile(tab, 'email\tnaam\nt@x.nl\tTab\n');
    expect((await recordsOf(tab.datasetId))[0].attrs.firstName).toBe('Tab');
  });

  it('reads Windows-1252 files', async () => {
    const s = await setup([col('plaats', 'city')]);
    await importFile(s, iconv.encode('email;plaats\nw@x.nl;Zoë’s café\n', 'win1252'));
    expect((await recordsOf(s.datasetId))[0].attrs.city).toBe('Zoë’s café');
  });

  it('uses the dataset emailColumnName', async () => {
    const s = await setup([], 'E-mailadres');
    const result = await importFile(s, 'E-MAILADRES,x\nm@x.nl,1\n');
    expect(result.saved).toBe(1);
  });

  it.each([
    ['naam,plaats\nAnna,Zwolle\n', 'Het bestand bevat geen kolom genaamd email'],
    ['', 'Het bestand is leeg'],
    ['email,naam\n', 'Het bestand bevat geen regels, alleen een kopregel'],
    [
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]),
      'Het bestand is geen geldig CSV-bestand',
    ],
    ['email,naam\na@x.nl,Anna,extra\n', 'Ongeldig CSV-bestand op regel 2: meer kolommen dan de kopregel'],
  ])(
    'refuses a bad file with a clear message and leaves the dataset as it was (%#)',
    async (content, message) => {
      const s = await setup();
      await importFile(s, 'email\nkeep@x.nl\n');
      const res = await upload(s, content);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
      expect((await recordsOf(s.datasetId)).map((r) => r.email)).toEqual(['keep@x.nl']);
      const staging = await t.db.execute(sql`SELECT tablename FROM pg_tables WHERE tablename LIKE 'stg\\_%'`);
      expect(staging.rows).toHaveLength(0);
    },
  );

  it('refuses a file that is not .csv and answers 404 for an unknown dataset', async () => {
    const s = await setup();
    expect((await upload(s, 'email\na@x.nl\n', 'lijst.xlsx')).json().message).toBe(
      'Alleen .csv-bestanden kunnen worden geüpload',
    );
    const res = await upload({ ...s, name: 'bestaatniet' }, 'email\na@x.nl\n');
    expect(res.statusCode).toBe(404);
  });
});

describe('records', () => {
  it('keeps one address row for the same e-mail in two datasets', async () => {
    const a = await setup();
    const b = await setup();
    await importFile(a, 'email\nshared@x.nl\n');
    await importFile(b, 'email\nshared@x.nl\n');
    const rows = await t.db.execute(
      sql`SELECT count(*)::int AS n FROM addresses WHERE email = 'shared@x.nl'`,
    );
    expect(rows.rows[0].n).toBe(1);
    expect(await t.db.select().from(records).where(eq(records.datasetId, b.datasetId))).toHaveLength(1);
  });
});

describe('deleting', () => {
  const countRecords = async (datasetId: string) =>
    (await t.db.select().from(records).where(eq(records.datasetId, datasetId))).length;

  it('a dataset deletes its records and leaves other datasets alone', async () => {
    const a = await setup();
    const b = await setup();
    await importFile(a, 'email\none@d.nl\ntwo@d.nl\n');
    await importFile(b, 'email\none@d.nl\n');
    expect((await t.api('DELETE', `/api/datasets/${a.partnerId}/${a.datasetId}`)).statusCode).toBe(200);
    expect(await countRecords(a.datasetId)).toBe(0);
    expect(await countRecords(b.datasetId)).toBe(1);
  });

  it('a partner deletes the records of all its datasets', async () => {
    const a = await setup();
    await importFile(a, 'email\nthree@d.nl\n');
    expect((await t.api('DELETE', `/api/crud-partner/${a.partnerId}`)).statusCode).toBe(200);
    expect(await countRecords(a.datasetId)).toBe(0);
  });
});

describe('concurrent imports', () => {
  it('does not fail when another transaction adds one of its new addresses meanwhile', async () => {
    const s = await setup();
    const other = await t.database.pool.connect();
    let taskId = '';
    try {
      await other.query('BEGIN');
      await other.query(`INSERT INTO addresses (email, domain) VALUES ('race@gelijk.nl', 'gelijk.nl')`);
      const res = await upload(s, 'email\nrace@gelijk.nl\nsolo@gelijk.nl\n');
      expect(res.statusCode).toBe(200);
      taskId = res.json().task._id;
      // Wait until the import waits for the other transaction's row, then let that one commit.
      for (;;) {
        const waiting = await t.database.pool.query(
          `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        if (waiting.rows.length > 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      await other.query('COMMIT');
    } finally {
      other.release();
    }
    const task = await waitForTask(t, t.cookie, taskId);
    expect(task.state, task.error).toBe('done');
    expect(task.result).toMatchObject({ saved: 2 });
    expect((await recordsOf(s.datasetId)).map((r) => r.email)).toEqual(['race@gelijk.nl', 'solo@gelijk.nl']);
  });
});

describe('an upload still arriving', () => {
  it('is never claimed by a worker before its file is staged and its task queued', async () => {
    const s = await setupDataset(t);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* body() {
      yield Buffer.from('email\na@race.nl\n');
      await gate;
      yield Buffer.from('b@race.nl\n');
    }
    const staging = stageUpload(t.ctx, {
      type: 'import',
      partnerId: s.partnerId,
      datasetName: s.name,
      file: Readable.from(body()),
      fileName: 'race.csv',
      expectedBytes: 30,
      username: 'test',
    });

    // While the bytes arrive the task is visible, 'parsing', and owned by this process.
    let task: { id: string; state: string; worker_key: number | null } | undefined;
    for (let i = 0; i < 100 && !task; i++) {
      const found = await t.db.execute<{ id: string; state: string; worker_key: number | null }>(
        sql`SELECT id, state, worker_key FROM tasks WHERE file = 'race.csv'`,
      );
      task = found.rows[0];
      if (!task) await new Promise((r) => setTimeout(r, 20));
    }
    expect(task).toMatchObject({ state: 'parsing', worker_key: t.ctx.tasks.workerKey });
    // Neither this process's worker nor another one can take it.
    expect(await claimTask(t.db, ['import'], 424242)).toBeUndefined();
    await new Promise((r) => setTimeout(r, 300));
    const still = await t.db.execute<{ state: string }>(sql`SELECT state FROM tasks WHERE id = ${task!.id}`);
    expect(still.rows[0].state).toBe('parsing');

    release();
    const staged = await staging;
    expect(staged.rows).toBe(2);
    const queued = await queueUpload(t.ctx, staged, s.datasetId, undefined);
    expect(queued.state).toBe('queued');
    const done = await waitForTask(t, t.cookie, queued.id);
    expect(done.state).toBe('done');
    expect((await recordsOf(s.datasetId)).map((r) => r.email)).toEqual(['a@race.nl', 'b@race.nl']);
  });
});
