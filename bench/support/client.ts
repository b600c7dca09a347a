import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { columnMapping } from '../../common/mappings';

/** A small HTTP client of the app for benchmarks: login cookie, JSON calls, streamed uploads. */
export class BenchClient {
  private cookie = '';

  constructor(private readonly base: string) {}

  /** Waits until the server answers (up to two minutes). */
  async waitUntilUp(): Promise<void> {
    for (let i = 0; i < 1200; i++) {
      try {
        await fetch(`${this.base}/api/auth/me`);
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    throw new Error('server did not start');
  }

  /** Logs in and keeps the session cookie. */
  async login(username: string, password: string): Promise<void> {
    const res = await fetch(`${this.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    if (!res.ok) throw new Error(`login: ${res.status}`);
    this.cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
  }

  /** A JSON call; throws on an error status. */
  async call<T>(method: string, url: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.base}/api${url}`, {
      method,
      headers: { cookie: this.cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
    return JSON.parse(text) as T;
  }

  /** GETs a file (a PDF, a CSV) with the session; returns its size in bytes; throws on an error status. */
  async downloadBytes(url: string): Promise<number> {
    const res = await fetch(`${this.base}/api${url}`, { headers: { cookie: this.cookie } });
    const bytes = (await res.arrayBuffer()).byteLength;
    if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
    return bytes;
  }

  /** Makes a partner and a dataset mapped like a real partner file (value map, dates, postcode). */
  async makeMappedDataset(): Promise<{ partnerId: string; datasetId: string; datasetName: string }> {
    const partnerId = `bench_${Date.now()}`;
    await this.call('POST', '/crud-partner', { id: partnerId, name: 'Benchmark partner' });
    const dataset = await this.call<{ _id: string; name: string }>('POST', `/datasets/${partnerId}`, {
      name: 'bench',
      emailColumnName: 'E-mail',
    });
    const col = columnMapping;
    const pc = (n: number) => col('Postcode', `pc${n}`, { trim: n, strip: true, lower: true });
    await this.call('PUT', `/datasets/${partnerId}/${dataset._id}/mappings`, [
      col('Voornaam', 'firstName'),
      col('Tussenvoegsel', 'preposition'),
      col('Achternaam', 'lastName'),
      col('Geslacht', 'gender', {
        values: [
          { original: 'man', mapped: 'M', insensitive: true },
          { original: 'M', mapped: 'M', insensitive: false },
          { original: 'vrouw', mapped: 'F', insensitive: true },
          { original: 'V', mapped: 'F', insensitive: false },
          { original: 'onbekend', mapped: 'U', insensitive: true },
        ],
      }),
      col('Geboortedatum', 'birthDate', { date: 'D MMMM YYYY' }),
      col('Postcode', 'postcode'),
      pc(4),
      pc(6),
      col('Plaats', 'city'),
      col('Aangemeld', 'optinDate', { date: 'YYYY/MM/DD HH:mm' }),
      col('E-mail', 'domain', { emailDomain: true, lower: true }),
    ]);
    return { partnerId, datasetId: dataset._id, datasetName: dataset.name };
  }

  /** Uploads a file into a dataset and waits for its import task; returns the result. */
  importFile(partnerId: string, datasetName: string, file: string): Promise<Record<string, number>> {
    return this.upload(`/import/${partnerId}/${datasetName}`, file);
  }

  /**
   * Posts a file as a streamed multipart body to `url` (under /api), text fields first, and waits
   * for the task it starts; returns the task's result.
   */
  async upload(
    url: string,
    file: string,
    fields: Record<string, string> = {},
  ): Promise<Record<string, number>> {
    const boundary = `----bench${Date.now()}`;
    const head = Buffer.from(
      Object.entries(fields)
        .map(
          ([name, value]) =>
            `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
        )
        .join('') +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${path.basename(file)}"\r\nContent-Type: text/csv\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const size = head.length + fs.statSync(file).size + tail.length;
    async function* body() {
      yield head;
      for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) yield chunk as Buffer;
      yield tail;
    }
    const res = await fetch(`${this.base}/api${url}`, {
      method: 'POST',
      headers: {
        cookie: this.cookie,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(size),
      },
      body: Readable.toWeb(Readable.from(body())) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    const text = await res.text();
    if (!res.ok) throw new Error(`upload: ${res.status} ${text}`);
    return this.waitForTask(JSON.parse(text).task._id);
  }

  /** Starts a DNS check and waits for it; returns the result (domains read and per result code). */
  async dnsCheck(): Promise<Record<string, number>> {
    const { task } = await this.call<{ task: { _id: string } }>('POST', '/dns-check', {});
    return this.waitForTask(task._id);
  }

  /** Starts a remap and waits for it; returns the result. */
  async remap(partnerId: string, datasetId: string): Promise<Record<string, number>> {
    const { task } = await this.call<{ task: { _id: string } }>(
      'POST',
      `/datasets/${partnerId}/${datasetId}/remap`,
    );
    return this.waitForTask(task._id);
  }

  /**
   * Downloads a dataset's CSV (GET /api/datasets/{partnerId}/{datasetId}/csv), reading the body as
   * it streams and keeping none of it; returns its bytes and lines.
   */
  async downloadCsv(partnerId: string, datasetId: string): Promise<{ bytes: number; lines: number }> {
    const res = await fetch(`${this.base}/api/datasets/${partnerId}/${datasetId}/csv`, {
      headers: { cookie: this.cookie },
    });
    if (!res.ok || res.body === null) throw new Error(`csv: ${res.status} ${await res.text()}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
    }
    return { bytes, lines };
  }

  /** Polls a task every 100 ms until done; throws when it failed. */
  async waitForTask(id: string): Promise<Record<string, number>> {
    for (;;) {
      const task = await this.call<{ state: string; error: string | null; result: Record<string, number> }>(
        'GET',
        `/tasks/${id}`,
      );
      if (task.state === 'done') return task.result;
      if (task.state === 'failed') throw new Error(`task failed: ${task.error}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
