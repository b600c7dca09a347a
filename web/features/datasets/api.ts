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

export const datasetsKey = (partnerId: string) => ['datasets', partnerId] as const;
export const datasetKey = (partnerId: string, datasetId: string) =>
  ['datasets', partnerId, datasetId] as const;
export const testPersonsKey = (partnerId: string, datasetId: string) =>
  ['datasets', partnerId, datasetId, 'testpersons'] as const;
export const testPersonKey = (partnerId: string, datasetId: string, personId: string) =>
  ['datasets', partnerId, datasetId, 'testpersons', personId] as const;

const enc = encodeURIComponent;
const p = (partnerId: string) => `/datasets/${enc(partnerId)}`;
const d = (partnerId: string, datasetId: string) => `${p(partnerId)}/${enc(datasetId)}`;

/** The browser URL of a dataset's CSV download (a plain link, streamed by the server). */
export const datasetCsvUrl = (partnerId: string, datasetId: string) => `/api${d(partnerId, datasetId)}/csv`;

export const listDatasets = (partnerId: string) => http.get(p(partnerId), z.array(DatasetListItemSchema));
export const getDataset = (partnerId: string, datasetId: string) =>
  http.get(d(partnerId, datasetId), DatasetSchema);
export const createDataset = (partnerId: string, body: DatasetInput) =>
  http.post(p(partnerId), body, DatasetSchema);
export const updateDataset = (partnerId: string, datasetId: string, body: DatasetInput) =>
  http.put(d(partnerId, datasetId), body, DatasetSchema);
export const deleteDataset = (partnerId: string, datasetId: string) =>
  http.delete(d(partnerId, datasetId), MessageSchema);
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
export const deleteRate = (
  partnerId: string,
  datasetId: string,
  type: RateType,
  current: { start: string; end: string },
) => http.delete(`${d(partnerId, datasetId)}/${type}/${range(current.start, current.end)}`, MessageSchema);

const tp = (partnerId: string, datasetId: string) => `${d(partnerId, datasetId)}/testpersons`;
export const listTestPersons = (partnerId: string, datasetId: string) =>
  http.get(tp(partnerId, datasetId), z.array(TestPersonSchema));
export const getTestPerson = (partnerId: string, datasetId: string, personId: string) =>
  http.get(`${tp(partnerId, datasetId)}/${enc(personId)}`, TestPersonSchema);
export const createTestPerson = (partnerId: string, datasetId: string, body: TestPersonInput) =>
  http.post(tp(partnerId, datasetId), body, TestPersonSchema);
export const updateTestPerson = (
  partnerId: string,
  datasetId: string,
  personId: string,
  body: TestPersonInput,
) => http.put(`${tp(partnerId, datasetId)}/${enc(personId)}`, body, TestPersonSchema);
export const deleteTestPerson = (partnerId: string, datasetId: string, personId: string) =>
  http.delete(`${tp(partnerId, datasetId)}/${enc(personId)}`, MessageSchema);
