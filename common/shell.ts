import { z } from 'zod';

export const VersionSchema = z.object({ api: z.string().nullable(), updater: z.string().nullable() });
export type Version = z.infer<typeof VersionSchema>;

export const ConnectorStatusSchema = z.object({ status: z.string() });
export type ConnectorStatus = z.infer<typeof ConnectorStatusSchema>;
