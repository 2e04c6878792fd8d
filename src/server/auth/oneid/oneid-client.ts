/**
 * OneID single sign-on: OpenID Connect authorization code flow with PKCE (S256), state
 * and nonce, through `openid-client` 6. The portal calls `startLogin` to get the URL to
 * send the browser to, and `finishLogin` from `GET /api/product-auth/auth/oneid/redirectUri`
 * (spec §7: query `code`, `state`) to get the person back.
 */
import * as oidc from 'openid-client';
import { mapOneIdClaims, type OneIdIdentity } from './claims.ts';
import type { PendingLoginStore } from './pending-store.ts';

export { mapOneIdClaims, type OneIdIdentity } from './claims.ts';
export {
  createMemoryPendingLoginStore,
  createSqlPendingLoginStore,
  ONEID_DDL,
  ONEID_TABLES,
  type PendingLogin,
  type PendingLoginStore,
  type PendingStoreOptions,
} from './pending-store.ts';

/** How the portal is registered at the OneID provider. */
export interface OneIdConfig {
  /** Issuer URL; discovery reads `{issuer}/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The callback URL registered at the provider, exactly as registered. */
  redirectUri: string;
  /** Space-separated scopes; `openid` is added when missing. Default `openid profile email phone`. */
  scope?: string;
  /** How the client authenticates at the token endpoint. Default `client_secret_post`. */
  tokenEndpointAuthMethod?: 'client_secret_post' | 'client_secret_basic';
}

/** Tuning that is not part of the provider registration. */
export interface OneIdClientOptions {
  /** How long a started login may take, in milliseconds. Default 10 minutes. */
  pendingTtlMs?: number;
  /** Clock in epoch milliseconds (tests). Default `Date.now`. */
  now?: () => number;
  /** Timeout of each request to the provider, in seconds. Default 15. */
  timeoutSeconds?: number;
}

export type OneIdErrorCode = 'unknown-state' | 'exchange-failed' | 'invalid-token' | 'not-configured';

/**
 * Why a OneID sign-in failed:
 * - `unknown-state`: the callback's `state` is missing, unknown, already used or expired;
 * - `exchange-failed`: the provider reported an error (e.g. the user cancelled) or the code
 *   exchange / userinfo request failed (bad or replayed code, provider unreachable);
 * - `invalid-token`: the provider's answer did not validate (ID token signature, issuer,
 *   audience, nonce, expiry, userinfo subject);
 * - `not-configured`: the configuration is unusable (bad issuer URL, plain http on a
 *   non-loopback host) or the provider's discovery document cannot be read.
 */
export class OneIdError extends Error {
  readonly code: OneIdErrorCode;

  constructor(code: OneIdErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OneIdError';
    this.code = code;
  }
}

/** What `finishLogin` yields. */
export interface OneIdLoginResult {
  identity: OneIdIdentity;
  /** The local path given to `startLogin`, if any. */
  redirect?: string;
  /** Whether `startLogin` was asked to remember the session (a 30-day refresh token). */
  remember: boolean;
}

export interface OneIdClient {
  /**
   * Begins a sign-in: stores a fresh PKCE verifier, nonce and the optional return path
   * under a fresh `state`, and returns the provider's authorization URL to redirect to.
   * A `redirect` that is not a local path (`/…`, not `//…`) is dropped; `remember` (the
   * person ticked "remember me") comes back from `finishLogin`.
   */
  startLogin(options?: {
    redirect?: string | undefined;
    remember?: boolean | undefined;
  }): Promise<{ url: string; state: string }>;
  /**
   * Completes a sign-in from the callback URL. Only its query (`code`, `state`, `iss`,
   * `error`) is used; the token request names the configured `redirectUri`, so the URL may
   * be reconstructed behind a proxy. The state is consumed even when the sign-in fails.
   */
  finishLogin(currentUrl: URL): Promise<OneIdLoginResult>;
}

const DEFAULT_SCOPE = 'openid profile email phone';

/** True for hosts that never leave the machine, where plain http is acceptable. */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

/** The return path when it is safe to redirect to, otherwise undefined. */
function localPath(redirect: string | undefined): string | undefined {
  if (redirect === undefined || !redirect.startsWith('/') || redirect.startsWith('//') || redirect.startsWith('/\\'))
    return undefined;
  return /[\u0000-\u001f\u007f]/.test(redirect) ? undefined : redirect;
}

/** Transport and protocol failures, as opposed to answers that did not validate. */
function isExchangeFailure(error: unknown): boolean {
  if (
    error instanceof oidc.ResponseBodyError ||
    error instanceof oidc.AuthorizationResponseError ||
    error instanceof oidc.WWWAuthenticateChallengeError ||
    error instanceof TypeError
  )
    return true;
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) return true;
  const code = error instanceof oidc.ClientError ? error.code : undefined;
  return (
    code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' ||
    code === 'OAUTH_RESPONSE_IS_NOT_JSON' ||
    code === 'OAUTH_HTTP_REQUEST_FORBIDDEN' ||
    code === 'OAUTH_REQUEST_PROTOCOL_FORBIDDEN'
  );
}

const describe = (error: unknown): string => {
  if (error instanceof oidc.ResponseBodyError || error instanceof oidc.AuthorizationResponseError) {
    return error.error_description ? `${error.error}: ${error.error_description}` : error.error;
  }
  return error instanceof Error ? error.message : String(error);
};

/**
 * Creates the OneID client. Discovery runs on first use and is cached (a failed discovery
 * is retried on the next call). Plain-http issuers are accepted only on loopback hosts
 * (tests); anything else throws `OneIdError('not-configured')` here.
 */
export function createOneIdClient(
  config: OneIdConfig,
  store: PendingLoginStore,
  options: OneIdClientOptions = {},
): OneIdClient {
  const now = options.now ?? Date.now;
  const ttl = options.pendingTtlMs ?? 10 * 60_000;
  const timeout = options.timeoutSeconds ?? 15;
  let issuer: URL;
  let redirectUri: URL;
  try {
    issuer = new URL(config.issuer);
    redirectUri = new URL(config.redirectUri);
  } catch (error) {
    throw new OneIdError('not-configured', 'OneID issuer or redirect URI is not a valid URL', { cause: error });
  }
  if (!config.clientId || !config.clientSecret)
    throw new OneIdError('not-configured', 'OneID client id and secret are required');
  if (issuer.protocol !== 'http:' && issuer.protocol !== 'https:')
    throw new OneIdError('not-configured', 'OneID issuer must be an http(s) URL');
  const insecure = issuer.protocol === 'http:';
  if (insecure && !isLoopback(issuer.hostname)) {
    throw new OneIdError('not-configured', 'OneID issuer must use https (plain http is allowed on loopback only)');
  }
  const scopes = (config.scope ?? DEFAULT_SCOPE).split(/\s+/).filter(Boolean);
  const scope = (scopes.includes('openid') ? scopes : ['openid', ...scopes]).join(' ');
  const auth =
    config.tokenEndpointAuthMethod === 'client_secret_basic'
      ? oidc.ClientSecretBasic(config.clientSecret)
      : oidc.ClientSecretPost(config.clientSecret);

  let discovered: Promise<oidc.Configuration> | undefined;
  const configuration = (): Promise<oidc.Configuration> => {
    discovered ??= oidc
      .discovery(
        issuer,
        config.clientId,
        { client_secret: config.clientSecret, redirect_uris: [redirectUri.href] },
        auth,
        {
          execute: insecure ? [oidc.allowInsecureRequests] : [],
          timeout,
        },
      )
      .catch((error: unknown) => {
        discovered = undefined;
        throw new OneIdError('not-configured', `OneID discovery failed: ${describe(error)}`, { cause: error });
      });
    return discovered;
  };

  return {
    async startLogin(request = {}) {
      const provider = await configuration();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const codeChallenge = await oidc.calculatePKCECodeChallenge(codeVerifier);
      await store.put(state, {
        codeVerifier,
        nonce,
        redirect: localPath(request.redirect),
        remember: request.remember === true,
        expiresAt: now() + ttl,
      });
      const url = oidc.buildAuthorizationUrl(provider, {
        redirect_uri: redirectUri.href,
        scope,
        state,
        nonce,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
      });
      return { url: url.href, state };
    },

    async finishLogin(currentUrl) {
      const state = currentUrl.searchParams.get('state');
      const pending = state ? await store.take(state) : undefined;
      if (!state || !pending) throw new OneIdError('unknown-state', 'OneID sign-in state is unknown, used or expired');
      const provider = await configuration();

      const callback = new URL(redirectUri.href);
      callback.search = currentUrl.search;
      callback.hash = '';
      const providerError = callback.searchParams.get('error');
      if (providerError) {
        const description = callback.searchParams.get('error_description');
        throw new OneIdError(
          'exchange-failed',
          `OneID refused the sign-in: ${description ? `${providerError}: ${description}` : providerError}`,
        );
      }
      if (!callback.searchParams.get('code'))
        throw new OneIdError('exchange-failed', 'OneID callback without an authorization code');

      let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
      try {
        tokens = await oidc.authorizationCodeGrant(provider, callback, {
          pkceCodeVerifier: pending.codeVerifier,
          expectedNonce: pending.nonce,
          expectedState: state,
          idTokenExpected: true,
        });
      } catch (error) {
        const code = isExchangeFailure(error) ? 'exchange-failed' : 'invalid-token';
        throw new OneIdError(code, `OneID code exchange failed: ${describe(error)}`, { cause: error });
      }
      const idClaims = tokens.claims();
      if (!idClaims) throw new OneIdError('invalid-token', 'OneID returned no ID token');

      let userinfo: Record<string, unknown> = {};
      if (provider.serverMetadata().userinfo_endpoint) {
        try {
          userinfo = await oidc.fetchUserInfo(provider, tokens.access_token, idClaims.sub);
        } catch (error) {
          const code = isExchangeFailure(error) ? 'exchange-failed' : 'invalid-token';
          throw new OneIdError(code, `OneID userinfo failed: ${describe(error)}`, { cause: error });
        }
      }
      const identity = mapOneIdClaims({ ...idClaims, ...userinfo, sub: idClaims.sub });
      const remember = pending.remember === true;
      return pending.redirect === undefined
        ? { identity, remember }
        : { identity, redirect: pending.redirect, remember };
    },
  };
}
