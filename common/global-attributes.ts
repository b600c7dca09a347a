import { z } from 'zod';

/** The alert messages of the screens that fetch the global attributes. */
export const GlobalAttributeMessages = {
  fetchFailed: 'Unable to fetch attributes',
} as const;

/** GET /api/global-mappings: the names of the shared attributes that file columns map onto, sorted. */
export const GlobalMappingsSchema = z.array(z.string());
