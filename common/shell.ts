import { z } from 'zod';

export const VersionSchema = z.object({ api: z.string().nullable(), updater: z.string().nullable() });
export type Version = z.infer<typeof VersionSchema>;

export const ConnectorStatusSchema = z.object({ status: z.string() });
export type ConnectorStatus = z.infer<typeof ConnectorStatusSchema>;

const CONNECTOR_STATUS_LABELS: Record<string, string> = { idle: 'vrij', busy: 'bezig', loading: 'laden...' };

/**
 * The connector's status as staff read it (spec 001 §4: idle, busy or anything else, which is
 * shown red): 'vrij', 'bezig', and 'storing' for anything else (issue 29 §13: it showed the
 * status word as sent).
 */
export function connectorStatusLabel(status: string): string {
  return Object.hasOwn(CONNECTOR_STATUS_LABELS, status) ? CONNECTOR_STATUS_LABELS[status] : 'storing';
}

/** The custom stylesheet of this environment (spec 001 §2); null when none is configured. */
export const StylesheetSchema = z.object({ url: z.string().nullable() });
export type Stylesheet = z.infer<typeof StylesheetSchema>;
