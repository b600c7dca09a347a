import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import {
  type ColumnMapping,
  type MappingEntry,
  columnMapping as newColumnMapping,
} from '../../common/mappings';
import { getDatasetMapping, saveDatasetMappings } from '../features/imports/mapping.queries';
import type { TestApp } from './app';
import { makeDataset, makePartner } from './factories';
import { multipartBody } from './multipart';

/** A partner and dataset made for an import test. */
export interface ImportSetup {
  partnerId: string;
  datasetId: string;
  name: string;
}

/** Makes a partner and a dataset with the given mapping; returns their ids and the dataset name. */
export async function setupDataset(
  t: TestApp,
  mappings: MappingEntry[] = [],
  emailColumnName?: string,
): Promise<ImportSetup> {
  const partnerId = await makePartner(t.database.db);
  const name = `ds${Math.random().toString(36).slice(2, 8)}`;
  const datasetId = await makeDataset(t.database.db, partnerId, { name, emailColumnName });
  if (mappings.length) await saveDatasetMappings(t.database.db, datasetId, mappings);
  return { partnerId, datasetId, name };
}

/** Posts a file to the upload route; returns the raw response. */
export function uploadFile(
  t: TestApp,
  cookie: string,
  s: ImportSetup,
  content: string | Buffer,
  fileName = 'bestand.csv',
) {
  const body = multipartBody({}, { name: fileName, content });
  return t.app.inject({
    method: 'POST',
    url: `/api/import/${s.partnerId}/${s.name}`,
    payload: body.payload,
    headers: { ...body.headers, cookie },
  });
}

/** Polls a task until done or failed; returns its JSON. */
export async function waitForTask(t: TestApp, cookie: string, id: string) {
  for (let i = 0; i < 1200; i++) {
    const task = (await t.app.inject({ method: 'GET', url: `/api/tasks/${id}`, headers: { cookie } })).json();
    if (task.state === 'done' || task.state === 'failed') return task;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('task did not finish');
}

/**
 * Uploads a file and waits for its import; returns the task result's counters of spec 000 §3 (read,
 * saved, skipped, deleted, unchanged). Fails the test otherwise, and when the skipped rows per
 * reason the result also holds (skipped-rows.test.ts checks them) do not add up to
 * `skipped`.
 */
export async function importFile(t: TestApp, cookie: string, s: ImportSetup, content: string | Buffer) {
  const res = await uploadFile(t, cookie, s, content);
  expect(res.statusCode, res.body).toBe(200);
  const task = await waitForTask(t, cookie, res.json().task._id);
  expect(task.state, task.error).toBe('done');
  const { skippedBy, ...counters } = task.result;
  expect(
    skippedBy.invalid + skippedBy.repeated + skippedBy.excluded + skippedBy.erased,
    'skipped rows per reason',
  ).toBe(counters.skipped);
  return counters;
}

/**
 * The records of a dataset with their e-mail, raw (as an object of the dataset's raw columns,
 * NULL values left out) and attrs, by e-mail.
 */
export async function recordsOf(t: TestApp, datasetId: string) {
  const { rawColumns } = await getDatasetMapping(t.database.db, datasetId);
  const rows = await t.database.db.execute<{
    email: string;
    raw: (string | null)[];
    attrs: Record<string, string>;
  }>(
    sql`SELECT a.email, r.raw, r.attrs FROM records r JOIN addresses a ON a.id = r.address_id
        WHERE r.dataset_id = ${datasetId} ORDER BY a.email`,
  );
  return rows.rows.map((r) => ({
    ...r,
    raw: Object.fromEntries(
      rawColumns.flatMap((c, i) =>
        r.raw[i] === null || r.raw[i] === undefined ? [] : [[c, r.raw[i] as string]],
      ),
    ) as Record<string, string>,
  }));
}

/** A column mapping with every option off unless given. */
export function columnMapping(
  field: string,
  mapped: string,
  options: Partial<MappingEntry> = {},
): MappingEntry {
  return newColumnMapping(field, mapped, options as Partial<ColumnMapping>);
}
