import {
  issuedUrl,
  STATEMENT_ROUTES,
  StatementDetailSchema,
  StatementMonthSchema,
  type StatementRef,
  statementRefQuery,
} from '../../../common/statements';
import { http } from '../../lib/http';

/** The TanStack Query key of a month's statements (and, below it, of every statement's detail). */
export const statementsKey = (month: string) => ['statements', month] as const;
/** The TanStack Query key of a proposed statement. */
export const proposedKey = (ref: StatementRef) =>
  ['statements', ref.month, 'proposed', ref.partner, ref.dataset ?? ''] as const;
/** The TanStack Query key of an issued statement. */
export const issuedKey = (id: number) => ['statements', 'issued', id] as const;

/** GET /statements?month=: the month's proposed and issued statements. */
export const listStatements = (month: string) =>
  http.get(`${STATEMENT_ROUTES.list}?${new URLSearchParams({ month })}`, StatementMonthSchema);
/** GET /statements/proposed: a proposed statement with its lines, as it would be issued now. */
export const getProposed = (ref: StatementRef) =>
  http.get(`${STATEMENT_ROUTES.proposed}?${statementRefQuery(ref)}`, StatementDetailSchema);
/** GET /statements/issued/{id}: an issued statement with its frozen lines. */
export const getIssued = (id: number) => http.get(issuedUrl('issued', id), StatementDetailSchema);
/** POST /statements: issues a proposed statement (the next number); answers the issued statement. */
export const issueStatement = (ref: StatementRef) =>
  http.post(STATEMENT_ROUTES.issue, ref, StatementDetailSchema);

/** The browser URL of an issued statement's PDF. */
export const issuedPdfUrl = (id: number) => `/api${issuedUrl('issuedPdf', id)}`;
/** The browser URL of an issued statement's CSV for bookkeeping. */
export const issuedCsvUrl = (id: number) => `/api${issuedUrl('issuedCsv', id)}`;
/** The browser URL of a proposed statement's draft CSV. */
export const proposedCsvUrl = (ref: StatementRef) =>
  `/api${STATEMENT_ROUTES.proposedCsv}?${statementRefQuery(ref)}`;
