import { describe, expect, it } from 'vitest';
import { MappingMessages } from '../../../common/mappings';
import { setupTestApp } from '../../test/app';
import {
  columnMapping as col,
  importFile,
  recordsOf,
  setupDataset,
  uploadFile,
  waitForTask,
} from '../../test/imports';

// Exclude filters are regular expressions from users: they run in linear time (RE2) during an
// import, and what RE2 cannot run is refused when the mapping is saved.

const t = setupTestApp();

describe('exclude filters as regular expressions', () => {
  it('imports past a catastrophic pattern on long values with the right rows excluded', async () => {
    const s = await setupDataset(t, [col('code', 'code', { exclude: '/^(a+)+$/' })]);
    // On a backtracking engine each of these values takes 2^n steps; the import would never end.
    const long = 'a'.repeat(5_000);
    const result = await importFile(
      t,
      t.cookie,
      s,
      `email,code\nweg@re.nl,${long}\nblijft@re.nl,${long}b\nook@re.nl,${'a'.repeat(40)}!\n`,
    );
    expect(result).toMatchObject({ read: 3, saved: 2, skipped: 1 });
    expect((await recordsOf(t, s.datasetId)).map((r) => r.email)).toEqual(['blijft@re.nl', 'ook@re.nl']);
  });

  it('refuses a backreference or lookaround when the mapping is saved, with the Dutch message', async () => {
    const s = await setupDataset(t);
    for (const exclude of ['/(ab)\\1/', '/^(?!test)/i']) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/datasets/${s.partnerId}/${s.datasetId}/mappings`,
        headers: { cookie: t.cookie },
        payload: [col('code', 'code', { exclude })],
      });
      expect(res.statusCode, exclude).toBe(400);
      expect(res.json().message).toBe(MappingMessages.excludeUnsupported);
    }
  });

  it('fails the import of a filter stored before RE2 that RE2 refuses, naming the column and the reason', async () => {
    // Saved directly, as an older version of the app could (its check accepted backreferences).
    const s = await setupDataset(t, [col('code', 'code', { exclude: '/(ab)\\1/' })]);
    const res = await uploadFile(t, t.cookie, s, 'email,code\na@re.nl,abab\n');
    expect(res.statusCode, res.body).toBe(200);
    const task = await waitForTask(t, t.cookie, res.json().task._id);
    expect(task).toMatchObject({
      state: 'failed',
      error: `Uitsluiten code: ${MappingMessages.excludeUnsupported}`,
    });
    const staging = await t.database.pool.query(`SELECT 1 FROM pg_tables WHERE tablename = $1`, [
      `stg_${task._id}`,
    ]);
    expect(staging.rowCount).toBe(0);
  });

  it('reads a stored filter RE2 refuses back to the editor, which cannot save it unchanged', async () => {
    const s = await setupDataset(t, [col('code', 'code', { exclude: '/(?=a)a/' })]);
    const url = `/api/datasets/${s.partnerId}/${s.datasetId}/mappings`;
    const read = await t.api('GET', url);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()[0]).toMatchObject({ field: 'code', exclude: '/(?=a)a/' });
    const saved = await t.app.inject({
      method: 'PUT',
      url,
      headers: { cookie: t.cookie },
      payload: read.json(),
    });
    expect(saved.statusCode).toBe(400);
    expect(saved.json().message).toBe(MappingMessages.excludeUnsupported);
  });
});
