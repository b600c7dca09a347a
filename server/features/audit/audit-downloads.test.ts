import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app';
import { type ImportSetup, importFile, setupDataset } from '../../test/imports';
import { CsvLineCounter } from '../uploads/csv-output';

// The audit log's entry of a download of personal data, complete or broken off by the client.
// Real HTTP on a listening port: app.inject cannot break a download off.

const t = setupTestApp();
let port: number;
let s: ImportSetup;

/** Rows of about 1 kB, each with a line break and quotes in a value: far more than socket buffers hold. */
const ROWS = 24_000;
const naam = (i: number) => `Regel ${i}\nmet "aanhalingstekens", ${'x'.repeat(1000)}`;

beforeAll(async () => {
  s = await setupDataset(t);
  const lines = Array.from(
    { length: ROWS },
    (_, i) => `d${i}@afgebroken.nl;"${naam(i).replace(/"/g, '""')}"`,
  );
  await importFile(t, t.cookie, s, `email;naam\n${lines.join('\n')}\n`);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
}, 120_000);

type Entry = {
  username: string | null;
  ip: string | null;
  subject: string | null;
  rows: number;
  details: Record<string, unknown>;
};

async function downloads(): Promise<Entry[]> {
  const res = await t.db.execute<Entry>(
    sql`SELECT username, ip, subject, rows, details FROM audit_log WHERE kind = 'download' ORDER BY id`,
  );
  return res.rows;
}

/**
 * Downloads the dataset's CSV by HTTP and breaks the connection off once `bytes` have come in;
 * resolves with the data rows received whole (the lines after the header line).
 */
function breakOff(bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const counter = new CsvLineCounter();
    let received = 0;
    const req = http.get(
      {
        host: '127.0.0.1',
        port,
        path: `/api/datasets/${s.partnerId}/${s.datasetId}/csv`,
        headers: { cookie: t.cookie },
      },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
        res.on('data', (chunk: Buffer) => {
          counter.add(chunk);
          received += chunk.length;
          if (received >= bytes) {
            req.destroy();
            resolve(counter.lines - 1);
          }
        });
        res.on('end', () => reject(new Error('the download ended before it was broken off')));
      },
    );
    req.on('error', () => undefined);
  });
}

describe('the audit entry of a download', () => {
  it('is complete, with the rows written, for a download read to its end', async () => {
    const res = await t.api('GET', `/api/datasets/${s.partnerId}/${s.datasetId}/csv`);
    expect(res.statusCode).toBe(200);
    expect(parse(res.rawPayload.subarray(3), { delimiter: ',' })).toHaveLength(ROWS + 1);
    const all = await downloads();
    expect(all.at(-1)).toMatchObject({
      username: t.user.row.username,
      subject: s.datasetId,
      rows: ROWS,
      details: { complete: true },
    });
  });

  it('is there for a download the client broke off, incomplete, with the rows handed on', async () => {
    const before = (await downloads()).length;
    const received = await breakOff(1024 * 1024);
    expect(received).toBeGreaterThan(500);
    let all = await downloads();
    for (let i = 0; i < 200 && all.length === before; i++) {
      await new Promise((r) => setTimeout(r, 50));
      all = await downloads();
    }
    expect(all).toHaveLength(before + 1);
    const entry = all[before];
    expect(entry).toMatchObject({
      username: t.user.row.username,
      ip: '127.0.0.1',
      subject: s.datasetId,
      details: { complete: false, route: '/api/datasets/:partnerId/:datasetId/csv' },
    });
    // At least what the client received, never the whole file: the rows the connection took.
    expect(entry.rows).toBeGreaterThanOrEqual(received);
    expect(entry.rows).toBeLessThan(ROWS);
  });
});

describe('CsvLineCounter', () => {
  it('counts line ends outside quotes, whatever the chunks', () => {
    const csv = Buffer.from('a,"x\r\ny"\r\n"""q""",b\r\n"\n",\r\nlaatste\r\n');
    for (let cut = 0; cut <= csv.length; cut++) {
      const counter = new CsvLineCounter();
      counter.add(csv.subarray(0, cut));
      counter.add(csv.subarray(cut));
      expect(counter.lines, `cut at ${cut}`).toBe(4);
    }
  });
});
