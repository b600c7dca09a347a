import { type SQL, sql } from 'drizzle-orm';
import {
  BUSINESS_TIME_ZONE,
  businessDay,
  defaultPressureDate,
  pressureWindow,
} from '../../../common/pressure-date';

// DESIGN §4/§6: at most one Definitief (final) or Aangeboden (offered) mailing per address per
// pressure window. This file is the one SQL definition of that rule: the mailing state changes,
// the pressure check and delete, and the selection engine (useDate) all use it.

/** A pressure window as calendar days: from (inclusive) and to (exclusive), 'YYYY-MM-DD'. */
export interface PressureWindow {
  from: string;
  to: string;
}

/** The calendar day of a mailing's planned send in the business time zone, as SQL (a date). */
export function sendDaySql(mailingAlias: string): SQL {
  return sql`(${sql.raw(`${mailingAlias}.planned_send`)} AT TIME ZONE ${BUSINESS_TIME_ZONE})::date`;
}

/** A mailing's own pressure window: the calendar week of its planned send (spec 001 §9, DESIGN §4). */
export function mailingWindow(plannedSend: Date): PressureWindow {
  return pressureWindow(defaultPressureDate(businessDay(plannedSend)));
}

/**
 * The addresses held by another Definitief or Aangeboden mailing planned inside the window, as a
 * query of one column `address_id` (an address once per holding mailing). `excludeMailingId` (the
 * mailing being checked) is never counted against itself; null counts every mailing.
 */
export function pressureHeldSql(window: PressureWindow, excludeMailingId: string | null): SQL {
  return sql`SELECT pma.address_id FROM mailing_addresses pma JOIN mailings pm ON pm.id = pma.mailing_id
    WHERE ${pressureMailingSql(window, excludeMailingId)}`;
}

/** The conditions on a holding mailing `pm` of pressureConflictSql and pressureHeldSql. */
function pressureMailingSql(window: PressureWindow, excludeMailingId: string | null): SQL {
  return sql`pm.state IN ('final', 'offered')
      ${excludeMailingId === null ? sql`` : sql`AND pm.id <> ${excludeMailingId}`}
      AND ${sendDaySql('pm')} >= ${window.from}::date
      AND ${sendDaySql('pm')} < ${window.to}::date`;
}

/**
 * Whether the address `addressIdExpr` is held by another Definitief or Aangeboden mailing planned
 * inside the window (a boolean SQL expression): pressureHeldSql per address. `excludeMailingId` (the
 * mailing being checked) is never counted against itself; null counts every mailing.
 */
export function pressureConflictSql(
  addressIdExpr: SQL,
  window: PressureWindow,
  excludeMailingId: string | null,
): SQL {
  return sql`EXISTS (
    SELECT 1 FROM mailing_addresses pma JOIN mailings pm ON pm.id = pma.mailing_id
    WHERE pma.address_id = ${addressIdExpr} AND ${pressureMailingSql(window, excludeMailingId)})`;
}

// One lock serializes every move into Definitief or Aangeboden: the check and the move commit
// together, so two mailings can never both pass their check against each other.
const PRESSURE_LOCK_KEY = 7_040_417;

/** Takes the transaction-level lock that serializes pressure-relevant state changes. */
export function pressureLockSql(): SQL {
  return sql`SELECT pg_advisory_xact_lock(${PRESSURE_LOCK_KEY})`;
}
