import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyServerOptions, type RouteOptions } from 'fastify';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppConfig } from './context.ts';
import { createMigrationRegistry, type Migration } from './db/migrations.ts';
import { DEFAULT_COUNT_CAP } from './store/list-query.ts';
import * as definitions from './plugins/definitions.ts';
import * as db from './plugins/db.ts';
import * as store from './plugins/store.ts';
import * as http from './plugins/http.ts';
import * as docs from './plugins/docs.ts';
import * as entities from './plugins/entities.ts';
import * as references from './plugins/references.ts';
import * as files from './plugins/files.ts';
import * as seed from './plugins/seed.ts';
import * as auth from './plugins/auth.ts';
import * as authExternal from './plugins/auth-external.ts';
import * as records from './plugins/records.ts';
import * as drafts from './plugins/drafts.ts';
import * as workflow from './plugins/workflow.ts';
import * as web from './plugins/web.ts';
import * as securityHeaders from './plugins/security-headers.ts';
import * as notify from './plugins/notify.ts';
import * as registration from './plugins/registration.ts';
import * as passwordReset from './plugins/password-reset.ts';
import * as demo from './plugins/demo.ts';
import * as publicLookups from './plugins/public-lookups.ts';
import * as publicSubmit from './plugins/public-submit.ts';
import * as messenger from './plugins/messenger.ts';
import * as stomp from './plugins/stomp.ts';
import * as rateLimit from './plugins/rate-limit.ts';
import * as aggregates from './plugins/aggregates.ts';
import * as visits from './plugins/visits.ts';
import * as openData from './plugins/open-data.ts';
import * as merge from './plugins/merge.ts';
import * as questionnaires from './plugins/questionnaires.ts';
import * as staffUsers from './plugins/staff-users.ts';

/** The workflow sweep's default period under `npm start` (one minute). */
export const DEFAULT_SWEEP_INTERVAL_MS = 60_000;

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface BuildAppOptions extends Partial<AppConfig> {
  logger?: FastifyServerOptions['logger'];
  /** Called with every route as it is registered, before any plugin adds one (tests list the routes this way). */
  onRoute?: (route: RouteOptions) => void;
}

/** Reads the configuration from the environment (see README). */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Partial<AppConfig> {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  return {
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    filesDir: env.FILES_DIR ? path.resolve(env.FILES_DIR) : path.join(dataDir, 'files'),
    ...(env.LIST_COUNT_CAP ? { listCountCap: Number(env.LIST_COUNT_CAP) } : {}),
    smtpUrl: env.SMTP_URL || undefined,
    smtpFrom: env.SMTP_FROM || undefined,
    smsGatewayUrl: env.SMS_GATEWAY_URL || undefined,
    systemUrls: env.STATE_SERVICE_URL ? { 'state-service': env.STATE_SERVICE_URL } : undefined,
    sweepIntervalMs: env.WORKFLOW_SWEEP_INTERVAL_MS !== undefined && env.WORKFLOW_SWEEP_INTERVAL_MS !== '' ? Number(env.WORKFLOW_SWEEP_INTERVAL_MS) : DEFAULT_SWEEP_INTERVAL_MS,
    demoUsers: env.DEMO === '1' || env.DEMO_USERS === '1',
    stompRelayUrl: env.STOMP_RELAY_URL || undefined,
    ...(env.ACCESS_TOKEN_SECONDS ? { accessTokenSeconds: Number(env.ACCESS_TOKEN_SECONDS) } : {}),
    allowedOrigins: env.STOMP_ALLOWED_ORIGINS ? env.STOMP_ALLOWED_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean) : undefined,
    seedSamples: env.SEED_SAMPLES !== '0',
    ...(env.PUBLIC_RATE_LIMIT ? { publicRateLimit: Number(env.PUBLIC_RATE_LIMIT) } : {}),
    rateLimitShared: env.RATE_LIMIT_SHARED === '1' || env.RATE_LIMIT_SHARED === 'true',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    // Every *_URL variable is offered; a plugin reads only the ones its manifests name.
    integrationUrls: Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => /_URL$/.test(e[0]) && Boolean(e[1]))),
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
  return v.split(',').map((a) => a.trim()).filter(Boolean);
}

/** Fastify's own types leave out the hop count its runtime accepts: the same rule as a function. */
function trustProxyOption(trust: NonNullable<AppConfig['trustProxy']>): FastifyServerOptions['trustProxy'] {
  if (typeof trust !== 'number') return trust;
  return (_address: string, hop: number) => hop < trust;
}

/** A plugin module: its plugin, and the tables its feature adds (db/migrations.ts). */
interface PluginModule {
  default: FastifyPluginAsync;
  /** The feature's tables, or the choice of them the configuration makes. */
  migrations?: readonly Migration[] | ((config: AppConfig) => readonly Migration[]);
}

/** Every plugin module's tables, in the modules' order: the order they are created in. */
function migrationsOf(modules: readonly PluginModule[], config: AppConfig) {
  const registry = createMigrationRegistry();
  for (const { migrations = [] } of modules) {
    for (const migration of typeof migrations === 'function' ? migrations(config) : migrations) registry.register(migration);
  }
  return registry;
}

/**
 * The Fastify factory: every concern is a plugin, composed here. Tests call it with
 * `inMemory: true` (or a `databaseUrl`) and use `app.inject`.
 * @example const app = await buildApp({ inMemory: true }); await app.ready();
 */
export async function buildApp(options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const dataDir = options.dataDir ?? path.resolve('./data');
  const config: AppConfig = {
    root: options.root ?? REPO_ROOT,
    dataDir,
    databaseUrl: options.databaseUrl,
    inMemory: options.inMemory ?? false,
    filesDir: options.filesDir ?? path.join(dataDir, 'files'),
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
    integrationUrls: options.integrationUrls,
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
  // exceljs is loaded when an app is built, not when this module is imported.
  const plugins = [
    definitions, http,
    // Before every route, so that each reply carries the browser security headers.
    securityHeaders,
    db,
    // Right after the database: the OpenAPI document sees only the routes registered after it.
    docs,
    store, seed, auth, authExternal,
    // After sign-in's hook, so that the limiter knows who is asking (staff are not counted).
    rateLimit,
    notify, demo, registration, passwordReset, entities, await import('./plugins/export.ts'), references, files, records, drafts,
    publicLookups, publicSubmit, workflow, messenger, stomp, aggregates, visits, openData, merge, questionnaires, staffUsers, web,
  ] satisfies PluginModule[];
  app.decorate('migrations', migrationsOf(plugins, config));
  for (const plugin of plugins) await app.register(plugin.default);
  return app;
}
