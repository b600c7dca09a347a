import { beforeAll, describe, expect, it } from 'vitest';
import type { ResultRow } from '../../../common/selections';
import { setupTestApp } from '../../test/app';
import { columnMapping, type ImportSetup, importFile, setupDataset, waitForTask } from '../../test/imports';
import { makeCampaign, makeMailing } from '../mailings/mailing.test-helpers';
import { CompileMessages } from './compile';

// An attribute stored encrypted by one dataset and plain by another: match and in find both
// (blind index where encrypted), 'is (niet) leeg' tells a stored value from none, wildcards, ranges,
// ages and begins with / contains on it are refused.
const t = setupTestApp();
let secret: ImportSetup;
let plain: ImportSetup;
let url: string;
beforeAll(async () => {
  secret = await setupDataset(t, [columnMapping('bsn', 'bsn', { encrypted: true })], 'email');
  plain = await setupDataset(t, [columnMapping('bsn', 'bsn')], 'email');
  await importFile(
    t,
    t.cookie,
    secret,
    'email,bsn\ne1@voorbeeld.nl,111\ne2@voorbeeld.nl,222\ne3@voorbeeld.nl,\n',
  );
  await importFile(t, t.cookie, plain, 'email,bsn\np1@voorbeeld.nl,111\np2@voorbeeld.nl,333\n');
  const campaignId = await makeCampaign(t, t.cookie);
  const mailing = await makeMailing(t, t.cookie, campaignId);
  url = `/api/campaigns/${campaignId}/mailings/${mailing._id}/selections`;
});

const open = { useCampaignLabel: false, activeDatasetsOnly: false, useBlacklist: false, useDate: false };

async function run(query: unknown) {
  const created = await t.api('POST', url, { query, ...open });
  if (created.statusCode !== 200) return created;
  const id = created.json().selectionId;
  const res = await t.api('GET', `${url}/${id}/query`);
  if (res.statusCode !== 200) return res;
  const task = await waitForTask(t, t.cookie, res.json().task._id);
  expect(task.state, task.error).toBe('done');
  return Object.fromEntries((task.result as ResultRow[]).map((r) => [r.dataset.id, r.total]));
}

describe('encrypted attributes in a selection', () => {
  it('match and in compare by blind index where encrypted and by value where plain', async () => {
    expect(await run({ match: { bsn: ' 111 ' } })).toEqual({ [secret.datasetId]: 1, [plain.datasetId]: 1 });
    expect(await run({ in: { bsn: ['222', '333'] } })).toEqual({
      [secret.datasetId]: 1,
      [plain.datasetId]: 1,
    });
    expect(await run({ not: { match: { bsn: '111' } } })).toEqual({
      [secret.datasetId]: 2,
      [plain.datasetId]: 1,
    });
  });

  it('is empty where a record has no value, and not empty where it has one, encrypted or not', async () => {
    expect(await run({ empty: { bsn: true } })).toEqual({ [secret.datasetId]: 1 });
    expect(await run({ empty: { bsn: false } })).toEqual({ [secret.datasetId]: 2, [plain.datasetId]: 2 });
  });

  it('refuses begins with, contains and an age on it when the selection is saved', async () => {
    for (const leaf of [{ startsWith: { bsn: '1' } }, { includes: { bsn: '1' } }]) {
      const res = await run(leaf);
      expect((res as { json: () => { message: string } }).json().message).toBe(
        CompileMessages.partEncrypted('bsn'),
      );
    }
    const age = await run({ age: { bsn: [30, 50] } });
    expect((age as { json: () => { message: string } }).json().message).toBe(
      CompileMessages.rangeEncrypted('bsn'),
    );
  });

  it('refuses a wildcard or a range on it when the selection is saved', async () => {
    const wildcard = await run({ match: { bsn: '1*' } });
    expect(wildcard).toMatchObject({ statusCode: 400 });
    expect((wildcard as { json: () => { message: string } }).json().message).toBe(
      CompileMessages.wildcardEncrypted('bsn'),
    );
    const range = await run({ range: { bsn: ['100', '200'] } });
    expect((range as { json: () => { message: string } }).json().message).toBe(
      CompileMessages.rangeEncrypted('bsn'),
    );
  });
});
