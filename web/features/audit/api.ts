import { type AuditFilter, AuditLogPageSchema } from '../../../common/audit-log';
import { http } from '../../lib/http';

/** The audit log's filters as the screen holds them: each empty when not used. */
export type AuditLogFilters = { [K in keyof AuditFilter]-?: string };

/** The TanStack Query key of one page of the audit log with its filters. */
export const auditLogKey = (filters: AuditLogFilters, page: number, pageSize: number) =>
  ['audit-log', filters, page, pageSize] as const;

/** The query string of the filters that are set (empty ones left out). */
export function auditQuery(filters: AuditLogFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...filters, ...extra })) if (value) params.set(name, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Fetches one page of the audit log, newest first (GET /api/audit-log). */
export const listAuditLog = (filters: AuditLogFilters, page: number, pageSize: number) =>
  http.get(
    `/audit-log${auditQuery(filters, { page: String(page), pageSize: String(pageSize) })}`,
    AuditLogPageSchema,
  );

/** The URL of the audit log download with the filters (GET /api/audit-log.csv). */
export const auditLogCsvUrl = (filters: AuditLogFilters) => `/api/audit-log.csv${auditQuery(filters)}`;
