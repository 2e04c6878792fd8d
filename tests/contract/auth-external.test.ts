/**
 * Sign-in by digital signature and by OneID through the API, with real cryptography: a
 * throwaway CA and user certificate, and a real local OpenID provider (oidc-provider).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestApp } from '../support/app.ts';
import { createTestCa, issueUserCertificate, opensslCmsSign, signCms } from '../support/test-ca.ts';
import { signInWithFetch, startTestOidcProvider, type TestOidcProvider } from '../support/oidc-provider.ts';

const anon = { authorization: '', 'accept-language': 'en' };

describe('sign-in by digital signature', () => {
  let app: FastifyInstance;
  let close: () => Promise<void>;
  let ca: Awaited<ReturnType<typeof createTestCa>>;
  beforeAll(async () => {
    ca = await createTestCa({ cn: 'Test e-signature CA' });
    ({ app, close } = await startTestApp('pglite', { signatureTrustedCas: [ca.pem] }));
  });
  afterAll(async () => close?.());

  const challenge = async (query: string) => (await app.inject({ method: 'GET', url: `/api/key-for-login-sign?${query}`, headers: anon })).json() as { challenge: string };

  it('signs in the certificate holder, once per challenge, and refuses strangers', async () => {
    const user = await issueUserCertificate(ca, { cn: 'Karimov Anvar', tin: '512345678', pinfl: '31234567890123' });
    const { challenge: text } = await challenge('PNFL=31234567890123');
    const signedData = await signCms(user, text);
    const ok = await app.inject({ method: 'POST', url: '/api/auth-payload', payload: { signedData, PNFL: '31234567890123' }, headers: anon });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ isOuter: true, permissions: expect.arrayContaining(['create Appeal']) });
    // The same signed challenge again: used up.
    const replay = await app.inject({ method: 'POST', url: '/api/auth-payload', payload: { signedData, PNFL: '31234567890123' }, headers: anon });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toMatch(/^The signature was not accepted/);
    // An account created from a proven identity is marked so (its PINFL opens records addressed to it).
    const created = await app.db.query<{ data: { identityVerified?: boolean } }>(`SELECT data FROM ${app.tables.get(app.definitions.access!.userEntity)!.table} WHERE id = $1`, [ok.json().id]);
    expect(created.rows[0]!.data.identityVerified).toBe(true);
    // The second sign-in finds the same account.
    const again = await app.inject({ method: 'POST', url: '/api/auth-payload', payload: { signedData: await signCms(user, (await challenge('')).challenge), PNFL: '31234567890123' }, headers: anon });
    expect(again.json().id).toBe(ok.json().id);
    // Someone else's PINFL claimed with this certificate, and a certificate of another CA.
    const mismatch = await app.inject({ method: 'POST', url: '/api/auth-payload', payload: { signedData: await signCms(user, (await challenge('')).challenge), PNFL: '39999999999999' }, headers: anon });
    expect(mismatch.statusCode).toBe(401);
    const stranger = await issueUserCertificate(await createTestCa({ cn: 'Rogue CA' }), { cn: 'X', pinfl: '31234567890123' });
    const rogue = await app.inject({ method: 'POST', url: '/api/auth-payload', payload: { signedData: await signCms(stranger, (await challenge('')).challenge) }, headers: anon });
    expect(rogue.statusCode).toBe(401);
    expect(rogue.json().details).toEqual({ code: 'untrusted' });
    expect(rogue.json().message).toMatch(/^The signature was not accepted: the certificate was not issued by a trusted/);
    expect(mismatch.json().details).toEqual({ code: 'identity-mismatch' });
  });

  it('accepts a signature made by `openssl cms -sign` as the README says, detached with the challenge or attached', async () => {
    const user = await issueUserCertificate(ca, { cn: 'Toshmatova Dilnoza', pinfl: '41234567890123' });
    const detached = (await challenge('')).challenge;
    const signedData = await opensslCmsSign(user, detached);
    // Without the challenge it signs, a detached signature proves nothing.
    const bare = await app.inject({ method: 'POST', url: '/api/auth-payload', payload: { signedData, PNFL: '41234567890123' }, headers: anon });
    expect(bare.statusCode).toBe(401);
    const ok = await app.inject({ method: 'POST', url: '/api/auth-payload', payload: { signedData, challenge: detached, PNFL: '41234567890123' }, headers: anon });
    expect(ok.statusCode, ok.body).toBe(200);
    const attached = (await challenge('')).challenge;
    const again = await app.inject({ method: 'POST', url: '/api/auth-payload', payload: { signedData: await opensslCmsSign(user, attached, { attached: true }), challenge: attached, PNFL: '41234567890123' }, headers: anon });
    expect(again.json().id).toBe(ok.json().id);
    // An attached signature over one challenge presented with another: refused.
    const other = (await challenge('')).challenge;
    const swapped = await app.inject({ method: 'POST', url: '/api/auth-payload', payload: { signedData: await opensslCmsSign(user, (await challenge('')).challenge, { attached: true }), challenge: other }, headers: anon });
    expect(swapped.statusCode).toBe(401);
  });

  it('says which sign-in methods are set up', async () => {
    const methods = await app.inject({ method: 'GET', url: '/api/auth/methods', headers: anon });
    expect(methods.json()).toEqual({ password: true, signature: true, oneId: false });
  });
});

describe('sign-in by OneID', () => {
  let app: FastifyInstance;
  let close: () => Promise<void>;
  let provider: TestOidcProvider;
  const redirectUri = 'http://portal.test/api/product-auth/auth/oneid/redirectUri';
  beforeAll(async () => {
    provider = await startTestOidcProvider({
      clientId: 'portal', clientSecret: 'portal-secret', redirectUri,
      account: { sub: 'oneid-42', pin: '41234567890123', first_name: 'Dilnoza', sur_name: 'Rahimova', full_name: 'Rahimova Dilnoza' },
    });
    ({ app, close } = await startTestApp('pglite', { oneId: { issuer: provider.issuer, clientId: 'portal', clientSecret: 'portal-secret', redirectUri } }));
  });
  afterAll(async () => {
    await close?.();
    await provider?.close();
  });

  it('goes through the provider and comes back signed in, with the session in the fragment', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/auth/methods', headers: anon })).json()).toEqual({ password: true, signature: false, oneId: true });
    const start = await app.inject({ method: 'GET', url: '/api/product-auth/auth/oneid/login?redirect=/admin/appeals', headers: anon });
    expect(start.statusCode).toBe(302);
    const { callbackUrl } = await signInWithFetch(String(start.headers.location), { redirectUri });
    const back = await app.inject({ method: 'GET', url: `${callbackUrl.pathname}${callbackUrl.search}`, headers: anon });
    expect(back.statusCode).toBe(302);
    const location = String(back.headers.location);
    expect(location.startsWith('/login?redirect=%2Fadmin%2Fappeals#session=')).toBe(true);
    const session = JSON.parse(Buffer.from(location.split('#session=')[1]!, 'base64url').toString()) as { token: string; employee: { firstName: string; lastName: string }; isOuter: boolean };
    expect(session.employee).toMatchObject({ firstName: 'Dilnoza', lastName: 'Rahimova' });
    expect(session.isOuter).toBe(true);
    const me = await app.inject({ method: 'POST', url: '/api/appeal/list-search', payload: {}, headers: { authorization: `Bearer ${session.token}` } });
    expect(me.statusCode).toBe(200);
    // The same callback again: its state is used up, so no session.
    const replay = await app.inject({ method: 'GET', url: `${callbackUrl.pathname}${callbackUrl.search}`, headers: anon });
    expect(String(replay.headers.location)).toBe('/login?error=oneid');
  });
});
