import os from 'node:os';
import path from 'node:path';

/** Runtime settings of the server, read once from the environment with their defaults. */
export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /**
   * A streaming replica of the database (DATABASE_READ_URL) that counts, previews and CSV downloads
   * read once it has replayed the primary's position (server/db/read-replica.ts); unset: none.
   */
  readDatabaseUrl?: string;
  /** How long such a read waits for the replica to catch up before it reads the primary (READ_REPLICA_WAIT_MS, ms). */
  readReplicaWaitMs: number;
  adminUsername?: string;
  adminPassword?: string;
  sessionTtlHours: number;
  loginRateMax: number;
  /** Failed logins per client IP across usernames per window (password spraying). */
  loginRateIpMax: number;
  loginRateWindowMs: number;
  taskConcurrency: number;
  taskPollMs: number;
  /** Milliseconds a stop (SIGTERM) waits for running tasks and open requests before it ends them (STOP_GRACE_SECONDS, default 30). */
  stopGraceMs: number;
  /** Worker threads that map a large import or remap (0: on the main thread). */
  importThreads: number;
  webDir: string;
  secureCookies: boolean;
  startWorker: boolean;
  logLevel: string;
  /** Milliseconds an upload may wait for the client's next bytes before it fails (408). */
  uploadIdleMs: number;
  /** base64 of 32 bytes; unset: DATA_DIR/encryption.key is created and used. */
  encryptionKey?: string;
  /**
   * The custom stylesheet the shell injects (spec 001 §2), from the external style host of this
   * environment (local, preview or production each set their own); unset: none.
   */
  stylesheetUrl?: string;
  /** The resolver of the DNS check, `host:port` (DNS_SERVER); unset: the system's resolvers. */
  dnsServer?: string;
  /** DNS check: lookups in flight at once, the timeout of one try (ms), and tries after the first. */
  dnsConcurrency: number;
  dnsTimeoutMs: number;
  dnsRetries: number;
  /** The partner API's production and beta server addresses in its OpenAPI document (each ends with /partner-api). */
  partnerApiUrl: string;
  partnerApiBetaUrl: string;
  /** Partner API calls per key (dataset) per minute. */
  partnerApiRateMax: number;
  /** Partner API writes doing their work at once (the others wait their turn, in order). */
  partnerApiWriteSlots: number;
  /** Whether the app runs the background refresher of sel_record (SEL_REFRESHER=off: not). */
  selRefresher: boolean;
  /**
   * How long one statement of a request's interactive database work may run (ms) before it is
   * cancelled and the request answers 503 (server/db/request-transaction.ts).
   */
  statementTimeoutMs: number;
  /**
   * The bearer token that lets a scraper read /metrics from anywhere (METRICS_TOKEN); unset: only
   * from this machine (loopback).
   */
  metricsToken?: string;
}

/** An http(s) address, or undefined when unset; anything else stops the start with a clear error. */
function urlFromEnv(name: string, value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} moet een http- of https-adres zijn: ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`${name} moet een http- of https-adres zijn: ${value}`);
  return url.toString();
}

/** `host:port` (IPv6 host in brackets), or undefined when unset; anything else stops the start. */
function hostPortFromEnv(name: string, value: string | undefined): string | undefined {
  if (!value) return undefined;
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(value.trim());
  if (!match || Number(match[2]) < 1 || Number(match[2]) > 65535)
    throw new Error(`${name} moet host:poort zijn (bijvoorbeeld 127.0.0.1:53): ${value}`);
  return value.trim();
}

function intFromEnv(value: string | undefined, fallback: number): number {
  const parsed = Number.parseInt(value ?? '', 10);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
}

// Mapping threads: cores minus two (the main thread and PostgreSQL need theirs), at most 4; on
// 2 cores none, where a worker measured no faster than the main thread and cost ~80 MB.
// IMPORT_THREADS=0 maps on the main thread.
function threadsFromEnv(value: string | undefined): number {
  const parsed = Number.parseInt(value ?? '', 10);
  return Number.isFinite(parsed) && parsed >= 0
    ? Math.min(parsed, 16)
    : Math.max(0, Math.min(4, os.availableParallelism() - 2));
}

/** Reads the configuration from `env` (default `process.env`); returns a complete AppConfig. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return {
    port: intFromEnv(env.PORT, 8080),
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    readDatabaseUrl: env.DATABASE_READ_URL || undefined,
    readReplicaWaitMs: intFromEnv(env.READ_REPLICA_WAIT_MS, 2000),
    adminUsername: env.ADMIN_USERNAME || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    sessionTtlHours: intFromEnv(env.SESSION_TTL_HOURS, 12),
    loginRateMax: intFromEnv(env.LOGIN_RATE_MAX, 10),
    loginRateIpMax: intFromEnv(env.LOGIN_RATE_IP_MAX, 30),
    loginRateWindowMs: intFromEnv(env.LOGIN_RATE_WINDOW_MS, 5 * 60 * 1000),
    taskConcurrency: intFromEnv(env.TASK_CONCURRENCY, 2),
    taskPollMs: intFromEnv(env.TASK_POLL_MS, 1000),
    stopGraceMs: intFromEnv(env.STOP_GRACE_SECONDS, 30) * 1000,
    importThreads: threadsFromEnv(env.IMPORT_THREADS),
    webDir: path.resolve(env.WEB_DIR ?? './dist/web'),
    secureCookies: env.SECURE_COOKIES === 'true',
    startWorker: env.START_WORKER !== 'false',
    logLevel: env.LOG_LEVEL ?? 'info',
    uploadIdleMs: intFromEnv(env.UPLOAD_IDLE_MS, 60_000),
    encryptionKey: env.ENCRYPTION_KEY || undefined,
    stylesheetUrl: urlFromEnv('STYLESHEET_URL', env.STYLESHEET_URL),
    dnsServer: hostPortFromEnv('DNS_SERVER', env.DNS_SERVER),
    dnsConcurrency: intFromEnv(env.DNS_CONCURRENCY, 64),
    dnsTimeoutMs: intFromEnv(env.DNS_TIMEOUT_MS, 3000),
    dnsRetries:
      Number.parseInt(env.DNS_RETRIES ?? '', 10) >= 0 ? Number.parseInt(env.DNS_RETRIES ?? '', 10) : 2,
    partnerApiUrl:
      urlFromEnv('PARTNER_API_URL', env.PARTNER_API_URL)?.replace(/\/$/, '') ??
      'https://api.lijstwerk.nl/partner-api',
    partnerApiBetaUrl:
      urlFromEnv('PARTNER_API_BETA_URL', env.PARTNER_API_BETA_URL)?.replace(/\/$/, '') ??
      'https://beta-api.lijstwerk.nl/partner-api',
    partnerApiRateMax: intFromEnv(env.PARTNER_API_RATE_MAX, 600),
    // Two a core: more at once only share the cores and PostgreSQL's pages between them, which
    // spreads the latencies (docs/decisions.md, Partner API).
    partnerApiWriteSlots: intFromEnv(env.PARTNER_API_WRITE_SLOTS, 2 * os.availableParallelism()),
    selRefresher: env.SEL_REFRESHER !== 'off',
    statementTimeoutMs: intFromEnv(env.STATEMENT_TIMEOUT_MS, 30_000),
    metricsToken: env.METRICS_TOKEN || undefined,
  };
}
