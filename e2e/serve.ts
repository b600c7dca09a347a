import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../server/config';
import { startServer } from '../server/server';
import { startTestDnsServer } from '../server/test/dns-server';
import { E2E_ADMIN } from './support/admin';
import { extendE2eServer, releaseAllDemoTasks } from './support/demo-tasks';
import { dnsModeRoutes } from './support/dns-mode';
import { enrichmentSeedRoutes } from './support/enrichment-seed';

// The server of the Playwright journeys: the built web app on a fresh embedded database in a
// temporary directory, or on a fresh database of the TEST_DATABASE_URL server.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lijstwerk-e2e-'));
let databaseUrl: string | undefined;
let dropDatabase = async () => {};
if (process.env.TEST_DATABASE_URL) {
  const name = `lw_e2e_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(process.env.TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  databaseUrl = url.toString();
  dropDatabase = async () => {
    const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  };
}

// The DNS check asks a DNS server of its own on loopback (server/test/dns-server.ts), never the network.
const dns = await startTestDnsServer();

const config = {
  ...loadConfig({
    PORT: process.env.E2E_PORT ?? '18080',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    WEB_DIR: process.env.WEB_DIR,
    ADMIN_USERNAME: E2E_ADMIN.username,
    ADMIN_PASSWORD: E2E_ADMIN.password,
    LOGIN_RATE_MAX: '10000',
    LOG_LEVEL: 'warn',
    TASK_POLL_MS: '200',
    // Demo tasks wait until a journey releases them; enough slots that they never block each other.
    TASK_CONCURRENCY: '20',
    // The environment's custom stylesheet (an unreachable host: the journey checks the link only).
    STYLESHEET_URL: 'http://127.0.0.1:9/lijstwerk-e2e.css',
    DNS_SERVER: dns.address,
    DNS_TIMEOUT_MS: '300',
  }),
  databaseUrl,
};
// Test-only task types and the /api/e2e routes that start and release them (e2e/support/demo-tasks.ts),
// the switch of the DNS server's mode (e2e/support/dns-mode.ts) and an enrichment file of a name the
// upload refuses (e2e/support/enrichment-seed.ts).
const server = await startServer(config, {
  extend: async (app, ctx) => {
    await extendE2eServer(app, ctx);
    await app.register(dnsModeRoutes(dns.setMode), { prefix: '/api/e2e' });
    await app.register(enrichmentSeedRoutes(ctx), { prefix: '/api/e2e' });
  },
});

async function shutdown() {
  // Stopping waits for running tasks; a demo task still waiting would hold it forever.
  releaseAllDemoTasks();
  await server.stop().catch(() => {});
  await dns.close().catch(() => {});
  await dropDatabase().catch(() => {});
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
