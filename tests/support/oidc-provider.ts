/**
 * A real OpenID provider (`oidc-provider` 9) on a free loopback port, standing in for
 * OneID in tests. It registers one confidential client (authorization code + PKCE S256
 * required), knows one account whose claims are returned as given (OneID's names: `pin`,
 * `tin`, `first_name`, `sur_name`, `mid_name`, `full_name`, `email`, `mob_phone_no`, …),
 * and replaces the provider's development interactions with its own tiny pages:
 *
 * - `interaction: 'form'` (default): `GET /interaction/:uid` serves a plain HTML form —
 *   login (`input[name=login]` prefilled with the account's `sub`, button
 *   `[data-oidc-submit]`), then consent (button `[data-oidc-submit]`). A browser clicks the
 *   button; {@link signInWithFetch} POSTs the forms without a browser.
 * - `interaction: 'auto'`: the interaction URL signs the account in and grants consent
 *   itself and redirects on, so a browser simply follows redirects back to the client.
 *
 * Cookie names are prefixed (`oidc_test_*`) so they cannot collide with the portal's
 * cookies on the same host (cookies ignore ports).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
// @ts-ignore -- oidc-provider ships no type declarations (the local interfaces below describe what is used).
import ProviderModule from 'oidc-provider';

/** The claims of the one account; `sub` is also the login name on the form. */
export interface TestOidcAccount {
  sub: string;
  pin?: string;
  tin?: string;
  first_name?: string;
  sur_name?: string;
  last_name?: string;
  mid_name?: string;
  full_name?: string;
  email?: string;
  mob_phone_no?: string;
  [claim: string]: unknown;
}

export interface TestOidcProviderOptions {
  clientId: string;
  clientSecret: string;
  /** Registered redirect URI(s) of the client. */
  redirectUri: string | string[];
  account: TestOidcAccount;
  /** How login and consent are completed; default `'form'`. */
  interaction?: 'form' | 'auto';
  /** Token endpoint client authentication; default `client_secret_post`. */
  tokenEndpointAuthMethod?: 'client_secret_post' | 'client_secret_basic';
}

export interface TestOidcProvider {
  /** Issuer URL, e.g. `http://127.0.0.1:41234` (discovery at `/.well-known/openid-configuration`). */
  issuer: string;
  close(): Promise<void>;
}

// The parts of oidc-provider's API used here.
interface Interaction {
  uid: string;
  prompt: { name: string; details: Record<string, unknown> };
  params: Record<string, unknown> & { client_id: string };
  session?: { accountId?: string };
  grantId?: string;
}
interface Grant {
  addOIDCScope(scope: string): void;
  addOIDCClaims(claims: string[]): void;
  addResourceScope(indicator: string, scope: string): void;
  save(): Promise<string>;
}
interface Provider {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
  interactionFinished(
    req: IncomingMessage,
    res: ServerResponse,
    result: Record<string, unknown>,
    options?: { mergeWithLastSubmission?: boolean },
  ): Promise<void>;
  Grant: { new (init: { accountId: string; clientId: string }): Grant; find(id: string): Promise<Grant | undefined> };
}
type ProviderConstructor = new (issuer: string, configuration: Record<string, unknown>) => Provider;
const ProviderClass = ProviderModule as unknown as ProviderConstructor;

const CLAIMS = {
  openid: ['sub'],
  profile: [
    'pin',
    'tin',
    'first_name',
    'sur_name',
    'last_name',
    'mid_name',
    'full_name',
    'name',
    'given_name',
    'family_name',
    'middle_name',
    'birth_date',
    'gd',
    'natn',
    'user_type',
  ],
  email: ['email', 'email_verified'],
  phone: ['mob_phone_no', 'phone_number', 'phone_number_verified'],
};

const esc = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const page = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title></head><body><h1>${esc(title)}</h1>${body}</body></html>`;

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * Starts the provider on 127.0.0.1 at a free port. Call `close()` when done (it also
 * drops kept-alive connections so the test process can exit).
 */
export async function startTestOidcProvider(options: TestOidcProviderOptions): Promise<TestOidcProvider> {
  const mode = options.interaction ?? 'form';
  const { account } = options;
  let provider: Provider | undefined;

  const finishLogin = (req: IncomingMessage, res: ServerResponse, accountId: string) =>
    provider!.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });

  const finishConsent = async (req: IncomingMessage, res: ServerResponse, details: Interaction) => {
    const p = provider!;
    const accountId = details.session?.accountId;
    if (!accountId) throw new Error('consent without a signed-in account');
    const grant =
      (details.grantId ? await p.Grant.find(details.grantId) : undefined) ??
      new p.Grant({ accountId, clientId: details.params.client_id });
    const missing = details.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
      grant.addResourceScope(indicator, scopes.join(' '));
    await p.interactionFinished(
      req,
      res,
      { consent: { grantId: await grant.save() } },
      { mergeWithLastSubmission: true },
    );
  };

  const html = (res: ServerResponse, status: number, body: string) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(body);
  };

  const loginForm = (uid: string, error?: string) =>
    page(
      'Sign in',
      `
    ${error ? `<p role="alert" data-oidc-error>${esc(error)}</p>` : ''}
    <form method="post" action="/interaction/${esc(uid)}/login" data-oidc-form="login">
      <label>Login <input name="login" autocomplete="username" value="${esc(account.sub)}"></label>
      <label>Password <input name="password" type="password" autocomplete="current-password"></label>
      <button type="submit" data-oidc-submit>Sign in</button>
    </form>`,
    );

  const consentForm = (uid: string, clientId: string) =>
    page(
      'Authorize',
      `
    <p>Allow <strong>${esc(clientId)}</strong> to read your profile?</p>
    <form method="post" action="/interaction/${esc(uid)}/confirm" data-oidc-form="consent">
      <input type="hidden" name="confirm" value="yes">
      <button type="submit" data-oidc-submit>Allow</button>
    </form>
    <form method="post" action="/interaction/${esc(uid)}/abort" data-oidc-form="abort">
      <button type="submit" data-oidc-abort>Cancel</button>
    </form>`,
    );

  const interaction = async (req: IncomingMessage, res: ServerResponse, uid: string, action: string | undefined) => {
    const p = provider!;
    const details = await p.interactionDetails(req, res);
    if (details.uid !== uid) return html(res, 400, page('Error', '<p>interaction mismatch</p>'));
    const prompt = details.prompt.name;
    if (req.method === 'GET' && action === undefined) {
      if (mode === 'auto') {
        if (prompt === 'login') return finishLogin(req, res, account.sub);
        if (prompt === 'consent') return finishConsent(req, res, details);
      }
      if (prompt === 'login') return html(res, 200, loginForm(uid));
      if (prompt === 'consent') return html(res, 200, consentForm(uid, details.params.client_id));
      return html(res, 501, page('Error', `<p>prompt ${esc(prompt)} not implemented</p>`));
    }
    if (req.method !== 'POST') return html(res, 405, page('Error', '<p>method not allowed</p>'));
    const form = await readForm(req);
    if (action === 'login' && prompt === 'login') {
      if (form.get('login') !== account.sub) return html(res, 200, loginForm(uid, 'Unknown login'));
      return finishLogin(req, res, account.sub);
    }
    if (action === 'confirm' && prompt === 'consent') return finishConsent(req, res, details);
    if (action === 'abort') {
      return p.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'End-User aborted interaction' },
        { mergeWithLastSubmission: false },
      );
    }
    return html(res, 400, page('Error', `<p>unexpected ${esc(action ?? '')} for prompt ${esc(prompt)}</p>`));
  };

  let handle: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = createServer((req, res) => {
    const match = /^\/interaction\/([^/?#]+)(?:\/(login|confirm|abort))?\/?(?:\?.*)?$/.exec(req.url ?? '');
    if (!match) return handle!(req, res);
    interaction(req, res, decodeURIComponent(match[1]!), match[2]).catch((error: unknown) => {
      if (res.headersSent) return res.end();
      const name = error instanceof Error ? error.name : 'Error';
      html(
        res,
        name === 'SessionNotFound' ? 400 : 500,
        page('Error', `<p>${esc(error instanceof Error ? error.message : String(error))}</p>`),
      );
    });
  });
  // Node closes idle keep-alive sockets after 5 s; on a loaded machine the client's pool can
  // pick such a socket just as it closes (ECONNRESET). Idle sockets live as long as the test.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;

  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  provider = new ProviderClass(issuer, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: Array.isArray(options.redirectUri) ? options.redirectUri : [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: options.tokenEndpointAuthMethod ?? 'client_secret_post',
      },
    ],
    async findAccount(_ctx: unknown, id: string) {
      if (id !== account.sub) return undefined;
      return { accountId: id, claims: async () => ({ ...account }) };
    },
    claims: CLAIMS,
    scopes: ['openid'],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, i: { uid: string }) => `/interaction/${i.uid}` },
    cookies: {
      keys: [randomBytes(32).toString('hex')],
      names: { session: 'oidc_test_session', interaction: 'oidc_test_interaction', resume: 'oidc_test_resume' },
    },
    jwks: { keys: [{ ...signingKey, kid: 'test-1', use: 'sig', alg: 'RS256' }] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
  });
  handle = provider.callback();

  return {
    issuer,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** One HTTP exchange made by {@link signInWithFetch}. */
export interface SignInStep {
  method: 'GET' | 'POST';
  url: string;
  status: number;
  /** `data-oidc-form` of the page served, when it was one of the provider's forms. */
  form?: string;
}

/**
 * Plays the browser without a browser: follows the authorization URL through the
 * provider's redirects with a cookie jar (`redirect: 'manual'`), submits the login form
 * (with `login`, default the account's `sub`) and the consent form, and stops at the
 * first redirect to `redirectUri`, returning that callback URL (with `code` and `state`,
 * or `error`) and every step taken.
 */
export async function signInWithFetch(
  authorizationUrl: string,
  options: { redirectUri: string; login?: string; maxSteps?: number },
): Promise<{ callbackUrl: URL; steps: SignInStep[] }> {
  const jar = new Map<string, string>();
  const steps: SignInStep[] = [];
  const target = new URL(options.redirectUri);
  const isCallback = (url: URL) => url.origin === target.origin && url.pathname === target.pathname;
  let request: { method: 'GET' | 'POST'; url: URL; body?: URLSearchParams } = {
    method: 'GET',
    url: new URL(authorizationUrl),
  };

  for (let i = 0; i < (options.maxSteps ?? 20); i++) {
    const headers: Record<string, string> = {};
    if (jar.size) headers.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    if (request.body) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(request.url, {
      method: request.method,
      headers,
      body: request.body?.toString(),
      redirect: 'manual',
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = cookie.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired =
        attributes.some((a) => /^\s*max-age\s*=\s*0\s*$/i.test(a)) ||
        attributes.some((a) => /^\s*expires\s*=/i.test(a) && Date.parse(a.split('=').slice(1).join('=')) <= Date.now());
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    const step: SignInStep = { method: request.method, url: request.url.href, status: res.status };
    steps.push(step);

    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      await res.arrayBuffer();
      const next = new URL(location, request.url);
      if (isCallback(next)) return { callbackUrl: next, steps };
      request = { method: 'GET', url: next };
      continue;
    }
    const body = await res.text();
    if (res.status !== 200)
      throw new Error(`provider answered ${res.status} at ${request.url.href}: ${body.slice(0, 500)}`);
    const form = /<form method="post" action="([^"]+)" data-oidc-form="(login|consent)">([\s\S]*?)<\/form>/.exec(body);
    if (!form) throw new Error(`no provider form at ${request.url.href}: ${body.slice(0, 500)}`);
    step.form = form[2]!;
    const fields = new URLSearchParams();
    for (const input of form[3]!.matchAll(/<input\b([^>]*)>/g)) {
      const name = /name="([^"]*)"/.exec(input[1]!)?.[1];
      const value = /value="([^"]*)"/.exec(input[1]!)?.[1] ?? '';
      if (name)
        fields.set(
          name,
          value
            .replace(/&quot;/g, '"')
            .replace(/&#39;/g, "'")
            .replace(/&lt;/g, '<')
            .replace(/&gt;/g, '>')
            .replace(/&amp;/g, '&'),
        );
    }
    if (form[2] === 'login') {
      if (options.login !== undefined) fields.set('login', options.login);
      fields.set('password', 'test');
    }
    request = { method: 'POST', url: new URL(form[1]!.replace(/&amp;/g, '&'), request.url), body: fields };
  }
  throw new Error(
    `no redirect to ${options.redirectUri} within ${options.maxSteps ?? 20} steps: ${JSON.stringify(steps)}`,
  );
}
