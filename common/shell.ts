import { z } from 'zod';

export const VersionSchema = z.object({ api: z.string().nullable(), updater: z.string().nullable() });
export type Version = z.infer<typeof VersionSchema>;

export const ConnectorStatusSchema = z.object({ status: z.string() });
export type ConnectorStatus = z.infer<typeof ConnectorStatusSchema>;

/** The custom stylesheet of this environment (spec 001 §2); null when none is configured. */
export const StylesheetSchema = z.object({ url: z.string().nullable() });
export type Stylesheet = z.infer<typeof StylesheetSchema>;
