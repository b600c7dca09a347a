import { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import {
  type MappingEntry,
  StoredMappingListSchema,
  UniqueValueSchema,
  ValueMappedSchema,
  ValueMappingSchema,
} from '../../../common/mappings';
import { RecordPreviewSchema } from '../../../common/record-preview';
import { TaskStartedSchema } from '../../../common/tasks';
import { http, uploadFile } from '../../lib/http';

const enc = encodeURIComponent;
const d = (partnerId: string, datasetId: string) => `/datasets/${enc(partnerId)}/${enc(datasetId)}`;

/** The TanStack Query key of the column names of a dataset's uploaded file. */
export const headersKey = (partnerId: string, datasetId: string) =>
  ['datasets', partnerId, datasetId, 'headers'] as const;
/** The TanStack Query key of a dataset's mapping. */
export const mappingsKey = (partnerId: string, datasetId: string) =>
  ['datasets', partnerId, datasetId, 'mappings'] as const;
/** The TanStack Query key of the unique values of one column of a dataset's file. */
export const uniqueValuesKey = (partnerId: string, datasetId: string, field: string) =>
  ['datasets', partnerId, datasetId, 'unique-values', field] as const;
/** The TanStack Query key of the attributes that have value mappings. */
export const valueMappedKey = ['valuemapped'] as const;
/** The TanStack Query key of the mapped values of one attribute with the datasets that produce them. */
export const valueMappedFieldKey = (field: string) => ['valuemapped', field] as const;

/** Fetches the column names of a dataset's uploaded file (GET /api/datasets/:partnerId/:datasetId/headers). */
export const getHeaders = (partnerId: string, datasetId: string) =>
  http.get(`${d(partnerId, datasetId)}/headers`, z.array(z.string()));
/** Fetches a dataset's mapping as stored (GET /api/datasets/:partnerId/:datasetId/mappings). */
export const getMappings = (partnerId: string, datasetId: string) =>
  http.get(`${d(partnerId, datasetId)}/mappings`, StoredMappingListSchema);
/** Saves a dataset's mapping (PUT /api/datasets/:partnerId/:datasetId/mappings). */
export const saveMappings = (partnerId: string, datasetId: string, body: MappingEntry[]) =>
  http.put(`${d(partnerId, datasetId)}/mappings`, body, MessageSchema);
/** Fetches the unique values of one column of a dataset's file with their counts (GET /api/datasets/:partnerId/:datasetId/:field/unique-values). */
export const getUniqueValues = (partnerId: string, datasetId: string, field: string) =>
  http.get(`${d(partnerId, datasetId)}/${enc(field)}/unique-values`, z.array(UniqueValueSchema));
/** Starts applying the saved mapping to a dataset's records ('Mapping doorvoeren') and returns the task (POST /api/datasets/:partnerId/:datasetId/remap). */
export const startRemap = (partnerId: string, datasetId: string) =>
  http.post(`${d(partnerId, datasetId)}/remap`, {}, TaskStartedSchema);

/** The value mappings every dataset has for an attribute; `copy` gives one row per original. */
export const getValueMappings = (mapped: string, copy: boolean) =>
  http.get(`/value-mappings/${enc(mapped)}${copy ? '/copy' : ''}`, z.array(ValueMappingSchema));

/** Fetches the attributes that have value mappings (GET /api/valuemapped). */
export const listValueMappedFields = () => http.get('/valuemapped', z.array(z.string()));
/** Fetches the mapped values of one attribute with the datasets that produce them (GET /api/valuemapped/:field). */
export const listValueMapped = (field: string) =>
  http.get(`/valuemapped/${enc(field)}`, z.array(ValueMappedSchema));

/** Uploads a CSV into a dataset (addressed by its name) and returns the import task. */
export const uploadImport = (
  partnerId: string,
  datasetName: string,
  file: File,
  onProgress: (percent: number) => void,
) => {
  const form = new FormData();
  form.append('file', file, file.name);
  return uploadFile(`/import/${enc(partnerId)}/${enc(datasetName)}`, form, TaskStartedSchema, onProgress);
};

/** Uploads a CSV whose addresses are removed from a dataset; the e-mail column name goes before the file. */
export const uploadDeleteAll = (
  partnerId: string,
  datasetId: string,
  emailColumn: string,
  file: File,
  onProgress: (percent: number) => void,
) => {
  const form = new FormData();
  form.append('emailColumn', emailColumn);
  form.append('file', file, file.name);
  return uploadFile(`/deleteall/${enc(partnerId)}/${enc(datasetId)}`, form, TaskStartedSchema, onProgress);
};

/** Screen paths of the import area, URL-encoded. */
export const importPaths = {
  upload: (partnerId?: string, datasetId?: string) =>
    ['/upload', partnerId, datasetId]
      .filter((s) => s !== undefined && s !== '')
      .map((s, i) => (i === 0 ? s : enc(s!)))
      .join('/'),
  deleteAll: (partnerId?: string, datasetId?: string) =>
    ['/deleteall', partnerId, datasetId]
      .filter((s) => s !== undefined && s !== '')
      .map((s, i) => (i === 0 ? s : enc(s!)))
      .join('/'),
  headers: (partnerId: string, datasetId: string) =>
    `/partners/${enc(partnerId)}/datasets/${enc(datasetId)}/headers`,
  values: (partnerId: string, datasetId: string, field: string, mapped?: string) =>
    `/partners/${enc(partnerId)}/datasets/${enc(datasetId)}/${enc(field)}/mappings${mapped ? `?mapped=${enc(mapped)}` : ''}`,
  datasets: (partnerId: string) => `/partners/${enc(partnerId)}/datasets`,
};

/** The mapping screen's preview: a sample of the dataset's records (refreshed with the dataset's queries). */
export const previewKey = (partnerId: string, datasetId: string) =>
  ['datasets', partnerId, datasetId, 'preview'] as const;
/** Fetches a sample of a dataset's records for the mapping screen's preview (GET /api/datasets/:partnerId/:datasetId/preview). */
export const getRecordPreview = (partnerId: string, datasetId: string) =>
  http.get(`${d(partnerId, datasetId)}/preview`, RecordPreviewSchema);
