import { sql } from 'drizzle-orm';
import type { PressureCheck, PressureEntry } from '../../../common/mailings';
import type { DbOrTx } from '../../db/client';
import { deleteWithResults, type Removed } from './mailing.queries';
import { type PressureWindow, pressureConflictSql, sendDaySql } from './pressure.sql';

/** The sum of a pressure check's four counts. */
export function totalConflicts(c: PressureCheck): number {
  return c.new + c.none + c.opened + c.clicked;
}

/**
 * A mailing's addresses that another Definitief or Aangeboden mailing of the window already holds,
 * counted by their category at allocation (spec 001 §3: new, none = notOpenedOrClicked, opened, clicked).
 */
export async function countPressureConflicts(
  db: DbOrTx,
  mailingId: string,
  window: PressureWindow,
): Promise<PressureCheck> {
  const res = await db.execute<{ category: string; n: number }>(sql`
    SELECT ma.category, count(*)::int AS n FROM mailing_addresses ma
    WHERE ma.mailing_id = ${mailingId} AND ${pressureConflictSql(sql`ma.address_id`, window, mailingId)}
    GROUP BY ma.category`);
  const by = new Map(res.rows.map((r) => [r.category, r.n]));
  return {
    new: by.get('new') ?? 0,
    none: by.get('notOpenedOrClicked') ?? 0,
    opened: by.get('opens') ?? 0,
    clicked: by.get('clicks') ?? 0,
  };
}

/**
 * Removes a mailing's addresses that break the pressure rule in the window, with their results in
 * the mailing (deleteWithResults); returns how many addresses and results went.
 */
export async function deletePressureConflicts(
  db: DbOrTx,
  mailingId: string,
  window: PressureWindow,
): Promise<Removed> {
  return deleteWithResults(
    db,
    mailingId,
    sql`DELETE FROM mailing_addresses ma
    WHERE ma.mailing_id = ${mailingId} AND ${pressureConflictSql(sql`ma.address_id`, window, mailingId)}
    RETURNING ma.address_id`,
  );
}

/**
 * GET /pressure: per planned send day, the addresses of Definitief and Aangeboden mailings,
 * oldest day first (spec 001 §2 'Maildruk').
 */
export async function listPressure(db: DbOrTx): Promise<PressureEntry[]> {
  const res = await db.execute<{ day: string; n: number }>(sql`
    SELECT to_char(${sendDaySql('m')}, 'YYYY-MM-DD') AS day, sum(m.record_count)::bigint AS n
    FROM mailings m WHERE m.state IN ('final', 'offered')
    GROUP BY 1 ORDER BY 1`);
  return res.rows.map((r) => ({ date: r.day, count: Number(r.n) }));
}
