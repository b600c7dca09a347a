import { AvgLookupSchema } from '../../../common/avg';
import { type AvgEraseBody, AvgErasureSchema } from '../../../common/avg-erasure';
import { TaskStartedSchema } from '../../../common/tasks';
import { http, uploadFile } from '../../lib/http';

/** The TanStack Query key of the look-up of one (normalised) e-mail address. */
export const avgLookupKey = (email: string) => ['avg-lookup', email] as const;

/** Looks up everything held on an e-mail address (GET /api/avg/lookup). */
export const lookUpAvg = (email: string) =>
  http.get(`/avg/lookup?email=${encodeURIComponent(email)}`, AvgLookupSchema);

/** The URL of the look-up as a download: `json` or `csv` (GET /api/avg/lookup.json, lookup.csv). */
export const avgDownloadUrl = (email: string, ext: 'json' | 'csv') =>
  `/api/avg/lookup.${ext}?email=${encodeURIComponent(email)}`;

/** Erases one address (AVG art. 17) and returns what went (POST /api/avg/erase); 409 while an upload holds the lock. */
export const eraseAvg = (body: AvgEraseBody) => http.post('/avg/erase', body, AvgErasureSchema);

/** Uploads a file of addresses to erase (POST /api/avg/erase-file); returns the started `avg-erase` task. */
export function uploadAvgEraseFile(file: File, onProgress: (percent: number) => void) {
  const form = new FormData();
  form.append('file', file, file.name);
  return uploadFile('/avg/erase-file', form, TaskStartedSchema, onProgress);
}
