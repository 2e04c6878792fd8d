import { OneIdError, type OneIdConfig } from './oneid-client.ts';

/**
 * Reads the OneID registration from the environment: `ONEID_ISSUER`, `ONEID_CLIENT_ID`,
 * `ONEID_CLIENT_SECRET`, `ONEID_REDIRECT_URI` (all required; blank counts as unset), and
 * optionally `ONEID_SCOPE` and `ONEID_TOKEN_AUTH_METHOD` (`client_secret_post` or
 * `client_secret_basic`). Returns undefined when any required variable is missing, which
 * means OneID sign-in is switched off. An unknown `ONEID_TOKEN_AUTH_METHOD` throws
 * `OneIdError('not-configured')`.
 */
export function oneIdConfigFromEnv(env: Record<string, string | undefined> = process.env): OneIdConfig | undefined {
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const issuer = read('ONEID_ISSUER');
  const clientId = read('ONEID_CLIENT_ID');
  const clientSecret = read('ONEID_CLIENT_SECRET');
  const redirectUri = read('ONEID_REDIRECT_URI');
  if (!issuer || !clientId || !clientSecret || !redirectUri) return undefined;
  const config: OneIdConfig = { issuer, clientId, clientSecret, redirectUri };
  const scope = read('ONEID_SCOPE');
  if (scope) config.scope = scope;
  const method = read('ONEID_TOKEN_AUTH_METHOD');
  if (method === 'client_secret_post' || method === 'client_secret_basic') config.tokenEndpointAuthMethod = method;
  else if (method)
    throw new OneIdError(
      'not-configured',
      `ONEID_TOKEN_AUTH_METHOD must be client_secret_post or client_secret_basic, not ${method}`,
    );
  return config;
}
