import { z } from 'zod';

/** The answer of GET /api/version: the API's version and the task worker's (null while it is not running). */
export const VersionSchema = z.object({ api: z.string().nullable(), updater: z.string().nullable() });
/** The API and updater versions, as VersionSchema parses them. */
export type Version = z.infer<typeof VersionSchema>;

/** The answer of GET /api/connector/status: 'idle', 'busy' or 'error'. */
export const ConnectorStatusSchema = z.object({ status: z.string() });
/** The connector status, as ConnectorStatusSchema parses it. */
export type ConnectorStatus = z.infer<typeof ConnectorStatusSchema>;

const CONNECTOR_STATUS_LABELS: Record<string, string> = { idle: 'vrij', busy: 'bezig', loading: 'laden...' };

/**
 * The connector's status as staff read it (spec 001 §4: idle, busy or anything else, which is
 * shown red): 'vrij', 'bezig', and 'storing' for anything else, not the
 * status word as sent.
 */
export function connectorStatusLabel(status: string): string {
  return Object.hasOwn(CONNECTOR_STATUS_LABELS, status) ? CONNECTOR_STATUS_LABELS[status] : 'storing';
}

/** The custom stylesheet of this environment (spec 001 §2); null when none is configured. */
export const StylesheetSchema = z.object({ url: z.string().nullable() });
/** The custom stylesheet's URL, as StylesheetSchema parses it. */
export type Stylesheet = z.infer<typeof StylesheetSchema>;
