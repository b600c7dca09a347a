import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BenchClient } from './client';
import type { BenchDatabase } from './database';

const USERNAME = 'bench';
const PASSWORD = 'Bench12345';

/** The app's server as a child process on a benchmark's database, and its HTTP client. */
export interface BenchServer {
  client: BenchClient;
  /** The server's process id (for its CPU time in /proc). */
  pid: number;
  /** Waits until the server answers and logs the client in as the first administrator. */
  ready(): Promise<void>;
  /** A memory figure (kB) of the server process from /proc: VmRSS now, VmHWM its peak. */
  statusKb(field: 'VmRSS' | 'VmHWM'): number;
  /** Stops the server and waits until it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts server/main.ts on the benchmark's database at 127.0.0.1:`port` (it migrates and makes the
 * first administrator); `env` adds to its environment, `nodeArgs` to its Node.js options. The log
 * level is BENCH_LOG_LEVEL (default warn); `onLine`
 * gets its stdout lines instead of the terminal. Returns the server; call ready() before using the client.
 */
export function spawnBenchServer(
  bench: BenchDatabase,
  options: {
    port: number;
    env?: Record<string, string>;
    nodeArgs?: string[];
    /** Each line the server writes to stdout (its log), instead of printing it. */
    onLine?: (line: string) => void;
  },
): BenchServer {
  const server = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: bench.url,
      PORT: String(options.port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(bench.work, 'app'),
      ADMIN_USERNAME: USERNAME,
      ADMIN_PASSWORD: PASSWORD,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      ...options.env,
    },
    stdio: ['ignore', options.onLine ? 'pipe' : 'inherit', 'inherit'],
  });
  if (options.onLine && server.stdout) {
    const onLine = options.onLine;
    let rest = '';
    server.stdout.setEncoding('utf8');
    server.stdout.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    });
  }
  const exited = new Promise((r) => server.once('exit', r));
  const client = new BenchClient(`http://127.0.0.1:${options.port}`);
  return {
    client,
    pid: server.pid ?? 0,
    async ready() {
      await client.waitUntilUp();
      await client.login(USERNAME, PASSWORD);
    },
    statusKb: (field) =>
      Number(
        new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1] ??
          0,
      ),
    async stop() {
      server.kill('SIGTERM');
      await exited;
    },
  };
}
