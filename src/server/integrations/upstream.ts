import {
  BrokenCircuitError,
  CircuitState,
  ConsecutiveBreaker,
  ExponentialBackoff,
  TaskCancelledError,
  circuitBreaker,
  handleWhen,
  retry,
  timeout,
  TimeoutStrategy,
  wrap,
  type CircuitBreakerPolicy,
  type IPolicy,
} from 'cockatiel';
import type { IntegrationAgency, IntegrationMethod } from '../../generated/meta.ts';

/** Where an agency is reached: its base URL and the headers that authorise a request; `sandbox` when it is the portal's own sandbox. */
export interface AgencyConnection {
  baseUrl: string;
  headers: Record<string, string>;
  sandbox: boolean;
}

/** The agency could not answer: down, an error status, too slow, or an answer that is not JSON. Counts against its circuit. */
export class UpstreamFailed extends Error {
  constructor(
    message: string,
    readonly httpStatus?: number,
  ) {
    super(message);
    this.name = 'UpstreamFailed';
  }
}

/** The agency refused the request itself (a 4xx other than 404 and 429): our side is wrong, the agency is up. */
export class UpstreamRefused extends Error {
  constructor(readonly httpStatus: number) {
    super(`the agency refused the request (${httpStatus})`);
    this.name = 'UpstreamRefused';
  }
}

/** What one upstream request gives: the answer's body, or null for the agency's "nothing found" (404, an empty body). */
export interface UpstreamAnswer {
  body: Record<string, unknown> | null;
  httpStatus: number;
}

/**
 * The connection of an agency from the environment: `INTEGRATION_<env>_URL` (with `_TOKEN` for
 * bearer, `_USER`/`_PASSWORD` for basic), else the sandbox's base (when it runs) + `/<agency>`;
 * undefined when neither — the agency is "not connected".
 * @example connectionOf(agency, { INTEGRATION_SOLIQ_URL: 'https://soliq.example/api' }, undefined)
 */
export function connectionOf(
  agency: IntegrationAgency,
  env: Readonly<Record<string, string | undefined>>,
  sandboxUrl: string | undefined,
): AgencyConnection | undefined {
  const url = env[`INTEGRATION_${agency.env}_URL`];
  if (url) {
    const headers: Record<string, string> = {};
    const token = env[`INTEGRATION_${agency.env}_TOKEN`];
    const user = env[`INTEGRATION_${agency.env}_USER`];
    if (agency.auth === 'bearer' && token) headers.authorization = `Bearer ${token}`;
    if (agency.auth === 'basic' && user)
      headers.authorization = `Basic ${Buffer.from(`${user}:${env[`INTEGRATION_${agency.env}_PASSWORD`] ?? ''}`).toString('base64')}`;
    return { baseUrl: url.replace(/\/+$/, ''), headers, sandbox: false };
  }
  if (sandboxUrl) return { baseUrl: `${sandboxUrl}/${agency.id}`, headers: {}, sandbox: true };
  return undefined;
}

/** One request to the agency as the method declares it; 404 or an empty body is "nothing found". */
export async function requestUpstream(
  connection: AgencyConnection,
  method: IntegrationMethod,
  params: Readonly<Record<string, unknown>>,
  signal: AbortSignal,
): Promise<UpstreamAnswer> {
  const url = new URL(`${connection.baseUrl}/${method.request.path}`);
  const inQuery = (method.request.in ?? (method.request.method === 'GET' ? 'query' : 'body')) === 'query';
  if (inQuery)
    for (const [name, value] of Object.entries(params))
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
  let res: Response;
  try {
    res = await fetch(url, {
      method: method.request.method,
      headers: {
        accept: 'application/json',
        ...connection.headers,
        ...(inQuery ? {} : { 'content-type': 'application/json' }),
      },
      ...(inQuery ? {} : { body: JSON.stringify(params) }),
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new UpstreamFailed(`unreachable: ${(error as Error).message}`);
  }
  if (res.status === 404 || res.status === 204) {
    await res.body?.cancel();
    return { body: null, httpStatus: res.status };
  }
  if (res.status >= 500 || res.status === 429 || res.status === 408) {
    await res.body?.cancel();
    throw new UpstreamFailed(`answered ${res.status}`, res.status);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new UpstreamRefused(res.status);
  }
  const text = await res.text();
  if (!text.trim()) return { body: null, httpStatus: res.status };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new UpstreamFailed('answered something that is not JSON', res.status);
  }
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new UpstreamFailed('answered something that is not an object', res.status);
  return { body: body as Record<string, unknown>, httpStatus: res.status };
}

/** Timings the tests may shorten (a breaker that half-opens in 200 ms rather than 30 s). */
export interface ResilienceOverrides {
  halfOpenAfterMs?: number;
  timeoutMs?: number;
  /** The first retry's delay (ms); each next one doubles, with jitter. */
  retryDelayMs?: number;
}

/** The breaker's state in the words of the API. */
export type BreakerState = 'closed' | 'open' | 'halfOpen';

const STATE_NAME: Record<CircuitState, BreakerState> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.Open]: 'open',
  [CircuitState.HalfOpen]: 'halfOpen',
  [CircuitState.Isolated]: 'open',
};

/** The policies of one agency (one circuit for all its methods). */
export interface AgencyPolicies {
  breaker: CircuitBreakerPolicy;
  /** Breaker and timeout: one attempt. */
  once: IPolicy<{ signal: AbortSignal }>;
  /** Retries with exponential backoff and decorrelated jitter around the breaker and the timeout: for idempotent calls. */
  retrying: IPolicy<{ signal: AbortSignal }>;
  state(): BreakerState;
}

/** Failures that count against the circuit and may be retried: the agency, not the request, is at fault. */
const isAgencyFailure = (error: unknown): boolean =>
  error instanceof UpstreamFailed || error instanceof TaskCancelledError;

/**
 * Builds an agency's policies from its definition (timeoutMs, retries, breaker) — cockatiel's
 * consecutive breaker, aggressive timeout, retry with decorrelated-jitter exponential backoff.
 * A refused request (4xx) neither opens the circuit nor is retried; an open circuit is not retried.
 */
export function agencyPolicies(agency: IntegrationAgency, overrides: ResilienceOverrides = {}): AgencyPolicies {
  const breaker = circuitBreaker(handleWhen(isAgencyFailure), {
    halfOpenAfter: overrides.halfOpenAfterMs ?? agency.breaker?.halfOpenAfterMs ?? 30_000,
    breaker: new ConsecutiveBreaker(agency.breaker?.failures ?? 5),
  });
  const limit = timeout(overrides.timeoutMs ?? agency.timeoutMs ?? 5000, TimeoutStrategy.Aggressive);
  const once = wrap(breaker, limit);
  const retrying = wrap(
    retry(handleWhen(isAgencyFailure), {
      maxAttempts: agency.retries ?? 1,
      backoff: new ExponentialBackoff({ initialDelay: overrides.retryDelayMs ?? 100, maxDelay: 2000 }),
    }),
    breaker,
    limit,
  );
  return { breaker, once, retrying, state: () => STATE_NAME[breaker.state] };
}

export { BrokenCircuitError, TaskCancelledError };
