// Benchmark of the partner API: the app's server on a fresh database, then
// 1. batches: C clients (default 20), each upserting 1,000-record batches into its own dataset for
//    S seconds (default 60): records/s in all and the latency of a batch (p50/p95/p99). About a
//    third of each batch updates addresses the client sent before (new values), the rest are new.
//    Afterwards every dataset is read back: each record present exactly once with the values of
//    its last write, and record_count equal to the records (the script checks and says so);
// 2. single records: 50 clients, each on its own dataset (one that holds records: the first write
//    of a dataset, which makes its records table, is timed apart), for S2 seconds (default 20),
//    cycling POST /partnerlist (new), GET /partnerlist/{email} and PUT /partnerlist/{email}:
//    p50/p95/p99 per call;
// with, measured in the same run, baselines: the same number of plain pg connections upserting
// 1,000-row batches into a bare table with a primary key (the write floor, no HTTP, no mapping),
// the HTTP write floor (bench/support/floor-server.ts: Fastify and a pg pool storing the same
// batches, then single records under 50 clients, in a bare table, one statement a call: no key,
// mapping or addresses; what any HTTP API storing these records pays on this machine; run before
// the app's phases, while its refresher has nothing to do), and the partner API's cheapest answer
// (401 without a key: HTTP and Fastify, no database) under 50 clients. Every phase also measures
// the CPU seconds it cost (the server process, the PostgreSQL backends of the benchmark's
// database, this load generator; from /proc, so PostgreSQL must run on this machine) and prints
// the CPU per batch or call with the floor Little's law sets on this machine's cores: C
// closed-loop clients wait on average at least C × CPU per call / cores
// (mean latency = C / throughput, throughput ≤ cores / CPU per call), next to the measured latency.
// Prints figures; never fails on slowness (it exits 1 only when a record is wrong).
//
//   npx tsx bench/partner-api.ts [seconds=60] [clients=20] [singleSeconds=20]   embedded PostgreSQL
//   (singleSeconds 0 leaves out the single-record phase and its baseline)
//   DATABASE_URL=postgres://... npx tsx bench/partner-api.ts                     a PostgreSQL server
import { spawn } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import pg from 'pg';
import { columnMapping } from '../common/mappings';
import { PARTNER_API_BASE } from '../common/partner-api';
import { CpuMeter, type CpuUse, postgresIsLocal } from './support/cpu';
import { createBenchDatabase } from './support/database';
import { spawnBenchServer } from './support/server';

const seconds = Number(process.argv[2] ?? 60);
const clients = Number(process.argv[3] ?? 20);
const singleSeconds = Number(process.argv[4] ?? 20);
// BENCH_HTTP_FLOOR=0 leaves out the HTTP write floor (seconds of its batch phase; its single-record
// phase takes min(10, singleSeconds)).
const httpFloorSeconds = Number(process.env.BENCH_HTTP_FLOOR ?? Math.min(15, seconds));
const SINGLE_CLIENTS = 50;
const BATCH = 1000;

const bench = await createBenchDatabase('partnerapi');
const port = 19000 + Math.floor(Math.random() * 100);
const server = spawnBenchServer(bench, {
  port,
  // The benchmark is the only partner: the per-key limit must not be what it measures.
  env: { PARTNER_API_RATE_MAX: '100000000' },
  nodeArgs: process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : [],
});

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
const ms = (v: number) => `${v.toFixed(1)} ms`;
const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
const CORES = os.availableParallelism();

/**
 * The CPU a phase cost per call (`calls` calls of `concurrency` closed-loop clients) and the mean
 * latency Little's law allows at best when those calls share this machine's cores.
 */
function cpuLine(use: CpuUse, calls: number, concurrency: number, what: string, pgLocal: boolean): string {
  const per = (v: number) => (1000 * v) / calls;
  const total = use.server + (pgLocal ? use.postgres : 0) + use.loadGenerator;
  const ours = total / use.seconds;
  const floor = (concurrency * per(total)) / CORES;
  return (
    `    CPU per ${what}: server ${ms(per(use.server))} (kernel ${ms(per(use.serverSystem))}), PostgreSQL ${pgLocal ? ms(per(use.postgres)) : 'not on this machine'}, load generator ${ms(per(use.loadGenerator))}, in all ${ms(per(total))}; ` +
    `machine busy ${(use.machineBusy / use.seconds).toFixed(2)} of ${CORES} cores (these three ${ours.toFixed(2)})\n` +
    `    Little's law floor on ${CORES} cores: mean latency ≥ ${concurrency} × ${ms(per(total))} / ${CORES} = ${ms(floor)}; ` +
    `with the ${ours.toFixed(2)} cores these three got (the rest went to other processes): ${ms((concurrency * per(total)) / ours)}`
  );
}
const spread = (v: number[]) =>
  `p50 ${ms(percentile(v, 50))}, p95 ${ms(percentile(v, 95))}, p99 ${ms(percentile(v, 99))} (${v.length.toLocaleString('en')} calls)`;

// The load generator shares the machine's cores with the server and PostgreSQL: node:http with
// kept-alive connections costs it less CPU per call than fetch.
const agent = new http.Agent({ keepAlive: true, maxSockets: 1000 });

/**
 * One call with a key; returns status, elapsed milliseconds (from sending the serialized body to
 * the end of the answer) and the answer. Rejects on a network error.
 */
function call(
  key: string | undefined,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; ms: number; text: string }> {
  return request(port, `${PARTNER_API_BASE}${path}`, key, method, body);
}

/** call's request to any server on this machine: `path` in full. */
function request(
  toPort: number,
  path: string,
  key: string | undefined,
  method: string,
  body?: unknown,
): Promise<{ status: number; ms: number; text: string }> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const headers: Record<string, string | number> = key ? { 'x-api-key': key } : {};
  if (payload) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = payload.length;
  }
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const req = http.request({ host: '127.0.0.1', port: toPort, path, method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          ms: performance.now() - start,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Runs `clients` loops of `step` until `durationMs` has passed; returns when all have stopped. */
async function runFor(clientCount: number, durationMs: number, step: (client: number) => Promise<void>) {
  const end = performance.now() + durationMs;
  await Promise.all(
    Array.from({ length: clientCount }, async (_, c) => {
      while (performance.now() < end) await step(c);
    }),
  );
}

const cities = ['Amsterdam', 'Rotterdam', 'Utrecht', 'Groningen', 'Zwolle', 'Eindhoven'];
/** A partner's record: the fields of a real file (mapped: voornaam, postcode, plaats, geslacht). */
function record(email: string, version: number, i: number) {
  return {
    email,
    voornaam: `Naam${i % 997}-${version}`,
    achternaam: `Achter${i % 1733}`,
    postcode: `${1000 + (i % 8999)}AB`,
    huisnummer: (i % 300) + 1,
    plaats: cities[i % cities.length],
    geslacht: i % 2 ? 'man' : 'vrouw',
    nieuwsbrief: i % 3 === 0,
  };
}

/**
 * Client `c`'s next batch of 1,000 records (values of `version`): a third of it addresses the
 * client sent before (spread over all it sent, `next[c]` of them), with new values; the rest new.
 */
function makeBatch(c: number, next: number[], version: number) {
  const batch = [];
  const old = Math.min(next[c], Math.floor(BATCH / 3));
  for (let k = 0; k < old; k++) {
    const n = Math.floor(Math.random() * next[c]);
    batch.push(record(`c${c}.${n}@example.nl`, version, n));
  }
  while (batch.length < BATCH) {
    const n = next[c]++;
    batch.push(record(`c${c}.${n}@example.nl`, version, n));
  }
  return batch;
}

try {
  await server.ready();
  const { client } = server;
  const monitor = new pg.Client({ connectionString: bench.url });
  await monitor.connect();
  const pgLocal = await postgresIsLocal(monitor);
  const cpu = new CpuMeter(server.pid, monitor);
  console.log(
    `Partner API benchmark on ${bench.target}: ${clients} batch clients for ${seconds} s, ${SINGLE_CLIENTS} single-record clients for ${singleSeconds} s`,
  );
  // One dataset per client, with a key and a mapping as a partner's file has one.
  const partnerId = `bench_api_${Date.now()}`;
  await client.call('POST', '/crud-partner', { id: partnerId, name: 'Benchmark partner API' });
  const datasets: { id: string; key: string }[] = [];
  for (let i = 0; i < Math.max(clients, SINGLE_CLIENTS); i++) {
    const made = await client.call<{ _id: string }>('POST', `/datasets/${partnerId}`, { name: `api${i}` });
    const { key } = await client.call<{ key: string }>('GET', `/datasets/${partnerId}/${made._id}`);
    await client.call('PUT', `/datasets/${partnerId}/${made._id}/mappings`, [
      columnMapping('voornaam', 'firstName'),
      columnMapping('postcode', 'postcode', { strip: true }),
      columnMapping('plaats', 'city'),
      columnMapping('geslacht', 'gender', {
        values: [
          { original: 'man', mapped: 'M', insensitive: true },
          { original: 'vrouw', mapped: 'F', insensitive: true },
        ],
      }),
    ]);
    datasets.push({ id: made._id, key });
  }

  // Baseline 1: the write floor, plain pg upserts of 1,000 rows into a table with a primary key.
  const floorPool = new pg.Pool({ connectionString: bench.url, max: clients });
  await floorPool.query(
    'CREATE TABLE bench_floor (client int, email text COLLATE "C", raw text[], attrs jsonb, PRIMARY KEY (client, email))',
  );
  let floorRows = 0;
  const floorSeconds = Math.min(15, seconds);
  const floorNext = new Array(clients).fill(0);
  await cpu.start();
  await runFor(clients, floorSeconds * 1000, async (c) => {
    const rows = Array.from({ length: BATCH }, (_, k) => {
      const n = floorNext[c] + k - (k % 3 === 0 && floorNext[c] > 0 ? Math.min(floorNext[c], 500) : 0);
      const r = record(`c${c}.${n}@example.nl`, floorNext[c], n);
      return {
        email: r.email,
        raw: Object.values(r).map(String),
        attrs: { firstName: r.voornaam, city: r.plaats },
      };
    });
    floorNext[c] += BATCH;
    await floorPool.query(
      `INSERT INTO bench_floor SELECT $1, x.email, x.raw, x.attrs
       FROM (SELECT DISTINCT ON (email) * FROM jsonb_to_recordset($2::jsonb) AS x(email text, raw text[], attrs jsonb)) x
       ON CONFLICT (client, email) DO UPDATE SET raw = excluded.raw, attrs = excluded.attrs`,
      [c, JSON.stringify(rows)],
    );
    floorRows += BATCH;
  });
  const floorCpu = await cpu.stop();
  await floorPool.end();
  const floorRate = floorRows / floorSeconds;
  console.log(
    `  write floor (pg, ${clients} connections, 1,000-row upserts): ${Math.round(floorRate).toLocaleString('en')} rows/s`,
  );
  console.log(cpuLine(floorCpu, floorRows / BATCH, clients, '1,000-row upsert', pgLocal));

  // Baseline 2: the HTTP write floor (bench/support/floor-server.ts): Fastify and one pg pool
  // storing the same batches and single records in a bare table, one statement a call, no key,
  // mapping or addresses. What any HTTP API that stores these records pays on this machine now:
  // the goals cannot be met below it.
  if (httpFloorSeconds > 0) {
    await monitor.query(
      'CREATE TABLE bench_http_floor (client int, email text COLLATE "C", raw text[], attrs jsonb, PRIMARY KEY (client, email))',
    );
    const floorPort = port + 100;
    const floorServer = spawn(process.execPath, ['--import', 'tsx', 'bench/support/floor-server.ts'], {
      env: { ...process.env, DATABASE_URL: bench.url, PORT: String(floorPort) },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const floorExited = new Promise((r) => floorServer.once('exit', r));
    try {
      for (let tries = 0; ; tries++) {
        try {
          await request(floorPort, '/single/0/none', undefined, 'GET');
          break;
        } catch (error) {
          if (tries > 300) throw error;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      const floorCpuMeter = new CpuMeter(floorServer.pid ?? 0, monitor);
      const httpBatchMs: number[] = [];
      const httpNext = new Array(clients).fill(0);
      await floorCpuMeter.start();
      await runFor(clients, httpFloorSeconds * 1000, async (c) => {
        const batch = makeBatch(c, httpNext, httpBatchMs.length);
        const res = await request(floorPort, `/batch/${c}`, undefined, 'POST', batch);
        if (res.status !== 200) throw new Error(`HTTP floor batch: ${res.status} ${res.text.slice(0, 200)}`);
        httpBatchMs.push(res.ms);
      });
      const httpBatchCpu = await floorCpuMeter.stop();
      console.log(
        `  HTTP write floor, batches (${clients} clients, 1,000-record upserts): ${spread(httpBatchMs)}`,
      );
      console.log(cpuLine(httpBatchCpu, httpBatchMs.length, clients, 'batch', pgLocal));
      console.log(`    measured: mean ${ms(mean(httpBatchMs))}, p99 ${ms(percentile(httpBatchMs, 99))}`);
      if (singleSeconds > 0) {
        const httpSingleMs: number[] = [];
        const httpSingleNext = new Array(SINGLE_CLIENTS).fill(0);
        await floorCpuMeter.start();
        await runFor(SINGLE_CLIENTS, Math.min(10, singleSeconds) * 1000, async (c) => {
          const n = httpSingleNext[c]++;
          const email = `s${c}.${n}@example.nl`;
          const post = await request(floorPort, `/single/${c}`, undefined, 'POST', record(email, 0, n));
          const path = `/single/${c}/${encodeURIComponent(email)}`;
          const get = await request(floorPort, path, undefined, 'GET');
          const { email: _e, ...fields } = record(email, 1, n);
          const put = await request(floorPort, path, undefined, 'PUT', fields);
          if (post.status !== 200 || get.status !== 200 || put.status !== 200)
            throw new Error(`HTTP floor single: ${post.status} ${get.status} ${put.status}`);
          httpSingleMs.push(post.ms, get.ms, put.ms);
        });
        const httpSingleCpu = await floorCpuMeter.stop();
        console.log(
          `  HTTP write floor, single records (${SINGLE_CLIENTS} clients, POST/GET/PUT): ${spread(httpSingleMs)}`,
        );
        console.log(cpuLine(httpSingleCpu, httpSingleMs.length, SINGLE_CLIENTS, 'call', pgLocal));
        console.log(`    measured: mean ${ms(mean(httpSingleMs))}, p99 ${ms(percentile(httpSingleMs, 99))}`);
      }
    } finally {
      floorServer.kill('SIGTERM');
      await floorExited;
      await monitor.query('DROP TABLE bench_http_floor');
    }
  }

  // 1. Batches.
  const expected = Array.from({ length: clients }, () => new Map<string, string>());
  const next = new Array(clients).fill(0);
  const batchMs: number[] = [];
  // Each client's first batch is its dataset's first write (it makes the records table): shown apart too.
  const firstBatchMs: number[] = [];
  const laterBatchMs: number[] = [];
  const failures: string[] = [];
  let sent = 0;
  await cpu.start();
  const started = performance.now();
  await runFor(clients, seconds * 1000, async (c) => {
    const seen = expected[c];
    const batch = makeBatch(c, next, batchMs.length);
    const first = seen.size === 0;
    const res = await call(datasets[c].key, 'POST', '/partnerlist/upsert', batch);
    if (res.status !== 200) {
      failures.push(`${res.status} ${res.text.slice(0, 200)}`);
      return;
    }
    batchMs.push(res.ms);
    (first ? firstBatchMs : laterBatchMs).push(res.ms);
    sent += BATCH;
    // The last of two records with one address wins, here as in the API.
    for (const r of batch) seen.set(r.email, r.voornaam);
  });
  const elapsed = (performance.now() - started) / 1000;
  const batchCpu = await cpu.stop();
  const rate = sent / elapsed;
  console.log(
    `  batches: ${Math.round(rate).toLocaleString('en')} records/s in all (${(rate / floorRate).toFixed(2)}× the write floor), ${spread(batchMs)}`,
  );
  console.log(`    first batch of each dataset (makes its records table): ${spread(firstBatchMs)}`);
  console.log(`    the other batches: ${spread(laterBatchMs)}`);
  console.log(cpuLine(batchCpu, batchMs.length + failures.length, clients, 'batch', pgLocal));
  console.log(
    `    measured: mean ${ms(mean(batchMs))}, p99 ${ms(percentile(batchMs, 99))} (goal p99 ≤ 500 ms)`,
  );
  if (failures.length) console.log(`  FAILED batches: ${failures.length}, first: ${failures[0]}`);

  // The check: every record once, with its last values; record_count right.
  const check = new pg.Client({ connectionString: bench.url });
  await check.connect();
  // What the sel_record refresher had not reached when the batches ended (it yields to them:
  // counts read those addresses from records until it has).
  const { rows: left } = await check.query<{ marks: number; addresses: number }>(
    'SELECT count(*)::int AS marks, count(DISTINCT address_id)::int AS addresses FROM sel_dirty',
  );
  console.log(
    `  sel_dirty after the batches: ${left[0].marks.toLocaleString('en')} marks of ${left[0].addresses.toLocaleString('en')} addresses left for the refresher`,
  );
  let wrong = 0;
  let records = 0;
  for (let c = 0; c < clients; c++) {
    const { rows } = await check.query<{ email: string; first: string; n: number }>(
      `SELECT a.email, min(r.attrs ->> 'firstName') AS first, count(*)::int AS n
       FROM records r JOIN addresses a ON a.id = r.address_id WHERE r.dataset_id = $1 GROUP BY a.email`,
      [datasets[c].id],
    );
    const { rows: count } = await check.query<{ n: string }>(
      'SELECT record_count AS n FROM datasets WHERE id = $1',
      [datasets[c].id],
    );
    records += rows.length;
    const byEmail = new Map(rows.map((r) => [r.email, r]));
    if (rows.length !== expected[c].size || Number(count[0].n) !== rows.length) wrong++;
    for (const r of rows) if (r.n !== 1) wrong++;
    for (const [email, first] of expected[c]) if (byEmail.get(email)?.first !== first) wrong++;
  }
  await check.end();
  console.log(
    `  check: ${records.toLocaleString('en')} records in ${clients} datasets, ${wrong === 0 ? 'each exactly once with its last values, record_count right' : `${wrong} WRONG`}`,
  );

  let singleFailures = 0;
  // Phase 2 and its baseline (skipped with singleSeconds 0).
  if (singleSeconds > 0) {
    // Baseline 2: the API's cheapest answer (401, no database) under 50 clients.
    const floorCalls: number[] = [];
    await cpu.start();
    await runFor(SINGLE_CLIENTS, Math.min(10, singleSeconds) * 1000, async () => {
      floorCalls.push((await call(undefined, 'GET', '/partnerlist/x%40example.nl')).ms);
    });
    const httpCpu = await cpu.stop();
    console.log(`  HTTP floor (401 without a key, ${SINGLE_CLIENTS} clients): ${spread(floorCalls)}`);
    console.log(cpuLine(httpCpu, floorCalls.length, SINGLE_CLIENTS, '401', pgLocal));
    console.log(`    measured: mean ${ms(mean(floorCalls))}, p99 ${ms(percentile(floorCalls, 99))}`);

    // The first write of a dataset makes its records table (create, index, attach): timed apart,
    // so the single-record figures below are those of datasets in use.
    const firstWrites: number[] = [];
    await Promise.all(
      datasets.slice(clients).map(async ({ key }, i) => {
        const res = await call(key, 'POST', '/partnerlist', record(`first${i}@example.nl`, 0, i));
        if (res.status === 200) firstWrites.push(res.ms);
      }),
    );
    if (firstWrites.length)
      console.log(`  first write of ${firstWrites.length} datasets at once: ${spread(firstWrites)}`);

    // 2. Single records.
    const single = { post: [] as number[], get: [] as number[], put: [] as number[] };
    const singleNext = new Array(SINGLE_CLIENTS).fill(0);
    await cpu.start();
    await runFor(SINGLE_CLIENTS, singleSeconds * 1000, async (c) => {
      const { key } = datasets[c];
      const n = singleNext[c]++;
      const email = `s${c}.${n}@example.nl`;
      const post = await call(key, 'POST', '/partnerlist', record(email, 0, n));
      const get = await call(key, 'GET', `/partnerlist/${encodeURIComponent(email)}`);
      const { email: _e, ...fields } = record(email, 1, n);
      const put = await call(key, 'PUT', `/partnerlist/${encodeURIComponent(email)}`, fields);
      if (post.status !== 200 || get.status !== 200 || put.status !== 200) singleFailures++;
      single.post.push(post.ms);
      single.get.push(get.ms);
      single.put.push(put.ms);
    });
    const singleCpu = await cpu.stop();
    const all = [...single.post, ...single.get, ...single.put];
    console.log(`  single records, ${SINGLE_CLIENTS} clients: all ${spread(all)}`);
    console.log(`    POST ${spread(single.post)}`);
    console.log(`    GET  ${spread(single.get)}`);
    console.log(`    PUT  ${spread(single.put)}`);
    console.log(cpuLine(singleCpu, all.length, SINGLE_CLIENTS, 'call (POST, GET, PUT alike)', pgLocal));
    console.log(
      `    measured: mean ${ms(mean(all))}, p99 ${ms(percentile(all, 99))} (goal p99 ≤ 20 ms); the 401's floor alone: ${ms((SINGLE_CLIENTS * (1000 * (httpCpu.server + (pgLocal ? httpCpu.postgres : 0) + httpCpu.loadGenerator))) / floorCalls.length / CORES)}`,
    );
    console.log(
      `    p99 ${(percentile(all, 99) / percentile(floorCalls, 99)).toFixed(1)}× the HTTP floor's p99${singleFailures ? `; ${singleFailures} FAILED cycles` : ''}`,
    );
  }
  console.log(`  server memory peak (VmHWM): ${Math.round(server.statusKb('VmHWM') / 1024)} MB`);
  if (wrong > 0 || failures.length > 0 || singleFailures > 0) process.exitCode = 1;
  await monitor.end();
} finally {
  agent.destroy();
  await server.stop();
  await bench.drop();
}
