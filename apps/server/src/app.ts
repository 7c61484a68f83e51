import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import path from 'node:path';
import { PasswordHasher } from './auth/passwords.ts';
import type { Config } from './config.ts';
import type { Database, DatabaseConnection } from './db/client.ts';
import { JobQueue, jobQueueOptions } from './jobs/job-queue.ts';
import { createDerivativePool } from './meshes/derivative-pool.ts';
import { handleMeshViewJobs } from './services/mesh-views.ts';
import { handlePlanViewJobs } from './services/plans/plan-views.ts';
import { handleProgressFitJobs } from './services/plans/progress-scans.ts';
import { progressPublisher } from './routes/plans/progress-scans.ts';
import { serializeError, serializeRequest } from './lib/logging.ts';
import { loadServerCatalogs } from './i18n/index.ts';
import { Mailer } from './mail/mailer.ts';
import { MailOutbox } from './mail/outbox.ts';
import { auditPlugin, type AuditOptions } from './plugins/audit.ts';
import { compressionPlugin } from './plugins/compression.ts';
import { authPlugin } from './plugins/auth.ts';
import { bodyStallPlugin } from './plugins/body-stall.ts';
import { connectionLimitPlugin } from './plugins/connection-limit.ts';
import { docsPlugin } from './plugins/docs.ts';
import { errorHandlerPlugin } from './plugins/error-handler.ts';
import { eventsPlugin, type LiveEventsOptions } from './plugins/events.ts';
import { lingeringClosePlugin, type LingeringOptions } from './plugins/lingering-close.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { securityPlugin } from './plugins/security.ts';
import { webAppPlugin } from './plugins/web-app.ts';
import { apiRoutes } from './routes/index.ts';
import { profileFormLimits } from './routes/profile-form.ts';
import { createStorage } from './storage/create-storage.ts';
import type { Storage } from './storage/storage.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Database;
    database: DatabaseConnection;
    storage: Storage;
    outbox: MailOutbox;
    jobs: JobQueue;
    passwords: PasswordHasher;
  }
}

export interface AppOptions {
  config: Config;
  database: DatabaseConnection;
  storage?: Storage;
  /** `false`, or pino options laid over the defaults (level, redaction, serializers). */
  logger?: false | Exclude<FastifyServerOptions['logger'], boolean>;
  /** Live events' timings (tests shorten them). */
  events?: LiveEventsOptions;
  /** How anonymous refusals are counted (tests shorten the window). */
  audit?: AuditOptions;
  /** How long an answer given before its body was read goes on reading it (tests shorten it). */
  lingering?: LingeringOptions;
}

/** Fields never written to logs: credentials and patient identity. */
const redactedPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  // @fastify/multipart logs busboy's options, request headers included, at trace level.
  'busboyOptions.headers.authorization',
  'busboyOptions.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.token',
];

/** The whole server as one Fastify instance; main.ts listens, tests inject. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger !== false && {
      level: config.logLevel,
      redact: redactedPaths,
      serializers: { req: serializeRequest, err: serializeError },
      ...options.logger,
    },
    // JSON bodies are small (a sign-in, a role, a status change); drafts set their own.
    bodyLimit: 16 * 1024,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('config', config);
  app.decorate('database', options.database);
  // Lost PostgreSQL connections are logged by the app (db/client.ts), not swallowed.
  options.database.log = app.log;
  app.decorate('db', options.database.db);
  app.decorate('storage', options.storage ?? (await createStorage(config)));
  app.decorate('passwords', new PasswordHasher(config.passwordHashing));
  loadServerCatalogs();
  const mailer = new Mailer(
    { smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(config.dataDir, 'outbox') },
    app.log,
  );
  app.decorate('outbox', new MailOutbox(options.database.db, mailer, app.log));
  // First of the hooks, so a request's time and the requests in flight include all the others.
  await app.register(metricsPlugin);
  // Uploads being received (define-route's isStreamedUpload): background jobs wait between steps meanwhile.
  let uploadsInFlight = 0;
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.isStreamedUpload !== true) return;
    uploadsInFlight++;
    reply.raw.once('close', () => uploadsInFlight--);
  });
  app.decorate(
    'jobs',
    new JobQueue(options.database.db, app.log, {
      ...jobQueueOptions(config),
      isBusy: () => uploadsInFlight > 0,
      onJobFailed: (kind) => app.metrics.jobsFailed.inc({ kind }),
    }),
  );
  // A thread per job the queue runs at once: converting a mesh keeps a core busy for seconds.
  const meshes = createDerivativePool({ threads: config.jobConcurrency });
  handleMeshViewJobs({ db: app.db, storage: app.storage, jobs: app.jobs, convert: (stl) => meshes.convert(stl) });
  handlePlanViewJobs({ db: app.db, storage: app.storage, jobs: app.jobs, meshes });
  handleProgressFitJobs({
    db: app.db,
    storage: app.storage,
    jobs: app.jobs,
    meshes,
    publish: progressPublisher(app),
    outbox: app.outbox,
    publicUrl: config.publicUrl,
  });
  app.addHook('onClose', async () => {
    await app.jobs.stop();
    await meshes.close();
    await app.outbox.stop();
    mailer.close();
  });

  await app.register(connectionLimitPlugin);
  await app.register(errorHandlerPlugin);
  await app.register(securityPlugin);
  await app.register(compressionPlugin);
  await app.register(bodyStallPlugin);
  await app.register(lingeringClosePlugin, options.lingering ?? {});
  await app.register(cookie);
  await app.register(rateLimitPlugin);
  // Every form passes its own limits; a form that forgot would get the small forms' ones.
  await app.register(multipart, { limits: profileFormLimits });
  await app.register(docsPlugin);
  await app.register(authPlugin);
  await app.register(auditPlugin, options.audit ?? {});
  await app.register(eventsPlugin, options.events ?? {});
  await app.register(apiRoutes);
  await app.register(webAppPlugin);
  return app;
}
