// What PostgreSQL alone takes to store what a first import must write (BENCH_FLOOR=1 of
// bench/import.ts): the dataset's finished records, loaded by binary COPY FREEZE into a table
// created in the same transaction (the first import's own way, docs/decisions.md, A first import's
// direct path), and its addresses, loaded by binary COPY into an empty copy of `addresses` with its
// indexes. No file is read, nothing is mapped, no duplicate is looked for: a lower bound for the
// import, set against the bare `psql \copy` of the partner file measured in the same rounds.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** One round's seconds: the bare `\copy` of the file, the records, the addresses. */
export interface FloorRound {
  copy: number;
  records: number;
  addresses: number;
}

function psql(databaseUrl: string, ...commands: string[]): number {
  const start = performance.now();
  execFileSync('psql', [databaseUrl, '-q', '-v', 'ON_ERROR_STOP=1', ...commands.flatMap((c) => ['-c', c])], {
    env: { ...process.env, PGOPTIONS: '-c client_min_messages=warning' },
  });
  return (performance.now() - start) / 1000;
}

/**
 * Exports the records of `datasetId` and their addresses in binary to `work`, then times, `rounds`
 * times: the bare `\copy` of `file` with `copyOptions` (into a fresh table), the records and the
 * addresses loaded as described above. The tables it makes are dropped.
 */
export function measureWriteFloor(
  databaseUrl: string,
  datasetId: string,
  copyOptions: string,
  file: string,
  work: string,
  rounds = 3,
): FloorRound[] {
  const records = path.join(work, 'floor-records.bin');
  const addresses = path.join(work, 'floor-addresses.bin');
  const id = datasetId.replace(/'/g, "''");
  psql(
    databaseUrl,
    `\\copy (SELECT dataset_id, address_id, raw, attrs, row_hash, raw_hash FROM records WHERE dataset_id = '${id}' ORDER BY address_id) TO '${records}' WITH (FORMAT binary)`,
    `\\copy (SELECT a.id, a.email, a.domain FROM addresses a JOIN records r ON r.address_id = a.id AND r.dataset_id = '${id}' ORDER BY a.email) TO '${addresses}' WITH (FORMAT binary)`,
  );
  const drop = 'DROP TABLE IF EXISTS floor_bare, floor_records, floor_addresses';
  const result: FloorRound[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      psql(databaseUrl, drop, 'CREATE TABLE floor_bare (LIKE bare)', 'CHECKPOINT');
      const copy = psql(databaseUrl, `\\copy floor_bare FROM '${file}' WITH (${copyOptions})`);
      psql(databaseUrl, 'CHECKPOINT');
      const recordSeconds = psql(
        databaseUrl,
        'BEGIN',
        'CREATE TABLE floor_records (LIKE records INCLUDING DEFAULTS)',
        `\\copy floor_records (dataset_id, address_id, raw, attrs, row_hash, raw_hash) FROM '${records}' WITH (FORMAT binary, FREEZE)`,
        'COMMIT',
      );
      psql(
        databaseUrl,
        'CREATE TABLE floor_addresses (LIKE addresses INCLUDING DEFAULTS INCLUDING INDEXES)',
        'CHECKPOINT',
      );
      const addressSeconds = psql(
        databaseUrl,
        `\\copy floor_addresses (id, email, domain) FROM '${addresses}' WITH (FORMAT binary)`,
      );
      result.push({ copy, records: recordSeconds, addresses: addressSeconds });
    }
  } finally {
    psql(databaseUrl, drop);
    fs.rmSync(records, { force: true });
    fs.rmSync(addresses, { force: true });
  }
  return result;
}
