import '../common/zod-setup';
import fs from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { PARTNER_API_BASE, PARTNER_API_TAG, PARTNER_API_VERSION } from '../common/partner-api';
import type { AppConfig } from './config';
import type { AppContext } from './context';
import type { Database } from './db/client';
import { ReadReplica } from './db/read-replica';
import { healthRoutes } from './features/health/health.routes';
import { createMetrics, registerRequestMetrics } from './features/health/metrics';
import { partnerApiRoutes } from './features/partner-api/partner-api.routes';
import { type ReportRefresher, startReportRefresher } from './features/reports/report-refresher';
import { caseCollationOnce } from './features/selections/compile-context';
import { type SelRefresher, startSelRefresher } from './features/selections/sel-refresher';
import type { AllocateOptions } from './features/selections/selection-allocate';
import { CellSizes } from './features/selections/selection-count';
import { type ColumnKeys, loadColumnKeys } from './lib/crypto';
import { registerAuthGuard } from './plugins/auth';
import { registerErrorHandling, safeErrorSerializer } from './plugins/errors';
import { registerInputGuard } from './plugins/input-guard';
import { safeRequestSerializer } from './plugins/request-log';
import { registerSecurity } from './plugins/security';
import { apiRoutes } from './routes';
import { registerTaskHandlers } from './tasks/handlers';
import { TaskRunner } from './tasks/worker';

/** What buildApp builds the app from: its configuration, database, log and test knobs. */
export interface BuildOptions {
  config: AppConfig;
  database: Database;
  /** The streaming replica counts, previews and downloads may read (AppContext.readReplica); none when left out. */
  readDatabase?: Database;
  /** pino logger options, or false for silence (tests). */
  logger?: boolean | object;
  /** A test's knobs of the app's selection counts and allocations (AppContext.selectionRuns). */
  selectionRuns?: AllocateOptions;
}

/** One registered route as the security tests walk them: method, URL pattern and whether it is public. */
export interface RouteEntry {
  method: string;
  url: string;
  isPublic: boolean;
  /** Whether the route answers a CSV download (`config.csvDownload`, required by sendCsv). */
  isCsvDownload: boolean;
  /** The route's zod schemas (body, querystring, params), for the tests that fuzz every route. */
  schema?: { body?: unknown; querystring?: unknown; params?: unknown };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered after the core plugins, filled by an onRoute hook. */
    routeTable: RouteEntry[];
  }
}

export { PARTNER_API_TAG };

/**
 * Builds the Fastify app with its plugins, routes and task runner (not yet started), the reports'
 * refresher (at work while the task runner runs) and, unless configured off, sel_record's refresher
 * (both started when the app is ready, stopped when it closes); returns the app and its context.
 */
export async function buildApp(options: BuildOptions): Promise<{ app: FastifyInstance; ctx: AppContext }> {
  const { config, database } = options;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: [
              'req.headers.cookie',
              'req.headers.authorization',
              'req.headers["x-api-key"]',
              'res.headers["set-cookie"]',
            ],
            // Errors are logged without the values a failed query carried (hashes, secrets), and
            // requests without the e-mail addresses their URLs carry.
            serializers: { err: safeErrorSerializer, req: safeRequestSerializer },
            ...(typeof options.logger === 'object' ? options.logger : {}),
          },
    bodyLimit: 1024 * 1024,
    // Path parameters carry user text (search terms, e-mail addresses, names) that is longer once
    // URL-encoded than Fastify's default of 100; the routes' schemas set the real limits.
    routerOptions: { maxParamLength: 2000 },
    trustProxy: process.env.TRUST_PROXY === 'true',
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Recorded so tests can prove that every /api route needs a session unless marked public.
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routeTable.push({
        method,
        url: route.url,
        isPublic: route.config?.public === true,
        isCsvDownload: route.config?.csvDownload === true,
        schema: route.schema as RouteEntry['schema'],
      });
    }
  });

  const tasks = new TaskRunner(database, {
    concurrency: config.taskConcurrency,
    pollMs: config.taskPollMs,
    log: app.log,
  });
  let keys: ColumnKeys | undefined;
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    tasks,
    log: app.log,
    columnKeys: () => (keys ??= loadColumnKeys(config.dataDir, config.encryptionKey)),
    caseCollation: caseCollationOnce(database.db),
    selectionRuns: { sizes: new CellSizes(), ...options.selectionRuns },
    readReplica: options.readDatabase
      ? new ReadReplica(database, options.readDatabase, { waitMs: config.readReplicaWaitMs, log: app.log })
      : undefined,
  };
  registerTaskHandlers(ctx);
  // sel_record's refresher runs while the app is up: from ready (listen or inject) to close, which
  // waits for its batch in progress (so the database can be closed after the app).
  if (config.selRefresher) {
    let refresher: SelRefresher | undefined;
    app.addHook('onReady', async () => {
      refresher = startSelRefresher(database, app.log, ctx.caseCollation);
    });
    app.addHook('onClose', async () => {
      await refresher?.stop();
    });
  }

  // The reports' facts are computed in the background while this process runs the task worker
  // (report-refresher.ts): at the worker's start and sweeps, after each task and every few seconds.
  let reportRefresher: ReportRefresher | undefined;
  app.addHook('onReady', async () => {
    reportRefresher = startReportRefresher(database, app.log, () => tasks.isRunning());
  });
  app.addHook('onClose', async () => {
    await reportRefresher?.stop();
  });
  tasks.onTaskEnd(() => reportRefresher?.wake());
  tasks.onReap(async () => reportRefresher?.wake());

  // The app's own metrics registry; every request's latency is observed from here on.
  const metrics = createMetrics(ctx);
  registerRequestMetrics(app, metrics);
  registerErrorHandling(app);
  await registerSecurity(app, config.stylesheetUrl);
  await app.register(cookie);
  await app.register(rateLimit, { global: false });
  // Partner files are streamed straight into the database, so their size is not limited here.
  await app.register(multipart, {
    limits: { fileSize: Number.POSITIVE_INFINITY, files: 1, fields: 20, fieldSize: 1024 * 1024 },
  });
  registerAuthGuard(app, ctx);
  registerInputGuard(app);

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Lijstwerk partner API', version: PARTNER_API_VERSION },
      // The servers end with the API's base path, so the documented paths are /partnerlist...
      servers: [
        { url: config.partnerApiUrl, description: 'Productie' },
        { url: config.partnerApiBetaUrl, description: 'Beta' },
      ],
      components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
    },
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      return {
        ...out,
        url: out.url.startsWith(`${PARTNER_API_BASE}/`) ? out.url.slice(PARTNER_API_BASE.length) : out.url,
      };
    },
    // Only the partner API is documented publicly; the back office's own calls stay internal.
    hiddenTag: 'internal',
    hideUntagged: true,
  });
  await app.register(swaggerUi, {
    routePrefix: '/apidocs',
    staticCSP: true,
    // Swagger UI sets inline styles as it renders (the global policy allows them too); with the
    // plugin's 'self' https: alone the browser refuses them and logs a violation.
    transformStaticCSP: (header) => header.replace(/style-src [^;]*;/, "style-src 'self' 'unsafe-inline';"),
    // No call to the public validator's badge: the page loads nothing from elsewhere.
    uiConfig: { validatorUrl: null },
  });

  // /healthz, /readyz and /metrics: for the operator's probes and scraper, without a session.
  await app.register(healthRoutes(ctx, metrics));

  await app.register(
    async (api) => {
      for (const plugin of apiRoutes(ctx)) await api.register(plugin);
    },
    { prefix: '/api' },
  );

  // The partner API: its own base path, its own key guard, no staff session (DESIGN §6).
  await app.register(partnerApiRoutes(ctx), { prefix: PARTNER_API_BASE });

  registerWebApp(app, config.webDir);
  return { app, ctx };
}

// Serves the built React app, answers unknown non-API GETs with index.html (client routing)
// and everything else unknown with a 404 message.
function registerWebApp(app: FastifyInstance, webDir: string): void {
  const index = path.join(webDir, 'index.html');
  const hasWeb = fs.existsSync(index);
  if (hasWeb) app.register(fastifyStatic, { root: webDir, wildcard: false, index: false, prefix: '/' });
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    if (hasWeb && request.method === 'GET' && !/^\/(api|partner-api)(\/|$)/.test(url)) {
      return reply.type('text/html').header('cache-control', 'no-cache').send(fs.createReadStream(index));
    }
    return reply.status(404).send({ message: `Niet gevonden: ${request.method} ${url}` });
  });
}
