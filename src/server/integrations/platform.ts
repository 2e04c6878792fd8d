import { LRUCache } from 'lru-cache';
import type { ValidateFunction } from 'ajv';
import type { DefinitionRegistry, IntegrationAgencyDefinition } from '../../definitions/registry.ts';
import type { IntegrationMethod } from '../../generated/meta.ts';
import type { Locale } from '../../shared/locales.ts';
import { toFieldProblems } from '../../shared/validation/field-errors.ts';
import type { Actor } from '../auth/access.ts';
import { ApiError, badInput } from '../errors.ts';
import { createServerAjv } from '../validation.ts';
import { auditedParams, writeCall, type CallOutcome } from './audit.ts';
import { agencyTitle, localizedMethod } from './localize.ts';
import { createStats } from './stats.ts';
import {
  agencyPolicies,
  BrokenCircuitError,
  connectionOf,
  requestUpstream,
  TaskCancelledError,
  UpstreamFailed,
  UpstreamRefused,
  type AgencyConnection,
  type AgencyPolicies,
  type BreakerState,
  type ResilienceOverrides,
} from './upstream.ts';

/** A purpose must say something: at least this many characters. */
export const MIN_PURPOSE = 10;
const MAX_PURPOSE = 500;
/** A method's calls a minute per user unless it says otherwise. */
export const DEFAULT_PER_USER_PER_MINUTE = 30;

/** One call as a route (or the store) asks it. */
export interface CallInput {
  agency: string;
  method: string;
  params: unknown;
  purpose?: string | undefined;
  record?: { entity: string; id: number } | undefined;
  actor: Actor;
  locale: Locale;
  /** Ask the agency even if the cache holds an answer (a registry's "refresh now"); the answer still refreshes the cache. */
  fresh?: boolean;
}

/** What a call answers. */
export interface CallReply {
  found: boolean;
  result: Record<string, unknown> | null;
  cached: boolean;
  sandbox: boolean;
  durationMs: number;
  callId: number;
}

/** How the platform reaches its surroundings. */
export interface PlatformOptions {
  registry: DefinitionRegistry;
  /** INTEGRATION_* variables (URL, TOKEN, USER, PASSWORD per agency). */
  env: Readonly<Record<string, string | undefined>>;
  /** The sandbox's base URL when it runs: agencies without their own URL use it. */
  sandboxUrl?: string | undefined;
  overrides?: ResilienceOverrides | undefined;
  query: <R>(sql: string, params?: unknown[]) => Promise<{ rows: R[] }>;
  /** Counts a request in a one-minute window of `key` (the rate limiter's counter). */
  countRequest: (key: string) => Promise<{ start: number; n: number }>;
  /** Checks that the actor may read the record a call is made for (throws 403/404 otherwise). */
  checkRecord: (entity: string, id: number, actor: Actor) => Promise<void>;
  warn: (data: Record<string, unknown>, message: string) => void;
}

/** An agency's status as pages show it. */
export type AgencyStatus = 'connected' | 'sandbox' | 'notConnected';

/**
 * The integration platform: every agency method of schemas/_integrations is called through
 * {@link IntegrationPlatform.call}, which checks the caller's right (the method's roles), the
 * parameters (the method's schema), the purpose (personal data), the rate limits (user ×
 * method, method, agency), then answers from the cache or asks the agency through its
 * circuit breaker, timeout and — for idempotent methods — retries, and writes every call to the
 * append-only audit before the answer leaves. Nothing here names an agency.
 */
export function createIntegrationPlatform(options: PlatformOptions) {
  const { registry } = options;
  const ajv = createServerAjv();
  const validators = new Map<string, ValidateFunction>();
  const connections = new Map<string, AgencyConnection | undefined>();
  const policies = new Map<string, AgencyPolicies>();
  for (const [id, def] of registry.integrations) {
    connections.set(id, connectionOf(def.agency, options.env, options.sandboxUrl));
    policies.set(id, agencyPolicies(def.agency, options.overrides));
  }
  const stats = createStats();
  const cache = new LRUCache<string, { body: Record<string, unknown> | null }>({ max: 2000, ttlAutopurge: false });

  const statusOf = (agency: string): AgencyStatus => {
    const c = connections.get(agency);
    return !c ? 'notConnected' : c.sandbox ? 'sandbox' : 'connected';
  };
  const isAdmin = (actor: Actor) => actor.ability.can('manage', 'all');
  const mayCall = (actor: Actor, method: IntegrationMethod): boolean =>
    actor.ability.can('call', 'Integration') && (isAdmin(actor) || method.roles.some((r) => actor.roles.includes(r)));

  const find = (agency: string, method: string): { def: IntegrationAgencyDefinition; method: IntegrationMethod } => {
    const def = registry.integrations.get(agency);
    const found = def?.methods.get(method);
    if (!def || !found) throw new ApiError(404, 'errors.notFound');
    return { def, method: found };
  };

  const validatorOf = (agency: string, method: IntegrationMethod): ValidateFunction => {
    const key = `${agency}/${method.id}`;
    let v = validators.get(key);
    if (!v) validators.set(key, (v = ajv.compile(method.params)));
    return v;
  };

  /** Refuses with 429 when one of the windows is over its limit. */
  const limit = async (actor: Actor, def: IntegrationAgencyDefinition, method: IntegrationMethod) => {
    const key = `${def.agency.id}/${method.id}`;
    const windows: Array<[string, number | undefined]> = [
      [`integration user ${actor.id ?? actor.username} ${key}`, method.perUserPerMinute ?? DEFAULT_PER_USER_PER_MINUTE],
      [`integration method ${key}`, method.perMinute],
      [`integration agency ${def.agency.id}`, def.agency.perMinute],
    ];
    for (const [bucket, perMinute] of windows) {
      if (!perMinute) continue;
      const window = await options.countRequest(bucket);
      if (window.n > perMinute) {
        const seconds = Math.max(1, Math.ceil((window.start + 60_000 - Date.now()) / 1000));
        throw new ApiError(429, 'errors.tooManyRequests', { params: { seconds } });
      }
    }
  };

  async function call(input: CallInput): Promise<CallReply> {
    const { actor } = input;
    if (actor.id === null && !actor.trusted) throw new ApiError(401, 'errors.unauthorized');
    const { def, method } = find(input.agency, input.method);
    const started = performance.now();
    const params = (input.params && typeof input.params === 'object' ? input.params : {}) as Record<string, unknown>;
    const connection = connections.get(def.agency.id);
    const audit = (outcome: CallOutcome, extra: { httpStatus?: number | null; cached?: boolean } = {}) =>
      writeCall(options.query, {
        userId: actor.id,
        userName: actor.username,
        agency: def.agency.id,
        method: method.id,
        personalData: method.personalData,
        params: auditedParams(params, method.personalData),
        purpose: input.purpose?.trim() || null,
        record: input.record ?? null,
        outcome,
        httpStatus: extra.httpStatus ?? null,
        durationMs: performance.now() - started,
        cached: extra.cached ?? false,
        sandbox: connection?.sandbox ?? false,
      });
    if (!actor.trusted && !mayCall(actor, method)) {
      await audit('refused', { httpStatus: 403 });
      throw new ApiError(403, 'errors.forbidden');
    }
    // The parameters and the purpose: every problem at once, at its field.
    const validate = validatorOf(def.agency.id, method);
    const problems = validate(params)
      ? []
      : toFieldProblems(validate.errors).map((p) => ({ ...p, pointer: `/params${p.pointer}` }));
    const purpose = input.purpose?.trim() ?? '';
    if (method.personalData && purpose.length < MIN_PURPOSE)
      problems.push({
        pointer: '/purpose',
        key: purpose ? 'errors.integration.purposeShort' : 'errors.integration.purposeRequired',
        params: { limit: MIN_PURPOSE },
      });
    if (purpose.length > MAX_PURPOSE)
      problems.push({ pointer: '/purpose', key: 'validation.maxLength', params: { limit: MAX_PURPOSE } });
    if (problems.length) throw badInput(problems);
    if (input.record) await options.checkRecord(input.record.entity, input.record.id, actor);
    if (!actor.trusted) {
      try {
        await limit(actor, def, method);
      } catch (error) {
        await audit('refused', { httpStatus: 429 });
        throw error;
      }
    }
    if (!connection) throw new ApiError(503, 'errors.integration.notConnected');

    const cacheable = method.cache && (!method.personalData || method.cache.personalData);
    const cacheKey = `${def.agency.id}/${method.id} ${JSON.stringify(Object.entries(params).sort())}`;
    const hit = cacheable && !input.fresh ? cache.get(cacheKey) : undefined;
    if (hit) {
      const callId = await audit(hit.body ? 'ok' : 'notFound', { cached: true });
      return reply(hit.body, true, connection, started, callId);
    }

    const policy = policies.get(def.agency.id)!;
    const idempotent = method.idempotent ?? method.request.method === 'GET';
    // Each attempt is a sample of the agency's health: its latency, and whether it failed.
    const attempt = async (signal: AbortSignal) => {
      const at = performance.now();
      try {
        const answer = await requestUpstream(connection, method, params, signal);
        stats.record(def.agency.id, { at: Date.now(), ms: performance.now() - at, ok: true });
        return answer;
      } catch (error) {
        const problem = signal.aborted ? 'timed out' : (error as Error).message;
        stats.record(def.agency.id, {
          at: Date.now(),
          ms: performance.now() - at,
          ok: error instanceof UpstreamRefused,
          error: problem,
        });
        throw error;
      }
    };
    try {
      const answer = await (idempotent ? policy.retrying : policy.once).execute(({ signal }) => attempt(signal));
      if (cacheable) cache.set(cacheKey, { body: answer.body }, { ttl: method.cache!.ttlSeconds * 1000 });
      const callId = await audit(answer.body ? 'ok' : 'notFound', { httpStatus: answer.httpStatus });
      return reply(answer.body, false, connection, started, callId);
    } catch (error) {
      if (error instanceof BrokenCircuitError) {
        await audit('unavailable');
        throw new ApiError(503, 'errors.integration.circuitOpen', {
          params: { agency: agencyTitle(def, input.locale) },
        });
      }
      const refused = error instanceof UpstreamRefused;
      const failed = error instanceof UpstreamFailed || error instanceof TaskCancelledError;
      if (!refused && !failed) throw error;
      const httpStatus = refused || error instanceof UpstreamFailed ? (error.httpStatus ?? null) : null;
      const message = error instanceof TaskCancelledError ? 'timed out' : error.message;
      // The answer is never logged; the agency, the method and what went wrong are.
      options.warn({ agency: def.agency.id, method: method.id, problem: message }, 'integration call failed');
      await audit(refused ? 'refused' : 'failed', { httpStatus });
      throw new ApiError(refused ? 502 : 503, refused ? 'errors.integration.refused' : 'errors.integration.failed', {
        params: { agency: agencyTitle(def, input.locale) },
      });
    }
  }

  const reply = (
    body: Record<string, unknown> | null,
    cached: boolean,
    connection: AgencyConnection,
    started: number,
    callId: number,
  ): CallReply => ({
    found: body !== null,
    result: body,
    cached,
    sandbox: connection.sandbox,
    durationMs: Math.round(performance.now() - started),
    callId,
  });

  return {
    call,
    /** The agencies and methods the actor may call, in the reader's language (GET /api/integrations). */
    catalogue(actor: Actor, locale: Locale) {
      const agencies = [];
      for (const [id, def] of registry.integrations) {
        const methods = [...def.methods.values()]
          .filter((m) => mayCall(actor, m))
          .map((m) => localizedMethod(m, locale));
        if (!methods.length) continue;
        agencies.push({
          id,
          title: agencyTitle(def, locale),
          description: def.agency.description,
          status: statusOf(id),
          breaker: policies.get(id)!.state(),
          methods,
        });
      }
      return { sandbox: options.sandboxUrl !== undefined, agencies };
    },
    /** Every agency's connection, circuit and recent calls (GET /api/integrations/health). */
    health(locale: Locale) {
      return {
        list: [...registry.integrations].map(([id, def]) => ({
          agency: id,
          title: agencyTitle(def, locale),
          status: statusOf(id),
          breaker: policies.get(id)!.state() as BreakerState,
          ...stats.of(id),
        })),
      };
    },
    statusOf,
  };
}

export type IntegrationPlatform = ReturnType<typeof createIntegrationPlatform>;
