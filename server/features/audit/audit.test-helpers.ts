import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestClient } from '../../test/app';

/** An audit_log row as the tests read it back. */
export type AuditEntry = {
  kind: string;
  username: string | null;
  ip: string | null;
  subject: string | null;
  rows: number | null;
  details: Record<string, unknown>;
};

/** Reads the audit log of the test app `t`: every entry of a kind, or the latest (which must exist). */
export function auditReader(t: TestClient) {
  async function entries(kind: string): Promise<AuditEntry[]> {
    const res = await t.db.execute<AuditEntry & { rows: string | number | null }>(
      sql`SELECT kind, username, ip, subject, rows, details FROM audit_log WHERE kind = ${kind} ORDER BY id`,
    );
    return res.rows.map((r) => ({ ...r, rows: r.rows === null ? null : Number(r.rows) }));
  }
  async function last(kind: string): Promise<AuditEntry> {
    const all = await entries(kind);
    expect(all.length, `an entry of kind ${kind}`).toBeGreaterThan(0);
    return all[all.length - 1];
  }
  return { entries, last };
}
