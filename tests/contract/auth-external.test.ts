/**
 * Sign-in by digital signature and by OneID through the API, with real cryptography: a
 * throwaway CA and user certificate, and a real local OpenID provider (oidc-provider) —
 * OneID on both backends (its pending logins, with the remember-me choice, are a table).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { startTestApp } from '../support/app.ts';
import { backends } from '../support/databases.ts';
import { REFRESH_TOKEN_SECONDS, REMEMBER_REFRESH_SECONDS } from '../../src/server/auth/tokens.ts';
import { createTestCa, issueUserCertificate, opensslCmsSign, signCms } from '../support/test-ca.ts';
import { signInWithFetch, startTestOidcProvider, type TestOidcProvider } from '../support/oidc-provider.ts';

const anon = { authorization: '', 'accept-language': 'en' };

/** How long a refresh token was issued for, in seconds, as stored (only its hash is). */
const lifetimeOf = async (app: FastifyInstance, refreshToken: string) => {
  const { rows } = await app.db.query<{ seconds: number }>(
    'SELECT extract(epoch FROM expires_at - created_at)::int AS seconds FROM refresh_token WHERE token_hash = $1',
    [createHash('sha256').update(refreshToken).digest('hex')],
  );
  return rows[0]?.seconds;
};

describe('sign-in by digital signature', () => {
  let app: FastifyInstance;
  let close: () => Promise<void>;
  let ca: Awaited<ReturnType<typeof createTestCa>>;
  beforeAll(async () => {
    ca = await createTestCa({ cn: 'Test e-signature CA' });
    ({ app, close } = await startTestApp('pglite', { signatureTrustedCas: [ca.pem] }));
  });
  afterAll(async () => close?.());

  const challenge = async (query: string) =>
    (await app.inject({ method: 'GET', url: `/api/key-for-login-sign?${query}`, headers: anon })).json() as {
      challenge: string;
    };

  it('signs in the certificate holder, once per challenge, and refuses strangers', async () => {
    const user = await issueUserCertificate(ca, { cn: 'Karimov Anvar', tin: '512345678', pinfl: '31234567890123' });
    const { challenge: text } = await challenge('PNFL=31234567890123');
    const signedData = await signCms(user, text);
    const ok = await app.inject({
      method: 'POST',
      url: '/api/auth-payload',
      payload: { signedData, PNFL: '31234567890123' },
      headers: anon,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ isOuter: true, permissions: expect.arrayContaining(['create Appeal']) });
    expect(await lifetimeOf(app, ok.json().refreshToken)).toBe(REFRESH_TOKEN_SECONDS);
    // The same signed challenge again: used up.
    const replay = await app.inject({
      method: 'POST',
      url: '/api/auth-payload',
      payload: { signedData, PNFL: '31234567890123' },
      headers: anon,
    });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toMatch(/^The signature was not accepted/);
    // An account created from a proven identity is marked so (its PINFL opens records addressed to it).
    const created = await app.db.query<{ data: { identityVerified?: boolean } }>(
      `SELECT data FROM ${app.tables.get(app.definitions.access!.userEntity)!.table} WHERE id = $1`,
      [ok.json().id],
    );
    expect(created.rows[0]!.data.identityVerified).toBe(true);
    // The second sign-in finds the same account.
    const again = await app.inject({
      method: 'POST',
      url: '/api/auth-payload',
      payload: {
        signedData: await signCms(user, (await challenge('')).challenge),
        PNFL: '31234567890123',
        rememberMe: true,
      },
      headers: anon,
    });
    expect(again.json().id).toBe(ok.json().id);
    // "Remember me" beside the signature keeps the session 30 days, as with a password.
    expect(await lifetimeOf(app, again.json().refreshToken)).toBe(REMEMBER_REFRESH_SECONDS);
    // Someone else's PINFL claimed with this certificate, and a certificate of another CA.
    const mismatch = await app.inject({
      method: 'POST',
      url: '/api/auth-payload',
      payload: { signedData: await signCms(user, (await challenge('')).challenge), PNFL: '39999999999999' },
      headers: anon,
    });
    expect(mismatch.statusCode).toBe(401);
    const stranger = await issueUserCertificate(await createTestCa({ cn: 'Rogue CA' }), {
      cn: 'X',
      pinfl: '31234567890123',
    });
    const rogue = await app.inject({
      method: 'POST',
      url: '/api/auth-payload',
      payload: { signedData: await signCms(stranger, (await challenge('')).challenge) },
      headers: anon,
    });
    expect(rogue.statusCode).toBe(401);
    expect(rogue.json().details).toEqual({ code: 'untrusted' });
    expect(rogue.json().message).toMatch(
      /^The signature was not accepted: the certificate was not issued by a trusted/,
    );
    expect(mismatch.json().details).toEqual({ code: 'identity-mismatch' });
  });

  it('accepts a signature made by `openssl cms -sign` as docs/security.md says, detached with the challenge or attached', async () => {
    const user = await issueUserCertificate(ca, { cn: 'Toshmatova Dilnoza', pinfl: '41234567890123' });
    const detached = (await challenge('')).challenge;
    const signedData = await opensslCmsSign(user, detached);
    // Without the challenge it signs, a detached signature proves nothing.
    const bare = await app.inject({
      method: 'POST',
      url: '/api/auth-payload',
      payload: { signedData, PNFL: '41234567890123' },
      headers: anon,
    });
    expect(bare.statusCode).toBe(401);
    const ok = await app.inject({
      method: 'POST',
      url: '/api/auth-payload',
      payload: { signedData, challenge: detached, PNFL: '41234567890123' },
      headers: anon,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const attached = (await challenge('')).challenge;
    const again = await app.inject({
      method: 'POST',
      url: '/api/auth-payload',
      payload: {
        signedData: await opensslCmsSign(user, attached, { attached: true }),
        challenge: attached,
        PNFL: '41234567890123',
      },
      headers: anon,
    });
    expect(again.json().id).toBe(ok.json().id);
    // An attached signature over one challenge presented with another: refused.
    const other = (await challenge('')).challenge;
    const swapped = await app.inject({
      method: 'POST',
      url: '/api/auth-payload',
      payload: {
        signedData: await opensslCmsSign(user, (await challenge('')).challenge, { attached: true }),
        challenge: other,
      },
      headers: anon,
    });
    expect(swapped.statusCode).toBe(401);
  });

  it('says which sign-in methods are set up', async () => {
    const methods = await app.inject({ method: 'GET', url: '/api/auth/methods', headers: anon });
    expect(methods.json()).toEqual({ password: true, signature: true, oneId: false });
  });
});

// OneID keeps its pending logins (and the remember-me choice) in a table: both backends.
for (const backend of backends()) {
  describe.skipIf(!backend.available)(`sign-in by OneID on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let provider: TestOidcProvider;
    const redirectUri = 'http://portal.test/api/product-auth/auth/oneid/redirectUri';
    beforeAll(async () => {
      provider = await startTestOidcProvider({
        clientId: 'portal',
        clientSecret: 'portal-secret',
        redirectUri,
        account: {
          sub: 'oneid-42',
          pin: '41234567890123',
          first_name: 'Dilnoza',
          sur_name: 'Rahimova',
          full_name: 'Rahimova Dilnoza',
        },
      });
      ({ app, close } = await startTestApp(backend.name, {
        oneId: { issuer: provider.issuer, clientId: 'portal', clientSecret: 'portal-secret', redirectUri },
      }));
    });
    afterAll(async () => {
      await close?.();
      await provider?.close();
    });

    it('goes through the provider and comes back signed in, with the session in the fragment', async () => {
      expect((await app.inject({ method: 'GET', url: '/api/auth/methods', headers: anon })).json()).toEqual({
        password: true,
        signature: false,
        oneId: true,
      });
      const start = await app.inject({
        method: 'GET',
        url: '/api/product-auth/auth/oneid/login?redirect=/admin/appeals',
        headers: anon,
      });
      expect(start.statusCode).toBe(302);
      const { callbackUrl } = await signInWithFetch(String(start.headers.location), { redirectUri });
      const back = await app.inject({
        method: 'GET',
        url: `${callbackUrl.pathname}${callbackUrl.search}`,
        headers: anon,
      });
      expect(back.statusCode).toBe(302);
      const location = String(back.headers.location);
      expect(location.startsWith('/login?redirect=%2Fadmin%2Fappeals#session=')).toBe(true);
      const session = JSON.parse(Buffer.from(location.split('#session=')[1]!, 'base64url').toString()) as {
        token: string;
        refreshToken: string;
        employee: { firstName: string; lastName: string };
        isOuter: boolean;
      };
      expect(session.employee).toMatchObject({ firstName: 'Dilnoza', lastName: 'Rahimova' });
      expect(await lifetimeOf(app, session.refreshToken)).toBe(REFRESH_TOKEN_SECONDS);
      expect(session.isOuter).toBe(true);
      const me = await app.inject({
        method: 'POST',
        url: '/api/appeal/list-search',
        payload: {},
        headers: { authorization: `Bearer ${session.token}` },
      });
      expect(me.statusCode).toBe(200);
      // The same callback again: its state is used up, so no session.
      const replay = await app.inject({
        method: 'GET',
        url: `${callbackUrl.pathname}${callbackUrl.search}`,
        headers: anon,
      });
      expect(String(replay.headers.location)).toBe('/login?error=oneid');
    });

    it('honours "remember me" (remember=1), carried through the OIDC state', async () => {
      const start = await app.inject({
        method: 'GET',
        url: '/api/product-auth/auth/oneid/login?redirect=/cabinet&remember=1',
        headers: anon,
      });
      expect(start.statusCode).toBe(302);
      // The choice stays on the portal's side: the provider never sees it.
      expect(String(start.headers.location)).not.toMatch(/remember/);
      const { callbackUrl } = await signInWithFetch(String(start.headers.location), { redirectUri });
      const back = await app.inject({
        method: 'GET',
        url: `${callbackUrl.pathname}${callbackUrl.search}`,
        headers: anon,
      });
      const location = String(back.headers.location);
      expect(location.startsWith('/login?redirect=%2Fcabinet#session=')).toBe(true);
      const session = JSON.parse(Buffer.from(location.split('#session=')[1]!, 'base64url').toString()) as {
        refreshToken: string;
      };
      expect(await lifetimeOf(app, session.refreshToken)).toBe(REMEMBER_REFRESH_SECONDS);
    });
  });
}
