import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { nameMessage, nameProblem } from '../../../common/names';
import { setupTestApp } from '../../test/app';
import { columnMapping, recordsOf, setupDataset, uploadFile } from '../../test/imports';
import { saveDatasetMappings } from './mapping.queries';

// The name rule of common/names.ts at the staff entry points where names are made: the columns of
// an uploaded file and the attributes a mapping saves (the partner API's are in
// partner-api.limits.test.ts, enrichment's in enrichment.routes.test.ts). Dutch messages.

const t = setupTestApp();

/** The Dutch message of the rule for a refused name. */
const refusal = (kind: 'field' | 'attribute', name: string) =>
  nameMessage(kind, name, nameProblem(name, kind)!);

describe('column names of an upload', () => {
  it('refuses __proto__, constructor and a name that shadows a blind index, storing nothing', async () => {
    const s = await setupDataset(t, [columnMapping('naam', 'naam', { encrypted: true })], 'email');
    for (const [file, name] of [
      ['email,__proto__\na@example.nl,x\n', '__proto__'],
      ['email;constructor\na@example.nl;x\n', 'constructor'],
      ['email,naam,naam__bi\na@example.nl,Jan,x\n', 'naam__bi'],
      [`email,${'k'.repeat(201)}\na@example.nl,x\n`, 'k'.repeat(201)],
    ]) {
      const res = await uploadFile(t, t.cookie, s, file);
      expect([res.statusCode, res.json().message], name.slice(0, 20)).toEqual([400, refusal('field', name)]);
    }
    expect(await recordsOf(t, s.datasetId)).toEqual([]);
    const { rows } = await t.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM tasks WHERE dataset_id = ${s.name} AND state <> 'failed'`,
    );
    expect(rows[0].n).toBe(0);
  });

  it('takes the names partners use, spaces, quotes and accents included', async () => {
    const s = await setupDataset(t, [], 'email');
    const res = await uploadFile(t, t.cookie, s, 'email,Post code,"a""b",Straße\na@example.nl,1,2,3\n');
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('attribute names of a mapping', () => {
  it('refuses a prototype key and a blind index name; a stored one reads back so it can be renamed', async () => {
    const s = await setupDataset(t);
    const url = `/api/datasets/${s.partnerId}/${s.datasetId}/mappings`;
    for (const mapped of ['constructor', 'prototype', 'naam__bi']) {
      for (const entry of [columnMapping('a', mapped), { type: 'extra', mapped, value: 'x' }]) {
        const res = await t.api('PUT', url, [entry]);
        expect(res.statusCode, mapped).toBe(400);
        expect(res.json().errors ?? [res.json().message]).toContain(refusal('attribute', mapped));
      }
    }
    // A name saved before the rule: shown, then renamed.
    await saveDatasetMappings(t.db, s.datasetId, [columnMapping('a', 'constructor')]);
    const stored = await t.api('GET', url);
    expect(stored.statusCode, stored.body).toBe(200);
    expect(stored.json()[0].mapped).toBe('constructor');
    const renamed = await t.api('PUT', url, [{ ...stored.json()[0], mapped: 'bouwer' }]);
    expect(renamed.statusCode, renamed.body).toBe(200);
  });
});
