import { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import {
  type Commission,
  CommissionSchema,
  type DatasetInput,
  DatasetListItemSchema,
  DatasetSchema,
  type Participation,
  ParticipationSchema,
  type RateType,
  type TestPersonInput,
  TestPersonSchema,
} from '../../../common/datasets';
import { http } from '../../lib/http';

/** The TanStack Query key of a partner's dataset list. */
export const datasetsKey = (partnerId: string) => ['datasets', partnerId] as const;
/** The TanStack Query key of one dataset. */
export const datasetKey = (partnerId: string, datasetId: string) =>
  ['datasets', partnerId, datasetId] as const;
/** The TanStack Query key of a dataset's test persons. */
export const testPersonsKey = (partnerId: string, datasetId: string) =>
  ['datasets', partnerId, datasetId, 'testpersons'] as const;
/** The TanStack Query key of one test person of a dataset. */
export const testPersonKey = (partnerId: string, datasetId: string, personId: string) =>
  ['datasets', partnerId, datasetId, 'testpersons', personId] as const;

const enc = encodeURIComponent;
const p = (partnerId: string) => `/datasets/${enc(partnerId)}`;
const d = (partnerId: string, datasetId: string) => `${p(partnerId)}/${enc(datasetId)}`;

/** The browser URL of a dataset's CSV download (a plain link, streamed by the server). */
export const datasetCsvUrl = (partnerId: string, datasetId: string) => `/api${d(partnerId, datasetId)}/csv`;

/** Fetches a partner's datasets (GET /api/datasets/:partnerId). */
export const listDatasets = (partnerId: string) => http.get(p(partnerId), z.array(DatasetListItemSchema));
/** Fetches one dataset with its key, rates and test persons (GET /api/datasets/:partnerId/:datasetId). */
export const getDataset = (partnerId: string, datasetId: string) =>
  http.get(d(partnerId, datasetId), DatasetSchema);
/** Creates a dataset for a partner and returns it (POST /api/datasets/:partnerId). */
export const createDataset = (partnerId: string, body: DatasetInput) =>
  http.post(p(partnerId), body, DatasetSchema);
/** Saves a dataset's fields and returns it (PUT /api/datasets/:partnerId/:datasetId). */
export const updateDataset = (partnerId: string, datasetId: string, body: DatasetInput) =>
  http.put(d(partnerId, datasetId), body, DatasetSchema);
/** Deletes a dataset (DELETE /api/datasets/:partnerId/:datasetId). */
export const deleteDataset = (partnerId: string, datasetId: string) =>
  http.delete(d(partnerId, datasetId), MessageSchema);
/** Makes a new API key for a dataset and returns the dataset (POST /api/datasets/:partnerId/:datasetId/key). */
export const rotateDatasetKey = (partnerId: string, datasetId: string) =>
  http.post(`${d(partnerId, datasetId)}/key`, {}, DatasetSchema);

const RATE_OUT: Record<RateType, z.ZodType<Commission | Participation>> = {
  commission: CommissionSchema,
  participation: ParticipationSchema,
};
// The API names the number `amount` (commission) or `factor` (participation).
const rateBody = (type: RateType, entry: { start?: string; end: string; value: number }) => ({
  ...(entry.start ? { start: entry.start } : {}),
  end: entry.end,
  [type === 'commission' ? 'amount' : 'factor']: entry.value,
});
const range = (start: string, end: string) => `${enc(start)}/${enc(end)}`;

/** Adds a commission or participation period to a dataset (POST /api/datasets/:partnerId/:datasetId/:type). */
export const createRate = (
  partnerId: string,
  datasetId: string,
  type: RateType,
  entry: { start: string; end: string; value: number },
) => http.post(`${d(partnerId, datasetId)}/${type}`, rateBody(type, entry), RATE_OUT[type]);
/** Updates the entry addressed by its current start and end. */
export const updateRate = (
  partnerId: string,
  datasetId: string,
  type: RateType,
  current: { start: string; end: string },
  entry: { end: string; value: number },
) =>
  http.put(
    `${d(partnerId, datasetId)}/${type}/${range(current.start, current.end)}`,
    rateBody(type, { start: current.start, ...entry }),
    RATE_OUT[type],
  );
/** Deletes the commission or participation period addressed by its start and end (DELETE /api/datasets/:partnerId/:datasetId/:type/:start/:end). */
export const deleteRate = (
  partnerId: string,
  datasetId: string,
  type: RateType,
  current: { start: string; end: string },
) => http.delete(`${d(partnerId, datasetId)}/${type}/${range(current.start, current.end)}`, MessageSchema);

const tp = (partnerId: string, datasetId: string) => `${d(partnerId, datasetId)}/testpersons`;
/** Fetches a dataset's test persons (GET /api/datasets/:partnerId/:datasetId/testpersons). */
export const listTestPersons = (partnerId: string, datasetId: string) =>
  http.get(tp(partnerId, datasetId), z.array(TestPersonSchema));
/** Fetches one test person of a dataset (GET /api/datasets/:partnerId/:datasetId/testpersons/:personId). */
export const getTestPerson = (partnerId: string, datasetId: string, personId: string) =>
  http.get(`${tp(partnerId, datasetId)}/${enc(personId)}`, TestPersonSchema);
/** Adds a test person to a dataset and returns it (POST /api/datasets/:partnerId/:datasetId/testpersons). */
export const createTestPerson = (partnerId: string, datasetId: string, body: TestPersonInput) =>
  http.post(tp(partnerId, datasetId), body, TestPersonSchema);
/** Saves a test person of a dataset and returns it (PUT /api/datasets/:partnerId/:datasetId/testpersons/:personId). */
export const updateTestPerson = (
  partnerId: string,
  datasetId: string,
  personId: string,
  body: TestPersonInput,
) => http.put(`${tp(partnerId, datasetId)}/${enc(personId)}`, body, TestPersonSchema);
/** Deletes a test person of a dataset (DELETE /api/datasets/:partnerId/:datasetId/testpersons/:personId). */
export const deleteTestPerson = (partnerId: string, datasetId: string, personId: string) =>
  http.delete(`${tp(partnerId, datasetId)}/${enc(personId)}`, MessageSchema);
