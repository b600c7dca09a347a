// A separate app process that only runs the task worker (with the real task types) on
// DATABASE_URL and prints "ready"; tests kill it with SIGKILL to simulate a crash mid-task.
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is required');
  process.exit(2);
}
const config = {
  ...loadConfig({}),
  databaseUrl: url,
  webDir: '/nonexistent',
  taskPollMs: 50,
  encryptionKey: process.env.TEST_ENCRYPTION_KEY,
};
const database = openDatabase(url, 8); // a first import holds four connections at once
const { app, ctx } = await buildApp({ config, database, logger: false });
await app.ready();
await ctx.tasks.start();
process.stdout.write('ready\n');
