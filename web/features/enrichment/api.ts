import { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import { type EnrichmentColumnInput, EnrichmentFileSchema } from '../../../common/enrichment';
import { TaskStartedSchema } from '../../../common/tasks';
import { http, uploadFile } from '../../lib/http';

/** The TanStack Query key of the list of enrichment files. */
export const enrichmentFilesKey = ['enrichment', 'files'] as const;

/** Fetches the enrichment files (GET /api/enrichment/files). */
export const listEnrichmentFiles = () => http.get('/enrichment/files', z.array(EnrichmentFileSchema));
/** Deletes an enrichment file by its name, given as ?name= so that any name arrives ('..' too). */
export const deleteEnrichmentFile = (name: string) =>
  http.delete(`/enrichment/files?name=${encodeURIComponent(name)}`, MessageSchema);

/** Uploads an enrichment file (spec 001 §7: name, file, mappings as JSON); returns the started task. */
export function uploadEnrichmentFile(
  name: string,
  columns: EnrichmentColumnInput[],
  file: File,
  onProgress: (percent: number) => void,
) {
  const form = new FormData();
  form.append('name', name);
  form.append('mappings', JSON.stringify(columns));
  form.append('file', file, file.name);
  return uploadFile('/enrichment/files', form, TaskStartedSchema, onProgress);
}
