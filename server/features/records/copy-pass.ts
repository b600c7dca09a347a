import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import type { ColumnKeys } from '../../lib/crypto';
import { BINARY_HEADER, BINARY_TRAILER } from './copy-binary';
import { type MappedBlock, mapBlock } from './copy-text';
import { createRowMapper, type MapSpec, writesBinary } from './row-mappers';
import { type SkippedBlock, SkippedRows } from './skip-log';

/** Below this many rows a pass maps on the main thread: starting workers would cost more. */
export const WORKER_THRESHOLD = 50_000;

/** A few worker threads that map blocks of rows, answering in the order asked. */
class MapperThreads {
  private readonly workers: Worker[];
  private readonly waiting = new Map<
    number,
    { resolve: (r: MappedBlock) => void; reject: (e: Error) => void }
  >();
  private seq = 0;
  private failure: Error | null = null;
  private closing = false;

  constructor(count: number, spec: MapSpec, keys: ColumnKeys) {
    this.workers = Array.from({ length: count }, () => {
      const worker = new Worker(new URL('./copy-worker-entry.mjs', import.meta.url), {
        workerData: { spec, encryptionKey: keys.encryptionKey, indexKey: keys.indexKey },
        // Bounded heaps keep the server's memory flat (the goal is under 400 MB whatever the file
        // size: docs/performance.md "First import"); 64 MB old space was seen to run out on a re-import.
        resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 32 },
      });
      worker.on(
        'message',
        (m: {
          seq: number;
          out?: string | Uint8Array;
          side?: string;
          rows?: number;
          skipped?: SkippedBlock | null;
          error?: string;
        }) => {
          const waiter = this.waiting.get(m.seq);
          this.waiting.delete(m.seq);
          if (m.error !== undefined) waiter?.reject(new Error(m.error));
          else
            waiter?.resolve({
              out: m.out ?? '',
              side: m.side ?? '',
              rows: m.rows ?? 0,
              skipped: m.skipped ?? null,
            });
        },
      );
      worker.on('error', (err: Error) => this.fail(err));
      worker.on('exit', (code) => {
        if (!this.closing) this.fail(new Error(`mapping worker stopped (${code})`));
      });
      return worker;
    });
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const waiter of this.waiting.values()) waiter.reject(err);
    this.waiting.clear();
  }

  map(text: string): Promise<MappedBlock> {
    if (this.failure) return Promise.reject(this.failure);
    const seq = this.seq++;
    return new Promise((resolve, reject) => {
      this.waiting.set(seq, { resolve, reject });
      this.workers[seq % this.workers.length].postMessage({ seq, text });
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/** What a pass did: rows read, lines written into the target and into the side target, the rows its mapper skipped. */
export interface PassCounts {
  rows: number;
  written: number;
  side: number;
  skipped: SkippedRows;
}

/**
 * Streams the rows of `select` (run on a connection of its own from `pool`, so it reads what is
 * committed) through the row mapper of `spec` into `COPY target FROM STDIN` on `client`. With
 * `side`, the lines the mapper sets aside go into a second COPY at the same time. With `rows` at or above
 * WORKER_THRESHOLD the blocks are mapped by `threads` worker threads in parallel, in order;
 * otherwise on this thread. Backpressure keeps memory flat whatever the row count; `onRows` hears
 * the rows mapped so far.
 */
export async function copyPass(options: {
  pool: pg.Pool;
  client: pg.PoolClient;
  /** Statements run on the reading connection before `select` (e.g. a temporary table it reads). */
  prepare?: string[];
  /** Statements run on the reading connection after a successful pass (a failed one closes it). */
  cleanup?: string[];
  select: string;
  target: string;
  /**
   * COPY's FREEZE: the rows go in frozen and their pages all-visible, so that nothing rewrites
   * them to set hint bits when they are first read. Only into a table created (or truncated) in
   * the transaction `client` is in.
   */
  freeze?: boolean;
  /** Where the mapper's side output goes (another connection: both COPYs run at once). */
  side?: { client: pg.PoolClient; target: string };
  spec: MapSpec;
  keys: ColumnKeys;
  rows: number;
  /** Worker threads to use for `rows` at or above WORKER_THRESHOLD (0: this thread). */
  threads: number;
  /** Hears the rows mapped so far after each block; a promise it returns is waited for (backpressure). */
  onRows?: (rows: number) => void | Promise<void>;
}): Promise<PassCounts> {
  const { pool, client, select, target, spec, keys, onRows = () => {} } = options;
  const threadCount = options.rows >= WORKER_THRESHOLD ? options.threads : 0;
  const threads = threadCount > 0 ? new MapperThreads(threadCount, spec, keys) : null;
  const mapper = threads ? null : createRowMapper(spec, keys);
  const map = (text: string) => (threads ? threads.map(text) : Promise.resolve(mapBlock(text, mapper!)));
  const reader = await pool.connect();
  let mapped = 0;
  const skipped = new SkippedRows();
  try {
    for (const statement of options.prepare ?? []) await reader.query(statement);
  } catch (err) {
    reader.release(true);
    await threads?.close();
    throw err;
  }
  const source = reader.query(copyTo(`COPY (${select}) TO STDOUT`));
  // A binary mapper's rows go in between the binary header and trailer; it takes its blocks as
  // byte strings (RowMapper.writer).
  const binary = writesBinary(spec);
  const encoding = binary ? 'latin1' : 'utf8';
  const copyOptions = [...(binary ? ['FORMAT binary'] : []), ...(options.freeze ? ['FREEZE'] : [])];
  const into = client.query(
    copyFrom(`COPY ${target} FROM STDIN${copyOptions.length > 0 ? ` WITH (${copyOptions.join(', ')})` : ''}`),
  );
  const sideInto = options.side
    ? options.side.client.query(copyFrom(`COPY ${options.side.target} FROM STDIN`))
    : null;
  const sideLines = sideInto ? new PassThrough() : null;
  const sideDone = sideInto && sideLines ? pipeline(sideLines, sideInto) : null;
  sideDone?.catch(() => {});

  // A block still waiting when the COPY fails must not turn into an unhandled rejection.
  const settled = <T>(promise: Promise<T>) => {
    promise.catch(() => {});
    return promise;
  };
  // Blocks of whole rows go out to be mapped; at most `inFlight` wait, answers come back in order.
  const inFlight = Math.max(2, threadCount * 3);
  async function* lines(): AsyncGenerator<string | Buffer> {
    const pending: Promise<MappedBlock>[] = [];
    // Binary rows come back from a worker thread as a Uint8Array.
    const output = (out: string | Uint8Array) =>
      typeof out === 'string' || Buffer.isBuffer(out)
        ? out
        : Buffer.from(out.buffer, out.byteOffset, out.length);
    if (binary) yield BINARY_HEADER;
    const done = async () => {
      const { out, side, rows, skipped: skips } = await pending.shift()!;
      mapped += rows;
      skipped.addBlock(skips);
      // Every block is reported: the task's reporter writes at most a few times a second.
      await onRows(mapped);
      // The side COPY keeps its own backpressure (it fails the pass when it fails).
      if (side !== '' && sideLines && !sideLines.write(side))
        await Promise.race([once(sideLines, 'drain'), sideDone]);
      return out;
    };
    let rest: Buffer | null = null;
    for await (const chunk of source as AsyncIterable<Buffer>) {
      const data: Buffer = rest ? Buffer.concat([rest, chunk]) : chunk;
      // Rows never hold a bare line break, so cutting after the last one keeps UTF-8 intact.
      const cut = data.lastIndexOf(10);
      if (cut < 0) {
        rest = data;
        continue;
      }
      rest = cut + 1 < data.length ? data.subarray(cut + 1) : null;
      if (cut > 0) pending.push(settled(map(data.toString(encoding, 0, cut))));
      while (pending.length >= inFlight) {
        const out = await done();
        if (out.length > 0) yield output(out);
      }
    }
    if (rest && rest.length > 0) pending.push(settled(map(rest.toString(encoding))));
    while (pending.length > 0) {
      const out = await done();
      if (out.length > 0) yield output(out);
    }
    if (binary) yield BINARY_TRAILER;
    sideLines?.end();
  }

  try {
    await pipeline(Readable.from(lines()), into);
    await sideDone;
    await onRows(mapped);
    for (const statement of options.cleanup ?? []) await reader.query(statement);
    reader.release();
    return { rows: mapped, written: into.rowCount, side: sideInto?.rowCount ?? 0, skipped };
  } catch (err) {
    // A connection left in the middle of a COPY is closed, not reused.
    sideLines?.destroy();
    reader.release(true);
    throw err;
  } finally {
    await threads?.close();
  }
}
