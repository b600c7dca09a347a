import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type pg from 'pg';

// CPU accounting for benchmarks that run the app's server, PostgreSQL and the load generator on one
// machine: the CPU seconds each used in a phase, from /proc (Linux), so a benchmark can print the
// CPU per call and the latency floor Little's law gives for it.

const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of a process in seconds, or undefined when it is gone or unreadable; `system` gives stime alone. */
export function processCpuSeconds(pid: number, system = false): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces: state is [0], utime [11], stime [12].
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((system ? 0 : Number(fields[11])) + Number(fields[12])) / TICKS;
  } catch {
    return undefined;
  }
}

/** The machine's busy and total CPU seconds over all cores since boot (/proc/stat). */
function machineCpuSeconds(): { busy: number; total: number } {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0];
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.split(/\s+/).slice(1).map(Number);
  const busy = user + nice + system + irq + softirq + (steal || 0);
  return { busy: busy / TICKS, total: (busy + idle + iowait) / TICKS };
}

/** The CPU seconds of one phase: the server, the database's backends, this process, and the whole machine. */
export interface CpuUse {
  seconds: number;
  server: number;
  /** The server's system (kernel) time, part of `server`: its socket reads and writes. */
  serverSystem: number;
  postgres: number;
  loadGenerator: number;
  /** Everything the machine's cores did in the phase (ours and anything else running). */
  machineBusy: number;
  /** Cores × elapsed seconds. */
  machineTotal: number;
}

interface Snapshot {
  at: number;
  server: number;
  serverSystem: number;
  backends: Map<number, number>;
  self: NodeJS.CpuUsage;
  machine: { busy: number; total: number };
}

/**
 * Measures phases: `start()` then `stop()` gives the CPU the server process, the PostgreSQL
 * backends of the benchmark's database (found in pg_stat_activity; PostgreSQL must run on this
 * machine) and this process used in between. A backend that ends within a phase loses its CPU
 * (the pools keep theirs while busy), so the PostgreSQL figure is a lower bound.
 */
export class CpuMeter {
  private begin: Snapshot | undefined;

  constructor(
    private readonly serverPid: number,
    private readonly monitor: pg.Client,
  ) {}

  private async snapshot(): Promise<Snapshot> {
    const { rows } = await this.monitor.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    const backends = new Map<number, number>();
    for (const { pid } of rows) {
      const cpu = processCpuSeconds(pid);
      if (cpu !== undefined) backends.set(pid, cpu);
    }
    return {
      at: performance.now(),
      server: processCpuSeconds(this.serverPid) ?? Number.NaN,
      serverSystem: processCpuSeconds(this.serverPid, true) ?? Number.NaN,
      backends,
      self: process.cpuUsage(),
      machine: machineCpuSeconds(),
    };
  }

  async start(): Promise<void> {
    this.begin = await this.snapshot();
  }

  async stop(): Promise<CpuUse> {
    const begin = this.begin;
    if (!begin) throw new Error('CpuMeter.stop before start');
    const end = await this.snapshot();
    let postgres = 0;
    for (const [pid, cpu] of end.backends) postgres += cpu - (begin.backends.get(pid) ?? 0);
    const self = process.cpuUsage(begin.self);
    return {
      seconds: (end.at - begin.at) / 1000,
      server: end.server - begin.server,
      serverSystem: end.serverSystem - begin.serverSystem,
      postgres,
      loadGenerator: (self.user + self.system) / 1e6,
      machineBusy: end.machine.busy - begin.machine.busy,
      machineTotal: end.machine.total - begin.machine.total,
    };
  }
}

/** Whether PostgreSQL's backends can be read from /proc here (it runs on this machine). */
export async function postgresIsLocal(monitor: pg.Client): Promise<boolean> {
  const { rows } = await monitor.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  return processCpuSeconds(rows[0].pid) !== undefined;
}

/**
 * Readies `client`'s backend for a CPU-time benchmark (work_mem 256MB; parallel query off, so no
 * worker's CPU goes uncounted) and returns a reader of that backend's CPU seconds from /proc (NaN
 * when unreadable: PostgreSQL must run on this machine).
 */
export async function backendCpuClock(client: pg.Client): Promise<() => number> {
  const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
  await client.query(`SET work_mem = '256MB'; SET max_parallel_workers_per_gather = 0`);
  return () => processCpuSeconds(pid) ?? Number.NaN;
}
