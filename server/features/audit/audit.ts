import type { FastifyRequest } from 'fastify';
import type { AuditKind } from '../../../common/audit';
import type { DbOrTx } from '../../db/client';
import { auditLog } from './audit.table';

/** What an audit entry says (AuditEntrySchema without its id and time, which the table gives). */
export interface AuditInput {
  kind: AuditKind;
  /** The user who acted; null for a partner API key or the system. */
  username: string | null;
  /** The client's address. */
  ip: string | null;
  /** What it was about: an id or a name (a dataset, a mailing, a user, a file). */
  subject?: string | null;
  /** The rows concerned, where that says something (a download, an import, an erasure). */
  rows?: number | null;
  /** Further facts; never a password, token, key or decrypted value. */
  details?: Record<string, unknown>;
}

/**
 * Appends an entry to the audit log, in the caller's transaction when it passes one (so an action
 * rolled back leaves no entry, and one committed always has its entry).
 */
export async function recordAudit(db: DbOrTx, entry: AuditInput): Promise<void> {
  await db.insert(auditLog).values({
    kind: entry.kind,
    username: entry.username,
    ip: entry.ip,
    subject: entry.subject ?? null,
    rows: entry.rows ?? null,
    details: entry.details ?? {},
  });
}

/** Who and from where, of a request: its logged-in user's name (null on a public route) and its IP. */
export function actorOf(request: FastifyRequest): Pick<AuditInput, 'username' | 'ip'> {
  return { username: request.user?.username ?? null, ip: request.ip ?? null };
}
