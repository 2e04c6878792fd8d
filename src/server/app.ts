/**
 * The server: `buildApp()` composes the shared services, then the routes (fastify's demo app
 * is the model).
 *
 * - `services/` — shared services, each an `fp` plugin with a `name`, its `dependencies` and a
 *   `declare module 'fastify'` augmentation for what it decorates: definitions, the http/error
 *   contract, security headers, db (and its migrations), the OpenAPI document, the store, file
 *   storage, seeds, auth (tokens, sessions, the actor of every request), the rate limit, notify
 *   (outbox and worker), demo users, the workflow engine, the messenger's live broker, the
 *   STOMP socket and the built web app. They are registered in {@link SERVICES}' order, before
 *   any route, so that every hook applies to every route.
 * - `routes/` — route plugins, each encapsulated (a plain async function, not `fp`) with its
 *   own schemas; {@link routeModules} lists them in one place, in registration order, which is
 *   also the order of the OpenAPI document's paths. Folders group the routes of one concern
 *   (`auth/`, `files/`, `messenger/`).
 * - `capabilities/` — one folder per manifest capability (`drafts`, `publicSubmit`, …), found
 *   by reading the folder (capabilities/registry.ts): its plugin is registered, among the
 *   routes, with the entities whose manifest declares it.
 * - The logic lives in the domain folders — `store/`, `workflow/`, `auth/`, `messenger/`,
 *   `notify/`, `files/`, `public/`, `integrations/`, `db/` — which know nothing of Fastify's
 *   wiring beyond the decorations they are handed.
 * - Tables: a plugin module may export `migrations` (db/migrations.ts): the tables of its
 *   feature, kept next to the code that uses them. buildApp gathers them from every module,
 *   in the lists' order, before the db service migrates, so db/ imports no feature.
 */
import Fastify, {
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyServerOptions,
  type RouteOptions,
} from 'fastify';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppConfig } from './config.ts';
import { createMigrationRegistry, type Migration, type MigrationRegistry } from './db/migrations.ts';
import { DEFAULT_COUNT_CAP } from './store/list-query.ts';
import * as definitions from './services/definitions.ts';
import * as http from './services/http.ts';
import * as securityHeaders from './services/security-headers.ts';
import * as db from './services/db.ts';
import * as docs from './services/docs.ts';
import * as store from './services/store.ts';
import * as files from './services/files.ts';
import { s3FilesFromEnv } from './files/s3-config.ts';
import * as seed from './services/seed.ts';
import * as users from './services/users.ts';
import * as auth from './services/auth.ts';
import * as rateLimit from './services/rate-limit.ts';
import * as notify from './services/notify.ts';
import * as demo from './services/demo.ts';
import * as workflow from './services/workflow.ts';
import * as integrations from './services/integrations.ts';
import * as messenger from './services/messenger.ts';
import * as notifications from './services/notifications.ts';
import * as presence from './services/presence.ts';
import * as stomp from './services/stomp.ts';
import * as webApp from './services/web-app.ts';
import * as healthRoutes from './routes/health.ts';
import * as docsRoutes from './routes/docs.ts';
import * as signInRoutes from './routes/auth/sign-in.ts';
import * as logoutRoutes from './routes/auth/logout.ts';
import * as setPasswordRoutes from './routes/auth/set-password.ts';
import * as profileRoutes from './routes/auth/profile.ts';
import * as externalAuthRoutes from './routes/auth/external.ts';
import * as registrationRoutes from './routes/registration.ts';
import * as passwordResetRoutes from './routes/password-reset.ts';
import * as entityRoutes from './routes/entities.ts';
import * as referenceRoutes from './routes/references.ts';
import * as fileRoutes from './routes/files/index.ts';
import * as recordRoutes from './routes/records.ts';
import * as workflowRoutes from './routes/workflow.ts';
import * as messengerRoutes from './routes/messenger/index.ts';
import * as stompRoutes from './routes/stomp.ts';
import * as visitRoutes from './routes/visits.ts';
import * as savedViewRoutes from './routes/saved-views.ts';
import * as openDataRoutes from './routes/open-data.ts';
import * as staffUserRoutes from './routes/staff-users.ts';
import * as playgroundRoutes from './routes/playground.ts';
import * as dataHealthRoutes from './routes/data-health.ts';
import * as integrationRoutes from './routes/integrations.ts';
import * as myWorkRoutes from './routes/my-work.ts';
import * as presenceRoutes from './routes/presence.ts';
import * as notificationRoutes from './routes/notifications/index.ts';
import * as outboxLogRoutes from './routes/outbox-log.ts';
import * as chatbotRoutes from './routes/chatbot.ts';
import * as webRoutes from './routes/web.ts';
import { loadCapabilityRoutes } from './capabilities/registry.ts';

/** A module of services/ or routes/: its plugin, and the tables its feature adds (db/migrations.ts). */
interface PluginModule {
  default: FastifyPluginAsync;
  /** The feature's tables, or the choice of them the configuration makes. */
  migrations?: readonly Migration[] | ((config: AppConfig) => readonly Migration[]);
}

/** The shared services, in registration order (each names the services it depends on). */
const SERVICES = [
  definitions,
  http,
  // Before every route, so that each reply carries the browser security headers.
  securityHeaders,
  db,
  // Before the store: a remote source asks another agency through the platform.
  integrations,
  // Before every route: the OpenAPI document sees only the routes registered after it.
  docs,
  store,
  files,
  seed,
  users,
  auth,
  // After sign-in's hook, so that the limiter knows who is asking (staff are not counted).
  rateLimit,
  notify,
  demo,
  workflow,
  messenger,
  notifications,
  presence,
  stomp,
  webApp,
] satisfies PluginModule[];

/** The route plugins, in registration order: the OpenAPI document lists their paths in it. */
const routeModules = async (): Promise<PluginModule[]> => [
  healthRoutes,
  docsRoutes,
  signInRoutes,
  logoutRoutes,
  setPasswordRoutes,
  profileRoutes,
  externalAuthRoutes,
  registrationRoutes,
  passwordResetRoutes,
  // exceljs is loaded when an app is built, not when this module is imported.
  entityRoutes,
  await import('./routes/export.ts'),
  await import('./routes/dashboard-export.ts'),
  referenceRoutes,
  fileRoutes,
  recordRoutes,
  // The manifest capabilities (drafts, public lookups and submissions, aggregates, merge, …): one folder each.
  ...(await loadCapabilityRoutes()),
  workflowRoutes,
  messengerRoutes,
  stompRoutes,
  visitRoutes,
  savedViewRoutes,
  openDataRoutes,
  staffUserRoutes,
  playgroundRoutes,
  dataHealthRoutes,
  integrationRoutes,
  myWorkRoutes,
  presenceRoutes,
  notificationRoutes,
  outboxLogRoutes,
  chatbotRoutes,
  webRoutes,
];

/** Every plugin module's tables, in the modules' order: the order they are created in. */
function migrationsOf(modules: readonly PluginModule[], config: AppConfig): MigrationRegistry {
  const registry = createMigrationRegistry();
  for (const { migrations = [] } of modules) {
    for (const migration of typeof migrations === 'function' ? migrations(config) : migrations)
      registry.register(migration);
  }
  return registry;
}

/** The workflow sweep's default period under `npm start` (one minute). */
export const DEFAULT_SWEEP_INTERVAL_MS = 60_000;

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface BuildAppOptions extends Partial<AppConfig> {
  logger?: FastifyServerOptions['logger'];
  /** Called with every route as it is registered, before any plugin adds one (tests list the routes this way). */
  onRoute?: (route: RouteOptions) => void;
}

/** Reads the configuration from the environment (docs/configuration.md). */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Partial<AppConfig> {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  return {
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    filesDir: env.FILES_DIR ? path.resolve(env.FILES_DIR) : path.join(dataDir, 'files'),
    filesS3: s3FilesFromEnv(env),
    ...(env.LIST_COUNT_CAP ? { listCountCap: Number(env.LIST_COUNT_CAP) } : {}),
    smtpUrl: env.SMTP_URL || undefined,
    smtpFrom: env.SMTP_FROM || undefined,
    smsGatewayUrl: env.SMS_GATEWAY_URL || undefined,
    systemUrls: env.STATE_SERVICE_URL ? { 'state-service': env.STATE_SERVICE_URL } : undefined,
    sweepIntervalMs:
      env.WORKFLOW_SWEEP_INTERVAL_MS !== undefined && env.WORKFLOW_SWEEP_INTERVAL_MS !== ''
        ? Number(env.WORKFLOW_SWEEP_INTERVAL_MS)
        : DEFAULT_SWEEP_INTERVAL_MS,
    demoUsers: env.DEMO === '1' || env.DEMO_USERS === '1',
    ...(env.MIGRATION_BATCH_SIZE ? { migrationBatchSize: Number(env.MIGRATION_BATCH_SIZE) } : {}),
    stompRelayUrl: env.STOMP_RELAY_URL || undefined,
    integrationEnv: Object.fromEntries(
      Object.entries(env).filter((e): e is [string, string] => e[0].startsWith('INTEGRATION_') && Boolean(e[1])),
    ),
    integrationSandbox: env.INTEGRATIONS === 'sandbox',
    sofficePath: env.SOFFICE_PATH || undefined,
    ...(env.DOCGEN_POOL_SIZE ? { docgenPoolSize: Number(env.DOCGEN_POOL_SIZE) } : {}),
    ...(env.DOCGEN_TIMEOUT_MS ? { docgenTimeoutMs: Number(env.DOCGEN_TIMEOUT_MS) } : {}),
    ...(env.ACCESS_TOKEN_SECONDS ? { accessTokenSeconds: Number(env.ACCESS_TOKEN_SECONDS) } : {}),
    allowedOrigins: env.STOMP_ALLOWED_ORIGINS
      ? env.STOMP_ALLOWED_ORIGINS.split(',')
          .map((o) => o.trim())
          .filter(Boolean)
      : undefined,
    seedSamples: env.SEED_SAMPLES !== '0',
    ...(env.PUBLIC_RATE_LIMIT ? { publicRateLimit: Number(env.PUBLIC_RATE_LIMIT) } : {}),
    rateLimitShared: env.RATE_LIMIT_SHARED === '1' || env.RATE_LIMIT_SHARED === 'true',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
  };
}

/**
 * TRUST_PROXY as Fastify's `trustProxy`: `true` (every proxy — only when nothing but the
 * balancer can reach the app), a hop count (`1`: the last proxy's view), or comma-separated
 * addresses/CIDRs of the balancers. Empty or `false` → not behind a proxy.
 * @example parseTrustProxy('10.0.0.0/8, 192.168.1.4') // ['10.0.0.0/8', '192.168.1.4']
 */
export function parseTrustProxy(value: string | undefined): AppConfig['trustProxy'] {
  const v = value?.trim();
  if (!v || v === 'false') return undefined;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  return v
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
}

/** Fastify's own types leave out the hop count its runtime accepts: the same rule as a function. */
function trustProxyOption(trust: NonNullable<AppConfig['trustProxy']>): FastifyServerOptions['trustProxy'] {
  if (typeof trust !== 'number') return trust;
  return (_address: string, hop: number) => hop < trust;
}

/**
 * The Fastify factory: the services, then the routes (see the top of this file). Tests call
 * it with `inMemory: true` (or a `databaseUrl`) and use `app.inject`.
 * @example const app = await buildApp({ inMemory: true }); await app.ready();
 */
export async function buildApp(options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = createInstance(options);
  const routes = await routeModules();
  app.decorate('migrations', migrationsOf([...SERVICES, ...routes], app.config));
  try {
    for (const service of SERVICES) await app.register(service.default);
    for (const route of routes) await app.register(route.default);
  } catch (error) {
    // A start that failed lets the next one on this database try (START_LOCK).
    if (app.hasDecorator('startDone')) await app.startDone().catch(() => undefined);
    throw error;
  }
  // Every service and route has started (seeded): another instance on this database may start.
  await app.startDone();
  return app;
}

/**
 * Opens and migrates the database as `buildApp` would — every feature's tables, the entity
 * tables, the summary tables — and closes it, starting nothing else (no seeds, no routes).
 * The tests make one migrated PGlite this way per run and start each app from a copy of it
 * (`pgliteImage`).
 */
export async function prepareDatabase(options: BuildAppOptions = {}): Promise<void> {
  const app = createInstance(options);
  const routes = await routeModules();
  app.decorate('migrations', migrationsOf([...SERVICES, ...routes], app.config));
  await app.register(definitions.default);
  await app.register(db.default);
  await app.ready();
  await app.close();
}

/** A Fastify instance with the configuration the options make, and no plugin yet. */
function createInstance(options: BuildAppOptions): FastifyInstance {
  const dataDir = options.dataDir ?? path.resolve('./data');
  const config: AppConfig = {
    root: options.root ?? REPO_ROOT,
    dataDir,
    databaseUrl: options.databaseUrl,
    inMemory: options.inMemory ?? false,
    pgliteImage: options.pgliteImage,
    filesDir: options.filesDir ?? path.join(dataDir, 'files'),
    filesS3: options.filesS3,
    listCountCap: options.listCountCap ?? DEFAULT_COUNT_CAP,
    adminPassword: options.adminPassword,
    signatureTrustedCas: options.signatureTrustedCas,
    oneId: options.oneId,
    clock: options.clock ?? (() => new Date()),
    smtpUrl: options.smtpUrl,
    smtpFrom: options.smtpFrom,
    smsGatewayUrl: options.smsGatewayUrl,
    systemUrls: options.systemUrls,
    // Off unless asked for: tests call the sweep themselves with a moved clock.
    sweepIntervalMs: options.sweepIntervalMs ?? 0,
    demoUsers: options.demoUsers ?? false,
    migrationBatchSize: options.migrationBatchSize,
    stompRelayUrl: options.stompRelayUrl,
    accessTokenSeconds: options.accessTokenSeconds,
    livePollMs: options.livePollMs,
    revocationPollMs: options.revocationPollMs,
    stompHeartbeatMs: options.stompHeartbeatMs,
    allowedOrigins: options.allowedOrigins,
    publicRateLimit: options.publicRateLimit,
    rateLimitShared: options.rateLimitShared ?? false,
    seedSamples: options.seedSamples ?? false,
    trustProxy: options.trustProxy,
    integrationEnv: options.integrationEnv,
    integrationSandbox: options.integrationSandbox ?? false,
    integrationOverrides: options.integrationOverrides,
    sofficePath: options.sofficePath,
    docgenPoolSize: options.docgenPoolSize,
    docgenTimeoutMs: options.docgenTimeoutMs,
  };
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 2 * 1024 * 1024,
    // Behind a load balancer request.ip must be the visitor's, not the balancer's (TRUST_PROXY).
    ...(config.trustProxy !== undefined ? { trustProxy: trustProxyOption(config.trustProxy) } : {}),
    // PGlite start-up plus the derived migrations can take well over avvio's 10 s default on a
    // loaded 2-core machine; a plugin that truly hangs still fails, later.
    pluginTimeout: 120_000,
    ajv: { customOptions: { strict: false } },
  });
  app.decorate('config', config);
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  return app;
}
