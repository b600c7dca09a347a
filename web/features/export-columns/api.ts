import { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import { type ExportColumnCreate, ExportColumnSchema } from '../../../common/export-columns';
import { GlobalMappingsSchema } from '../../../common/global-attributes';
import { http } from '../../lib/http';

export const exportColumnsKey = ['export-columns'] as const;
export const globalMappingsKey = ['global-mappings'] as const;

export const listExportColumns = () => http.get('/export/columns', z.array(ExportColumnSchema));
export const createExportColumn = (body: ExportColumnCreate) =>
  http.post('/export/columns', body, ExportColumnSchema);
export const deleteExportColumn = (column: string) =>
  http.delete(`/export/columns?column=${encodeURIComponent(column)}`, MessageSchema);
export const listGlobalMappings = () => http.get('/global-mappings', GlobalMappingsSchema);
