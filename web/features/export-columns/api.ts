import { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import { type ExportColumnCreate, ExportColumnSchema } from '../../../common/export-columns';
import { GlobalMappingsSchema } from '../../../common/global-attributes';
import { http } from '../../lib/http';

/** The TanStack Query key of the list of export columns. */
export const exportColumnsKey = ['export-columns'] as const;
/** The TanStack Query key of the names of the global attributes. */
export const globalMappingsKey = ['global-mappings'] as const;

/** Fetches the export columns (GET /api/export/columns). */
export const listExportColumns = () => http.get('/export/columns', z.array(ExportColumnSchema));
/** Adds an export column and returns it (POST /api/export/columns). */
export const createExportColumn = (body: ExportColumnCreate) =>
  http.post('/export/columns', body, ExportColumnSchema);
/** Deletes an export column by its name (DELETE /api/export/columns?column=). */
export const deleteExportColumn = (column: string) =>
  http.delete(`/export/columns?column=${encodeURIComponent(column)}`, MessageSchema);
/** Fetches the names of the global attributes that file columns map onto (GET /api/global-mappings). */
export const listGlobalMappings = () => http.get('/global-mappings', GlobalMappingsSchema);
