import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  issuedUrl,
  type StatementDetail,
  StatementMessages,
  statementRefQuery,
} from '../../../common/statements';
import { setupTestApp } from '../../test/app';
import { waitFor } from '../../test/wait';
import { insertWorld, type WorldDataset, type WorldMailing, worldId } from './statement.test-helpers';

// Issuing under concurrency (docs/decisions.md, Partner statements): numbers stay gap-free and
// unique however many issues run at once, and an issue freezes what one snapshot holds, also when
// a commission, a mailing or a partner changes while it reads.

const t = setupTestApp({ startWorker: false });

const PARALLEL = 8;
const partners = Array.from({ length: PARALLEL }, () => worldId('p'));
// Partners whose statements a change is committed into while they are issued.
const S1 = worldId('s');
const S2 = worldId('s');
const S3 = worldId('s');
const dataset = new Map([...partners, S1, S2, S3].map((p) => [p, worldId('d')]));
const mailingOf = new Map([S1, S2, S3].map((p) => [p, worldId('m')]));
const monthOf = new Map([
  [S1, '2026-06'],
  [S2, '2026-07'],
  [S3, '2026-08'],
]);

const issue = (ref: { month: string; partner: string }) => t.api('POST', '/api/statements', ref);

/** How many sessions hold the issue lock (statement.service.ts ISSUE_LOCK: two keys, so objsubid 2). */
async function issueLocksHeld(): Promise<number> {
  const { rows } = await t.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM pg_locks
    WHERE locktype = 'advisory' AND classid = 4246 AND objid = 1 AND objsubid = 2 AND granted`);
  return rows[0].n;
}

beforeAll(async () => {
  const datasets: WorldDataset[] = [...dataset].map(([partnerId, id]) => ({
    id,
    partnerId,
    commissions: [{ start: '2026-01-01', end: '2026-12-31', amount: '0.5' }],
  }));
  const mailings: WorldMailing[] = [
    {
      id: worldId('m'),
      state: 'offered',
      plannedSend: '2026-05-12T09:00:00Z',
      addresses: partners.map((p) => ({ datasetId: dataset.get(p) ?? '', count: 2 })),
    },
    ...[S1, S2, S3].map((p) => ({
      id: mailingOf.get(p) ?? '',
      name: 'Voor de wijziging',
      state: 'offered' as const,
      plannedSend: `${monthOf.get(p)}-10T09:00:00Z`,
      addresses: [{ datasetId: dataset.get(p) ?? '', count: 4 }],
    })),
  ];
  await insertWorld(t.db, {
    partners: [...dataset.keys()].map((id) => ({ id, vatPercent: 21 })),
    datasets,
    mailings,
  });
  await t.db.execute(sql`UPDATE settings SET issuer_name = 'Voor BV', issuer_address = 'Kade 1'`);
});

describe('issuing at the same time', () => {
  it('numbers different statements consecutively, and refuses the same one twice with one 409', async () => {
    const results = await Promise.all(
      [...partners, partners[0]].map((partner) => issue({ month: '2026-05', partner })),
    );
    const ok = results.filter((r) => r.statusCode === 200).map((r) => r.json() as StatementDetail);
    expect(ok.map((s) => s.number).sort()).toEqual(
      Array.from({ length: PARALLEL }, (_, i) => `AF-${String(i + 1).padStart(6, '0')}`),
    );
    expect(new Set(ok.map((s) => s.partnerId))).toEqual(new Set(partners));
    const refused = results.filter((r) => r.statusCode !== 200);
    expect(refused.map((r) => r.statusCode)).toEqual([409]);
    const winner = ok.find((s) => s.partnerId === partners[0]);
    expect(refused[0].json().message).toBe(StatementMessages.alreadyIssued(winner?.number ?? ''));
    const counter = await t.db.execute<{ last: number }>(sql`SELECT last FROM statement_counter`);
    expect(Number(counter.rows[0].last)).toBe(PARALLEL);
  });
});

describe('one snapshot for what an issue freezes', () => {
  let other: pg.Client | undefined;
  afterEach(async () => {
    await other?.end().catch(() => {});
    other = undefined;
  });

  /** Which moment each frozen fact of S is from: before or after the change (changeOf). */
  const momentsOf = (s: StatementDetail) => [
    s.lines[0]?.mailingName === 'Voor de wijziging' ? 'before' : 'after',
    s.lines[0]?.rate === '0.5000' ? 'before' : 'after',
    s.partner.address === 'Straat 1' ? 'before' : 'after',
    s.partner.vatPercentage === 21 ? 'before' : 'after',
    s.issuer?.name === 'Voor BV' ? 'before' : 'after',
  ];

  /** The change committed while the issue waits: the mailing's name, the commission, the partner, issuer. */
  const changeOf = (partner: string) => [
    `UPDATE mailings SET name = 'Na de wijziging' WHERE id = '${mailingOf.get(partner)}'`,
    `UPDATE dataset_commissions SET amount = 0.75 WHERE dataset_id = '${dataset.get(partner)}'`,
    `UPDATE partners SET address = 'Laan 99', vat_percentage = 0.09 WHERE id = '${partner}'`,
    `UPDATE settings SET issuer_name = 'Na BV ${partner}'`,
  ];

  /**
   * Issues the statement of `partner` while a second connection holds `table` exclusively: the
   * issue's read of it (`reading`, a piece of that query's text) waits, inside the issuing
   * transaction (it holds a transaction id: the counter is raised), until the second connection
   * has committed the change and let go. Returns the issue's answer.
   */
  async function issueAcrossChange(partner: string, table: string, reading: string) {
    const month = monthOf.get(partner) ?? '';
    // The issuer as before (an earlier change undone); the reports' facts kept now, so the
    // issue's own keeping finds nothing to do.
    await t.db.execute(sql`UPDATE settings SET issuer_name = 'Voor BV'`);
    const before = await t.api('GET', `/api/statements/proposed?${statementRefQuery({ month, partner })}`);
    expect(momentsOf(before.json())).toEqual(['before', 'before', 'before', 'before', 'before']);
    other = new pg.Client({ connectionString: t.url });
    await other.connect();
    await other.query('BEGIN');
    await other.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    const issuing = issue({ month, partner });
    await waitFor(
      async () =>
        (
          await t.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'
              AND backend_xid IS NOT NULL AND position(${reading} IN query) > 0`)
        ).rows[0].n,
      (n) => n === 1,
    );
    // The issue holds its lock from before its transaction's first statement to after its commit.
    expect(await issueLocksHeld()).toBe(1);
    for (const statement of changeOf(partner)) await other.query(statement);
    await other.query('COMMIT');
    const res = await issuing;
    expect(res.statusCode, res.body).toBe(200);
    expect(await issueLocksHeld()).toBe(0);
    return res.json() as StatementDetail;
  }

  it('freezes the lines, rates, partner and issuer of before a change committed between its reads', async () => {
    // Waits at the partner's details: the lines and their rates are read, the partner and issuer not yet.
    const issued = await issueAcrossChange(S1, 'partners', 'AS vat_fraction');
    expect(momentsOf(issued)).toEqual(['before', 'before', 'before', 'before', 'before']);
    expect(issued).toMatchObject({ amountCents: 200, vatCents: 42, totalCents: 242 });
    const again = await t.api('GET', `/api${issuedUrl('issued', issued.id ?? 0)}`);
    expect(again.json()).toEqual(issued);
  });

  it('freezes the rates of before a change committed after its mailings were read', async () => {
    // Waits at the commission entries: the mailings are read, the rates and the partner not yet.
    const issued = await issueAcrossChange(S2, 'dataset_commissions', 'FROM dataset_commissions c');
    expect(momentsOf(issued)).toEqual(['before', 'before', 'before', 'before', 'before']);
    expect(issued).toMatchObject({ amountCents: 200, vatCents: 42, totalCents: 242 });
  });

  it('lets the next issue go when an issuing connection is lost half-way', async () => {
    const month = monthOf.get(S3) ?? '';
    other = new pg.Client({ connectionString: t.url });
    await other.connect();
    await other.query('BEGIN');
    await other.query('LOCK TABLE partners IN ACCESS EXCLUSIVE MODE');
    const issuing = issue({ month, partner: S3 });
    const { rows } = await waitFor(
      () =>
        t.db.execute<{ pid: number }>(sql`SELECT pid FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'
            AND backend_xid IS NOT NULL AND position('AS vat_fraction' IN query) > 0`),
      (r) => r.rows.length === 1,
    );
    await t.db.execute(sql`SELECT pg_terminate_backend(${rows[0].pid})`);
    expect((await issuing).statusCode).not.toBe(200);
    await other.query('COMMIT');
    // The lost connection's session took its lock with it.
    await waitFor(issueLocksHeld, (n) => n === 0);
    const res = await issue({ month, partner: S3 });
    expect(res.statusCode, res.body).toBe(200);
    const counter = await t.db.execute<{ last: number }>(sql`SELECT last FROM statement_counter`);
    expect(Number(counter.rows[0].last)).toBe(PARALLEL + 3);
  });
});
