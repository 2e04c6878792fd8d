import type { OneIdConfig } from './auth/oneid/oneid-client.ts';
import type { S3FilesConfig } from './files/s3-config.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's settings (buildApp decorates it first; every plugin reads it). */
    config: AppConfig;
  }
}

/** Settings of one app instance, from the environment or from tests. */
export interface AppConfig {
  /** Repository root: definitions are read from here. */
  root: string;
  /** PGlite data and uploaded files live here (default ./data). */
  dataDir: string;
  /** `postgres://…` → real PostgreSQL; otherwise embedded PGlite under dataDir. */
  databaseUrl: string | undefined;
  /** Keep PGlite in memory (tests). */
  inMemory: boolean;
  /**
   * An in-memory PGlite starts from this data directory (an archive of PGlite's `dumpDataDir`)
   * instead of an empty one: the tests migrate one once per run (`prepareDatabase`) rather than
   * once per app, which on a loaded 2-core machine costs seconds each time. Start-up still
   * migrates (idempotently) and seeds as usual on top of it.
   */
  pgliteImage?: Blob | undefined;
  /** Where uploaded files are stored (default dataDir/files); with `filesS3`, only their temporary copies while received. */
  filesDir: string;
  /**
   * Files in an S3-compatible object store instead of `filesDir` (FILES_S3_ENDPOINT, _BUCKET,
   * _ACCESS_KEY, _SECRET_KEY, _REGION): what several instances behind a balancer need.
   */
  filesS3?: S3FilesConfig | undefined;
  /** How far list-search counts before it reports the cap (LIST_COUNT_CAP, default 10 000). */
  listCountCap: number;
  /** Password of the `admin` user created on first start (tests); else ADMIN_PASSWORD or random. */
  adminPassword?: string | undefined;
  /** PEM certificates trusted for signature sign-in (else the SIGNATURE_TRUSTED_CAS file). */
  signatureTrustedCas?: string[] | undefined;
  /** OneID (OpenID Connect) settings (else ONEID_* variables; absent = OneID off). */
  oneId?: OneIdConfig | undefined;
  /** The clock of confirmation codes, deadlines and sign-in throttling (tests move it instead of sleeping). */
  clock: () => Date;
  /** E-mail delivery: an SMTP URL for nodemailer (SMTP_URL) and the sender address (SMTP_FROM). */
  smtpUrl?: string | undefined;
  smtpFrom?: string | undefined;
  /** SMS delivery: the HTTP gateway taking `POST {to, text}` (SMS_GATEWAY_URL). */
  smsGatewayUrl?: string | undefined;
  /** Other systems by name and the URL their messages are posted to (STATE_SERVICE_URL → `state-service`). */
  systemUrls?: Readonly<Record<string, string>> | undefined;
  /** How often the workflow sweep looks for passed deadlines (WORKFLOW_SWEEP_INTERVAL_MS; 0 = only when called). */
  sweepIntervalMs?: number | undefined;
  /** Records per transaction of the start-up migration of stored records (MIGRATION_BATCH_SIZE, default 500). */
  migrationBatchSize?: number | undefined;
  /** Demo mode (DEMO=1 or DEMO_USERS=1): one user per default role, passwords printed once. Never on by default. */
  demoUsers?: boolean | undefined;
  /** Messenger broker: RabbitMQ's STOMP plugin (`stomp://user:pass@host:61613`, STOMP_RELAY_URL); absent = in-process. */
  stompRelayUrl?: string | undefined;
  /** Lifetime of access tokens in seconds (ACCESS_TOKEN_SECONDS, default 900); tests shorten it. */
  accessTokenSeconds?: number | undefined;
  /** How often the families other instances revoked (sign-out) are read, in ms (default 5 000; tests shorten it). */
  revocationPollMs?: number | undefined;
  /** How often live sockets' sessions are checked again (sign-out, disabled user) and counters recomputed, in ms (default 15 000). */
  livePollMs?: number | undefined;
  /** The live socket's heart-beat wish in ms, both ways (default 10 000); tests shorten it. */
  stompHeartbeatMs?: number | undefined;
  /** Browser origins allowed on the live socket besides the portal's own host (STOMP_ALLOWED_ORIGINS, comma-separated). */
  allowedOrigins?: string[] | undefined;
  /** Requests per address and minute on the public endpoints (PUBLIC_RATE_LIMIT, default 120). */
  publicRateLimit?: number | undefined;
  /**
   * Count the public rate limits in the database (RATE_LIMIT_SHARED=1) so that several instances
   * behind a balancer share one budget per address; otherwise each process counts its own.
   */
  rateLimitShared?: boolean | undefined;
  /**
   * Which proxies to believe about the visitor's address (TRUST_PROXY; Fastify's `trustProxy`):
   * `true` (any), a hop count, or addresses/CIDRs. Rate limits and the lookup log use `request.ip`.
   */
  trustProxy?: boolean | number | string[] | undefined;
  /**
   * The integration platform's variables (INTEGRATION_<AGENCY>_URL, _TOKEN, _USER, _PASSWORD;
   * schemas/_integrations/<agency>/agency.json names <AGENCY> as `env`).
   */
  integrationEnv?: Readonly<Record<string, string>> | undefined;
  /** INTEGRATIONS=sandbox: start the sandbox upstream in-process and point every agency without a URL at it. */
  integrationSandbox?: boolean | undefined;
  /** Shorter breaker, timeout and retry timings (tests). */
  integrationOverrides?: { halfOpenAfterMs?: number; timeoutMs?: number; retryDelayMs?: number } | undefined;
  /** LibreOffice's `soffice` for DOCX → PDF (SOFFICE_PATH, default `soffice` on the PATH); read at each conversion. */
  sofficePath?: string | undefined;
  /** Conversions at once, each with its own LibreOffice profile (DOCGEN_POOL_SIZE, default 2). */
  docgenPoolSize?: number | undefined;
  /** Longest one conversion may take, in ms (DOCGEN_TIMEOUT_MS, default 60 000). */
  docgenTimeoutMs?: number | undefined;
  /** Run the manifests' sample seeds (`seed.samples: true`; npm start: on unless SEED_SAMPLES=0; tests opt in). Required seeds always run. */
  seedSamples?: boolean | undefined;
}
