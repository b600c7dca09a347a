import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import type { AppConfig } from './config';
import type { AppContext } from './context';
import { migrateDatabase, openDatabase } from './db/client';
import { startEmbeddedDatabase } from './db/embedded';
import { deleteExpiredSessions } from './features/auth/session.queries';
import { ensureFirstAdmin } from './features/users/user.service';

/** A started server: the app, its context and how to stop everything it started. */
export interface RunningServer {
  app: FastifyInstance;
  ctx: AppContext;
  stop(): Promise<void>;
  /** Cuts a stop in progress short: open connections are closed and running tasks aborted at once. */
  hurry(): void;
}

/**
 * Starts the whole application: the embedded database when no DATABASE_URL is set, migrations,
 * the first administrator, the HTTP server and the task worker; returns a handle to stop it.
 * `extend` may add routes and task types before the server listens (the e2e server uses it).
 */
export async function startServer(
  config: AppConfig,
  options: { listen?: boolean; extend?: (app: FastifyInstance, ctx: AppContext) => Promise<void> } = {},
): Promise<RunningServer> {
  const embedded = config.databaseUrl
    ? undefined
    : await startEmbeddedDatabase(config.dataDir, (m) => {
        if (/FATAL|PANIC|ERROR/.test(m)) console.error(`[postgres] ${m}`);
      });
  // A first import holds up to four connections at once (its transaction, the reader and the
  // two writers of its pass): enough for every task slot, with room for requests and uploads.
  const database = openDatabase(
    config.databaseUrl ?? embedded!.url,
    Math.max(20, 4 * config.taskConcurrency + 8),
  );
  // The read replica's pool, as large as the primary's (its reads are the heavy ones).
  const readDatabase = config.readDatabaseUrl
    ? openDatabase(config.readDatabaseUrl, Math.max(20, 4 * config.taskConcurrency + 8))
    : undefined;
  try {
    await migrateDatabase(database);
    const { app, ctx } = await buildApp({ config, database, readDatabase });
    await options.extend?.(app, ctx);
    const admin = await ensureFirstAdmin(database.db, config.adminUsername, config.adminPassword);
    if (admin?.generatedPassword) {
      // Printed once, on the first start only; it is never stored in plain text.
      app.log.warn(
        `Eerste beheerder aangemaakt: gebruikersnaam "${admin.username}", wachtwoord "${admin.generatedPassword}". Wijzig dit wachtwoord na het inloggen.`,
      );
    } else if (admin) {
      app.log.info(`Beheerder "${admin.username}" aangemaakt uit ADMIN_USERNAME/ADMIN_PASSWORD`);
    }
    if (options.listen !== false) await app.listen({ port: config.port, host: config.host });
    if (config.startWorker) await ctx.tasks.start();
    const sweep = setInterval(() => void deleteExpiredSessions(database.db).catch(() => {}), 3600_000);
    sweep.unref();
    let stopped = false;
    let hurry = () => {};
    const hurried = new Promise<void>((resolve) => {
      hurry = resolve;
    });
    return {
      app,
      ctx,
      hurry,
      async stop() {
        if (stopped) return;
        stopped = true;
        const deadline = Date.now() + config.stopGraceMs;
        clearInterval(sweep);
        // Queued tasks stay queued for the next start; new connections are refused (and requests on
        // open ones answered 503) while the requests in flight finish.
        ctx.tasks.stopClaiming();
        // A keep-alive connection whose request ends after close() began stays open until its
        // keep-alive timeout (72 s) unless closed once idle: close those while the rest finish.
        const idle = setInterval(() => app.server.closeIdleConnections(), 100);
        // A request still open after the grace (a long download), or at a second signal, is cut off:
        // the stop is bounded, and the database still stopped cleanly after it.
        const cut = (why: string) => {
          app.log.warn(`stopping: ${why}, closing the connections still open`);
          app.server.closeAllConnections();
        };
        const timer = setTimeout(() => cut('grace over'), config.stopGraceMs);
        void hurried.then(() => cut('asked again'));
        await app.close().finally(() => {
          clearInterval(idle);
          clearTimeout(timer);
        });
        await ctx.tasks.stop(Math.max(0, deadline - Date.now()), hurried);
        await ctx.readReplica?.close();
        await readDatabase?.close();
        await database.close();
        await embedded?.stop();
      },
    };
  } catch (err) {
    await readDatabase?.close().catch(() => {});
    await database.close().catch(() => {});
    await embedded?.stop().catch(() => {});
    throw err;
  }
}
