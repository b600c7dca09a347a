import { z } from 'zod';

export const GlobalAttributeMessages = {
  fetchFailed: 'Unable to fetch attributes',
} as const;

/** GET /api/global-mappings: the names of the shared attributes that file columns map onto, sorted. */
export const GlobalMappingsSchema = z.array(z.string());
