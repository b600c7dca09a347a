import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { SKIP_REASON_LABELS } from '../../../common/skipped-rows';
import { setupTestApp } from '../../test/app';
import { csvBody } from '../../test/csv';
import { eraseEmails } from '../avg/erase.service';
import { whileErasing } from '../avg/suppression.test-helpers';
import {
  allocate,
  importResultsFile,
  makeAddresses,
  makeCampaign,
  makeMailing,
} from './mailing.test-helpers';

// A mailing's results file and erased addresses (AVG art. 17): a row of an erased address is
// skipped as not in the mailing and its skipped row keeps no e-mail; the import waits for an
// erasure that runs, so it never writes results or behaviour onto an address erased meanwhile.

const t = setupTestApp();

/** The skipped-rows download of a task as rows, header first. */
async function skippedCsv(taskId: string): Promise<string[][]> {
  const res = await t.api('GET', `/api/tasks/${taskId}/skipped`);
  expect(res.statusCode, res.body).toBe(200);
  return parse(csvBody(res)) as string[][];
}

/** The stored skipped rows' e-mail fields that name one of `emails` (trimmed, lower case). */
async function storedSkippedEmails(emails: string[]): Promise<string[]> {
  const { rows } = await t.db.execute<{ email: string }>(
    sql`SELECT email FROM import_skipped_rows WHERE email IS NOT NULL`,
  );
  return rows.map((r) => r.email).filter((e) => emails.includes(e.trim().toLowerCase()));
}

/** An address's results in any mailing and its behaviour. */
async function traceOf(id: number) {
  const results = await t.db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM mailing_results WHERE address_id = ${id}`,
  );
  const row = await t.db.execute<{ last_open_at: Date | null; os: string[] }>(
    sql`SELECT last_open_at, os FROM addresses WHERE id = ${id}`,
  );
  return { results: results.rows[0].n, ...row.rows[0] };
}

describe('a results file naming erased addresses', () => {
  it('skips a row of an erased address as not in the mailing and keeps no e-mail of it', async () => {
    const c = await makeCampaign(t, t.cookie);
    const m = await makeMailing(t, t.cookie, c);
    const ids = await makeAddresses(t, 2, ['blijft@res.nl', 'weg@res.nl']);
    await allocate(t, m._id, ids);
    const erased = await t.api('POST', '/api/avg/erase', { email: 'weg@res.nl' });
    expect(erased.statusCode, erased.body).toBe(200);
    const task = await importResultsFile(
      t,
      c,
      m._id,
      [
        'email;event;date;os',
        'blijft@res.nl;open;2030-01-10 08:00:00;iOS',
        ' WEG@res.nl ;open;2030-01-10 08:00:00;iOS',
        'vreemd@res.nl;open;2030-01-10 08:00:00;iOS',
      ].join('\n'),
    );
    expect(task.result).toMatchObject({ read: 3, saved: 1, skippedBy: { notInMailing: 2 } });
    expect(await skippedCsv(task._id)).toEqual([
      ['regel', 'reden', 'email'],
      ['3', SKIP_REASON_LABELS.notInMailing, ''],
      ['4', SKIP_REASON_LABELS.notInMailing, 'vreemd@res.nl'],
    ]);
    expect(await storedSkippedEmails(['weg@res.nl'])).toEqual([]);
    expect(await traceOf(ids[1])).toEqual({ results: 0, last_open_at: null, os: [] });
  });

  it('waits for an erasure that runs, then writes nothing onto the address it erased', async () => {
    const c = await makeCampaign(t, t.cookie);
    const m = await makeMailing(t, t.cookie, c);
    const ids = await makeAddresses(t, 2, ['blijft2@res.nl', 'later@res.nl']);
    await allocate(t, m._id, ids);
    const task = await whileErasing(
      t,
      () =>
        importResultsFile(
          t,
          c,
          m._id,
          'email;event;date;os\nblijft2@res.nl;open;2030-01-10 08:00:00;iOS\nlater@res.nl;open;2030-01-10 08:00:00;iOS\n',
        ),
      async (tx) => {
        await eraseEmails(tx, t.ctx.columnKeys(), ['later@res.nl']);
      },
    );
    expect(task.result).toMatchObject({ read: 2, saved: 1, skippedBy: { notInMailing: 1 } });
    expect(await traceOf(ids[1])).toEqual({ results: 0, last_open_at: null, os: [] });
    expect(await storedSkippedEmails(['later@res.nl'])).toEqual([]);
    expect((await traceOf(ids[0])).results).toBe(1);
  });
});
