// A separate app process for restart tests: it builds the app on DATABASE_URL, starts the worker,
// enqueues one task that reports progress and then never ends, and prints `{"taskId": ...}`.
// The test kills it with SIGKILL, as a crash or `kill -9` would.
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is required');
  process.exit(2);
}

const config = { ...loadConfig({}), databaseUrl: url, webDir: '/nonexistent', taskPollMs: 100 };
const database = openDatabase(url, 8); // a first import holds four connections at once
const { app, ctx } = await buildApp({ config, database, logger: false });
await app.ready();
ctx.tasks.register('test.hang', async (_task, task) => {
  await task.progress(10, 'saving');
  await new Promise(() => {});
});
await ctx.tasks.start();
const row = await ctx.tasks.enqueue({ type: 'test.hang', username: 'kind' });
process.stdout.write(`${JSON.stringify({ taskId: row.id })}\n`);
