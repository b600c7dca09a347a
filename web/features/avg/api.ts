import { AvgLookupSchema } from '../../../common/avg';
import { http } from '../../lib/http';

/** The TanStack Query key of the look-up of one (normalised) e-mail address. */
export const avgLookupKey = (email: string) => ['avg-lookup', email] as const;

/** Looks up everything held on an e-mail address (GET /api/avg/lookup). */
export const lookUpAvg = (email: string) =>
  http.get(`/avg/lookup?email=${encodeURIComponent(email)}`, AvgLookupSchema);

/** The URL of the look-up as a download: `json` or `csv` (GET /api/avg/lookup.json, lookup.csv). */
export const avgDownloadUrl = (email: string, ext: 'json' | 'csv') =>
  `/api/avg/lookup.${ext}?email=${encodeURIComponent(email)}`;
