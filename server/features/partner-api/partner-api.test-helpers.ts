import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { columnMapping, type MappingEntry } from '../../../common/mappings';
import type { TestClient } from '../../test/app';
import { makeDataset, makePartner } from '../../test/factories';
import { multipartBody } from '../../test/multipart';
import { datasets } from '../datasets/dataset.table';
import { saveDatasetMappings } from '../imports/mapping.queries';

/** The partner API's test helpers on one test app: keyed datasets, calls with a key, what was stored. */
export function partnerApiHelpers(t: TestClient) {
  /** A dataset with a fresh API key and a mapping; returns its id, name, partner and key. */
  async function keyedDataset(
    mappings: MappingEntry[] = [columnMapping('voornaam', 'voornaam'), columnMapping('postcode', 'postcode')],
    emailColumnName?: string,
  ) {
    const partnerId = await makePartner(t.db);
    const name = `api${crypto.randomBytes(3).toString('hex')}`;
    const id = await makeDataset(t.db, partnerId, { name, emailColumnName });
    const key = crypto.randomBytes(24).toString('hex');
    await t.db.update(datasets).set({ apiKey: key }).where(eq(datasets.id, id));
    await saveDatasetMappings(t.db, id, mappings);
    return { id, name, partnerId, key };
  }

  /** A call with only the X-API-Key (no session cookie); a string or Buffer body is sent as is. */
  function call(
    key: string | undefined,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    return t.app.inject({
      method,
      url: `/partner-api${url}`,
      headers: { ...(key === undefined ? {} : { 'x-api-key': key }), ...headers },
      ...(body === undefined
        ? {}
        : typeof body === 'string' || Buffer.isBuffer(body)
          ? { payload: body }
          : { payload: body as object }),
    });
  }

  /** The dataset's records (address, attrs, raw), by address. */
  async function recordsOf(datasetId: string) {
    const result = await t.db.execute<{ email: string; attrs: Record<string, string>; raw: string[] }>(sql`
      SELECT a.email, r.attrs, r.raw FROM records r JOIN addresses a ON a.id = r.address_id
      WHERE r.dataset_id = ${datasetId} ORDER BY a.email`);
    return result.rows;
  }

  /** The dataset's stored record_count. */
  async function recordCount(datasetId: string): Promise<number> {
    const [row] = await t.db
      .select({ n: datasets.recordCount })
      .from(datasets)
      .where(eq(datasets.id, datasetId));
    return Number(row.n);
  }

  /** Polls a CSV task until it is done or failed; returns it. */
  async function waitForTask(key: string, id: string) {
    for (let i = 0; i < 100; i++) {
      const res = await call(key, 'GET', `/partnerlist/csv/${id}`);
      if (res.json().state === 'done' || res.json().state === 'failed') return res.json();
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('task did not finish');
  }

  /** Posts a CSV file with fields; returns the answer. */
  function postCsv(
    key: string,
    content: string | Buffer,
    fields: Record<string, string> = {},
    name = 'leden.csv',
  ) {
    const { payload, headers } = multipartBody(fields, { name, content });
    return call(key, 'POST', '/partnerlist/csv', payload, headers);
  }

  /** Posts a CSV file and returns its finished task (polled when the call answered 202). */
  async function importCsv(key: string, content: string | Buffer, fields: Record<string, string> = {}) {
    const res = await postCsv(key, content, fields);
    return res.statusCode === 202 ? waitForTask(key, res.json().id) : res.json();
  }

  return { keyedDataset, call, recordsOf, recordCount, waitForTask, postCsv, importCsv };
}
