import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Mailing } from '../../../common/mailings';
import { newId } from '../../lib/ids';
import { pgTextArray } from '../../lib/pg-array';
import type { TestApp, TestClient } from '../../test/app';
import { waitForTask } from '../../test/imports';
import { multipartBody } from '../../test/multipart';
import { refreshRecordCounts } from './mailing.queries';

// Test helpers for mailings: what the selection engine would allocate, made directly.

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** An API caller with a session cookie. */
export function caller(t: TestApp, cookie: string) {
  return (method: Method, url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { cookie } });
}

/** Makes a campaign through the API; returns its id. */
export async function makeCampaign(t: TestApp, cookie: string, name = 'Campagne'): Promise<string> {
  const res = await caller(t, cookie)('POST', '/api/campaigns', { name });
  expect(res.statusCode, res.body).toBe(200);
  return res.json()._id;
}

/** Makes a mailing through the API; returns it. */
export async function makeMailing(
  t: TestApp,
  cookie: string,
  campaignId: string,
  body: Record<string, unknown> = {},
): Promise<Mailing> {
  const res = await caller(t, cookie)('POST', `/api/campaigns/${campaignId}/mailings`, {
    name: 'Verzending',
    plannedSend: '2030-01-09T10:00:00Z',
    ...body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Inserts addresses with unique e-mails (or the given ones); returns their ids in order. */
export async function makeAddresses(t: TestApp, count: number, emails?: string[]): Promise<number[]> {
  const tag = crypto.randomBytes(4).toString('hex');
  const list = emails ?? Array.from({ length: count }, (_, i) => `a${i}.${tag}@voorbeeld.nl`);
  const res = await t.database.db.execute<{ id: number }>(sql`
    INSERT INTO addresses (email, domain)
    SELECT e, split_part(e, '@', 2) FROM unnest(${pgTextArray(list)}::text[]) WITH ORDINALITY AS u(e, n) ORDER BY n
    RETURNING id`);
  return res.rows.map((r) => Number(r.id));
}

/**
 * Allocates addresses to a mailing as a new selection, as the selection engine would: per address
 * its dataset and category (defaults: one dataset id 'ds', category 'new'); returns the selection id.
 */
export async function allocate(
  t: TestApp,
  mailingId: string,
  addressIds: number[],
  options: { datasetId?: string | ((i: number) => string); category?: string | ((i: number) => string) } = {},
): Promise<string> {
  const db = t.database.db;
  const selectionId = newId();
  const [{ campaign_id }] = (
    await db.execute<{ campaign_id: string }>(sql`SELECT campaign_id FROM mailings WHERE id = ${mailingId}`)
  ).rows;
  await db.execute(
    sql`INSERT INTO selections (id, mailing_id, campaign_id, description) VALUES (${selectionId}, ${mailingId}, ${campaign_id}, 'test')`,
  );
  const pick = <T>(v: T | ((i: number) => T) | undefined, i: number, d: T) =>
    v === undefined ? d : typeof v === 'function' ? (v as (i: number) => T)(i) : v;
  const datasets = addressIds.map((_, i) => pick(options.datasetId, i, 'ds'));
  const categories = addressIds.map((_, i) => pick(options.category, i, 'new'));
  await db.execute(sql`
    INSERT INTO mailing_addresses (mailing_id, address_id, dataset_id, selection_id, category)
    SELECT ${mailingId}, a, d, ${selectionId}, c
    FROM unnest(${pgTextArray(addressIds.map(String))}::bigint[], ${pgTextArray(datasets)}::text[], ${pgTextArray(categories)}::text[]) AS u(a, d, c)`);
  await refreshRecordCounts(db, mailingId);
  return selectionId;
}

/** Adds result events of a mailing directly (the results import is tested on its own). */
export async function addResults(
  t: TestApp,
  mailingId: string,
  events: { addressId: number; event: string; at?: string }[],
): Promise<void> {
  for (const e of events) {
    await t.database.db.execute(sql`
      INSERT INTO mailing_results (mailing_id, address_id, event, at)
      VALUES (${mailingId}, ${e.addressId}, ${e.event}, ${e.at ?? '2030-01-10T10:00:00Z'})`);
  }
}

/** The address ids a mailing holds, ascending. */
export async function heldBy(t: TestApp, mailingId: string): Promise<number[]> {
  const res = await t.database.db.execute<{ address_id: number }>(
    sql`SELECT address_id FROM mailing_addresses WHERE mailing_id = ${mailingId} ORDER BY address_id`,
  );
  return res.rows.map((r) => Number(r.address_id));
}

/**
 * Imports a results file (`content`, named resultaten.csv) into a mailing through the API as the
 * test's user and waits for its task, expecting the upload accepted and the task done; returns the task.
 */
export async function importResultsFile(t: TestClient, campaign: string, mailing: string, content: string) {
  const body = multipartBody({}, { name: 'resultaten.csv', content });
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/campaigns/${campaign}/mailings/${mailing}/results`,
    payload: body.payload,
    headers: { ...body.headers, cookie: t.cookie },
  });
  expect(res.statusCode, res.body).toBe(200);
  const task = await waitForTask(t, t.cookie, res.json().task._id);
  expect(task.state, task.error).toBe('done');
  return task as { _id: string; result: Record<string, unknown> };
}
