import { type BlacklistAddResult, BlacklistMessages, normalizeDomain } from '../../../common/blacklists';
import type { Db } from '../../db/client';
import { HttpError } from '../../lib/http-errors';
import { type AuditInput, recordAudit } from '../audit/audit';
import { UploadMessages } from '../uploads/upload';
import type { StagedUpload } from '../uploads/upload.service';
import { findEmailColumn } from '../uploads/upload.service';
import { addBlacklistDomains } from './blacklist.queries';
import type { BlacklistImportPayload } from './blacklist-import.service';

/**
 * Adds domains to the blacklist (POST /blacklist/domains, the DNS check's 'Voeg toe aan
 * blacklist'): each normalized, invalid ones skipped, in the audit log as done by `who`; returns
 * read, saved (new), unchanged, skipped.
 */
export async function addDomains(
  db: Db,
  values: string[],
  who: Pick<AuditInput, 'username' | 'ip'>,
): Promise<BlacklistAddResult> {
  const domains = values.map(normalizeDomain).filter((d): d is string => d !== null);
  return db.transaction(async (tx) => {
    const { valid, saved } = domains.length ? await addBlacklistDomains(tx, domains) : { valid: 0, saved: 0 };
    const result = { read: values.length, saved, unchanged: valid - saved, skipped: values.length - valid };
    await recordAudit(tx, {
      kind: 'blacklist-changed',
      ...who,
      subject: 'domain',
      rows: saved,
      details: { operation: 'add', ...result },
    });
    return result;
  });
}

/**
 * A blacklist file that cannot be read (not .csv, empty, binary, a bad row) as spec 001 §5 words it
 * for that form ('Het bestand is fout of bevat geen kolom genaamd email', or '... niet alle
 * verplichte kolommen'), with the reason in brackets; an upload that broke off keeps its own message.
 */
export function badBlacklistFile(err: HttpError, wanted: Record<string, string>): HttpError {
  if ((Object.values(UploadMessages) as unknown[]).includes(err.message)) return err;
  const columns = Object.values(wanted);
  const message =
    columns.length > 1 ? BlacklistMessages.missingColumns : BlacklistMessages.noColumn(columns[0]);
  return new HttpError(400, `${message} (${err.message})`);
}

/**
 * The payload of a blacklist import for a staged file: the columns the form names (`wanted`: form
 * field → default column name), found case-insensitively on the first row. Throws HttpError 400
 * with the spec's message (spec 001 §5) when one is missing; the upload's task then fails.
 */
export function blacklistPayload(
  staged: StagedUpload,
  fields: Record<string, string>,
  wanted: Record<string, string>,
): BlacklistImportPayload {
  const entries = Object.entries(wanted);
  const columns = entries.map(([field, fallback]) => {
    const name = fields[field]?.trim() || fallback;
    if (name.length > 200) throw new HttpError(400, BlacklistMessages.columnTooLong);
    const index = findEmailColumn(staged.headers, name);
    if (index < 0) {
      throw new HttpError(
        400,
        entries.length > 1 ? BlacklistMessages.missingColumns : BlacklistMessages.noColumn(name),
      );
    }
    return index;
  });
  return { staging: staged.table, rows: staged.rows, columns };
}
