// OneID sign-in against a real local OpenID provider (oidc-provider), no mocks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import type { Queryable } from '../../src/server/db/database.ts';
import {
  createMemoryPendingLoginStore,
  createOneIdClient,
  createSqlPendingLoginStore,
  mapOneIdClaims,
  ONEID_DDL,
  OneIdError,
  type OneIdErrorCode,
  type PendingLoginStore,
} from '../../src/server/auth/oneid/oneid-client.ts';
import { oneIdConfigFromEnv } from '../../src/server/auth/oneid/config.ts';
import { signInWithFetch, startTestOidcProvider, type TestOidcProvider } from '../support/oidc-provider.ts';

const REDIRECT_URI = 'http://127.0.0.1:5173/api/product-auth/auth/oneid/redirectUri';
const CLIENT = { clientId: 'raqobat-portal', clientSecret: 'a-long-enough-test-client-secret-0123456789' };
const ACCOUNT = {
  sub: 'oneid-user-7',
  pin: '31234567890123',
  tin: '123456789',
  first_name: 'ALISHER',
  sur_name: 'KARIMOV',
  mid_name: 'BAHODIROVICH',
  full_name: 'KARIMOV ALISHER BAHODIROVICH',
  email: 'alisher@example.uz',
  mob_phone_no: '998901234567',
};

async function rejection(promise: Promise<unknown>): Promise<OneIdError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OneIdError);
  return error as OneIdError;
}
const expectCode = async (promise: Promise<unknown>, code: OneIdErrorCode) =>
  expect((await rejection(promise)).code).toBe(code);

/** A tiny Queryable over PGlite, as the portal's database layer provides. */
async function pglite(): Promise<{ db: Queryable; close(): Promise<void> }> {
  const pg = await PGlite.create('memory://');
  return {
    db: {
      async query<T>(sql: string, params?: unknown[]) {
        const result = await pg.query<T>(sql, params as never[]);
        return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
      },
    },
    close: () => pg.close(),
  };
}

describe('OneID client against a real OpenID provider', () => {
  let provider: TestOidcProvider;
  const client = (store: PendingLoginStore = createMemoryPendingLoginStore()) =>
    createOneIdClient({ issuer: provider.issuer, ...CLIENT, redirectUri: REDIRECT_URI }, store);

  beforeAll(async () => {
    provider = await startTestOidcProvider({ ...CLIENT, redirectUri: REDIRECT_URI, account: ACCOUNT });
  });
  afterAll(async () => {
    await provider?.close();
  });

  it('startLogin gives an authorization code + PKCE S256 URL with state and nonce', async () => {
    const { url, state } = await client().startLogin();
    const u = new URL(url);
    expect(u.origin).toBe(provider.issuer);
    expect(u.pathname).toBe('/auth');
    const q = u.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe(CLIENT.clientId);
    expect(q.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(q.get('scope')?.split(' ')).toContain('openid');
    expect(q.get('state')).toBe(state);
    expect(q.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/);
  });

  it('goes through authorize → login → consent → callback and maps the OneID claims', async () => {
    const oneid = client();
    const { url, state } = await oneid.startLogin({ redirect: '/cabinet/appeals?tab=2' });
    const { callbackUrl, steps } = await signInWithFetch(url, { redirectUri: REDIRECT_URI });
    expect(steps.filter((s) => s.form).map((s) => s.form)).toEqual(['login', 'consent']);
    expect(callbackUrl.searchParams.get('state')).toBe(state);
    expect(callbackUrl.searchParams.get('code')).toBeTruthy();

    // The portal may see its own URL differently behind a proxy: only the query matters.
    const seenByServer = new URL(`http://10.0.0.5:3000/api/product-auth/auth/oneid/redirectUri${callbackUrl.search}`);
    const result = await oneid.finishLogin(seenByServer);
    expect(result).toEqual({
      identity: {
        provider: 'oneid',
        subject: ACCOUNT.sub,
        pinfl: ACCOUNT.pin,
        tin: ACCOUNT.tin,
        fullName: ACCOUNT.full_name,
        firstName: ACCOUNT.first_name,
        lastName: ACCOUNT.sur_name,
        middleName: ACCOUNT.mid_name,
        email: ACCOUNT.email,
        phone: ACCOUNT.mob_phone_no,
      },
      redirect: '/cabinet/appeals?tab=2',
      remember: false,
    });

    // The state is one-time: replaying the same callback fails before reaching the provider.
    await expectCode(oneid.finishLogin(callbackUrl), 'unknown-state');
  });

  it('rejects a tampered code with exchange-failed (and the state stays consumed)', async () => {
    const oneid = client();
    const { url } = await oneid.startLogin();
    const { callbackUrl } = await signInWithFetch(url, { redirectUri: REDIRECT_URI });
    const tampered = new URL(callbackUrl);
    tampered.searchParams.set('code', `${callbackUrl.searchParams.get('code')!.slice(0, -4)}AAAA`);
    await expectCode(oneid.finishLogin(tampered), 'exchange-failed');
    await expectCode(oneid.finishLogin(callbackUrl), 'unknown-state');
  });

  it('rejects unknown, missing and expired states with unknown-state', async () => {
    const oneid = client();
    await expectCode(oneid.finishLogin(new URL(`${REDIRECT_URI}?code=abc&state=never-issued`)), 'unknown-state');
    await expectCode(oneid.finishLogin(new URL(`${REDIRECT_URI}?code=abc`)), 'unknown-state');

    let now = Date.now();
    const clock = () => now;
    const late = createOneIdClient(
      { issuer: provider.issuer, ...CLIENT, redirectUri: REDIRECT_URI },
      createMemoryPendingLoginStore({ now: clock }),
      { now: clock, pendingTtlMs: 60_000 },
    );
    const { url } = await late.startLogin();
    const { callbackUrl } = await signInWithFetch(url, { redirectUri: REDIRECT_URI });
    now += 61_000;
    await expectCode(late.finishLogin(callbackUrl), 'unknown-state');
  });

  it('rejects an ID token whose nonce does not match with invalid-token', async () => {
    const memory = createMemoryPendingLoginStore();
    const swapped: PendingLoginStore = {
      put: (state, login) => memory.put(state, login),
      take: async (state) => {
        const login = await memory.take(state);
        return login && { ...login, nonce: 'not-the-nonce-that-was-sent' };
      },
    };
    const oneid = client(swapped);
    const { url } = await oneid.startLogin();
    const { callbackUrl } = await signInWithFetch(url, { redirectUri: REDIRECT_URI });
    await expectCode(oneid.finishLogin(callbackUrl), 'invalid-token');
  });

  it('reports a provider-side refusal (error in the callback) as exchange-failed', async () => {
    const oneid = client();
    const { state } = await oneid.startLogin();
    const err = await rejection(
      oneid.finishLogin(new URL(`${REDIRECT_URI}?error=access_denied&error_description=aborted&state=${state}`)),
    );
    expect(err.code).toBe('exchange-failed');
    expect(err.message).toContain('access_denied');
  });

  it('keeps only local return paths', async () => {
    const puts: Array<string | undefined> = [];
    const memory = createMemoryPendingLoginStore();
    const oneid = client({ put: (s, l) => (puts.push(l.redirect), memory.put(s, l)), take: (s) => memory.take(s) });
    for (const redirect of ['/ok', '//evil.example/x', 'https://evil.example/', '/\\evil.example', 'relative']) {
      await oneid.startLogin({ redirect });
    }
    expect(puts).toEqual(['/ok', undefined, undefined, undefined, undefined]);
  });

  it('works end to end with the SQL pending store on PGlite', async () => {
    const { db, close } = await pglite();
    try {
      for (const ddl of ONEID_DDL) await db.query(ddl);
      const oneid = client(createSqlPendingLoginStore(db));
      const { url, state } = await oneid.startLogin({ redirect: '/home', remember: true });
      expect(
        (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM oneid_pending WHERE state = $1', [state]))
          .rows[0]?.n,
      ).toBe(1);
      const { callbackUrl } = await signInWithFetch(url, { redirectUri: REDIRECT_URI });
      const { identity, redirect, remember } = await oneid.finishLogin(callbackUrl);
      expect(identity.pinfl).toBe(ACCOUNT.pin);
      expect(redirect).toBe('/home');
      // "Remember me" came back with the state, from the table.
      expect(remember).toBe(true);
      expect((await db.query('SELECT 1 FROM oneid_pending')).rowCount).toBe(0);
      await expectCode(oneid.finishLogin(callbackUrl), 'unknown-state');
    } finally {
      await close();
    }
  });
});

describe('test provider in auto mode (what a browser test follows)', () => {
  it('completes login and consent by redirects alone', async () => {
    const provider = await startTestOidcProvider({
      ...CLIENT,
      redirectUri: REDIRECT_URI,
      account: { sub: 'plain', name: 'Jane Roe', phone_number: '+998 90 000 00 00' },
      interaction: 'auto',
      tokenEndpointAuthMethod: 'client_secret_basic',
    });
    try {
      const oneid = createOneIdClient(
        {
          issuer: provider.issuer,
          ...CLIENT,
          redirectUri: REDIRECT_URI,
          scope: 'openid profile phone',
          tokenEndpointAuthMethod: 'client_secret_basic',
        },
        createMemoryPendingLoginStore(),
      );
      const { url } = await oneid.startLogin();
      const { callbackUrl, steps } = await signInWithFetch(url, { redirectUri: REDIRECT_URI });
      expect(steps.some((s) => s.form)).toBe(false);
      const { identity } = await oneid.finishLogin(callbackUrl);
      expect(identity).toEqual({
        provider: 'oneid',
        subject: 'plain',
        fullName: 'Jane Roe',
        phone: '+998 90 000 00 00',
      });
    } finally {
      await provider.close();
    }
  });
});

describe('pending login stores', () => {
  it('SQL store on PGlite: one-time take, refuses expired entries, purges them on put', async () => {
    const { db, close } = await pglite();
    try {
      for (const ddl of ONEID_DDL) await db.query(ddl);
      for (const ddl of ONEID_DDL) await db.query(ddl); // idempotent
      let now = Date.parse('2030-01-01T00:00:00Z');
      const store = createSqlPendingLoginStore(db, { now: () => now });

      await store.put('s1', {
        codeVerifier: 'v1',
        nonce: 'n1',
        redirect: '/a',
        remember: true,
        expiresAt: now + 60_000,
      });
      expect(await store.take('s1')).toEqual({
        codeVerifier: 'v1',
        nonce: 'n1',
        redirect: '/a',
        remember: true,
        expiresAt: now + 60_000,
      });
      expect(await store.take('s1')).toBeUndefined();
      expect(await store.take('missing')).toBeUndefined();

      await store.put('s2', { codeVerifier: 'v2', nonce: 'n2', expiresAt: now + 1_000 });
      now += 1_000;
      expect(await store.take('s2')).toBeUndefined();
      expect((await db.query('SELECT 1 FROM oneid_pending')).rowCount).toBe(0);

      await store.put('s3', { codeVerifier: 'v3', nonce: 'n3', expiresAt: now - 1 });
      expect(await store.take('s3')).toBeUndefined();

      await store.put('s4', { codeVerifier: 'v4', nonce: 'n4', expiresAt: now + 10 });
      now += 20;
      await store.put('s5', { codeVerifier: 'v5', nonce: 'n5', expiresAt: now + 10_000 });
      expect((await db.query<{ state: string }>('SELECT state FROM oneid_pending')).rows.map((r) => r.state)).toEqual([
        's5',
      ]);
      expect(await store.take('s5')).toEqual({
        codeVerifier: 'v5',
        nonce: 'n5',
        redirect: undefined,
        remember: false,
        expiresAt: now + 10_000,
      });
    } finally {
      await close();
    }
  });

  it('memory store: one-time take and expiry', async () => {
    let now = 1_000_000;
    const store = createMemoryPendingLoginStore({ now: () => now });
    await store.put('a', { codeVerifier: 'v', nonce: 'n', expiresAt: now + 100 });
    await store.put('b', { codeVerifier: 'v', nonce: 'n', expiresAt: now + 100 });
    expect(await store.take('a')).toMatchObject({ codeVerifier: 'v', nonce: 'n' });
    expect(await store.take('a')).toBeUndefined();
    now += 100;
    expect(await store.take('b')).toBeUndefined();
  });
});

describe('configuration', () => {
  const env = {
    ONEID_ISSUER: 'https://sso.egov.uz',
    ONEID_CLIENT_ID: 'portal',
    ONEID_CLIENT_SECRET: 'secret',
    ONEID_REDIRECT_URI: 'https://portal.example.uz/api/product-auth/auth/oneid/redirectUri',
  };

  it('reads the environment, or gives undefined when anything required is missing', () => {
    expect(oneIdConfigFromEnv(env)).toEqual({
      issuer: env.ONEID_ISSUER,
      clientId: 'portal',
      clientSecret: 'secret',
      redirectUri: env.ONEID_REDIRECT_URI,
    });
    expect(oneIdConfigFromEnv({ ...env, ONEID_SCOPE: 'openid myportal' })?.scope).toBe('openid myportal');
    for (const name of Object.keys(env)) {
      expect(oneIdConfigFromEnv({ ...env, [name]: undefined })).toBeUndefined();
      expect(oneIdConfigFromEnv({ ...env, [name]: '  ' })).toBeUndefined();
    }
    expect(oneIdConfigFromEnv({})).toBeUndefined();
    expect(() => oneIdConfigFromEnv({ ...env, ONEID_TOKEN_AUTH_METHOD: 'private_key_jwt' })).toThrow(OneIdError);
  });

  it('refuses plain http off loopback and reports an unreachable issuer as not-configured', async () => {
    const base = { clientId: 'c', clientSecret: 's', redirectUri: REDIRECT_URI };
    expect(() =>
      createOneIdClient({ ...base, issuer: 'http://sso.example.uz' }, createMemoryPendingLoginStore()),
    ).toThrow(expect.objectContaining({ code: 'not-configured' }));
    expect(() => createOneIdClient({ ...base, issuer: 'not a url' }, createMemoryPendingLoginStore())).toThrow(
      OneIdError,
    );
    const closed = await startTestOidcProvider({ ...CLIENT, redirectUri: REDIRECT_URI, account: ACCOUNT });
    await closed.close();
    const oneid = createOneIdClient({ ...base, issuer: closed.issuer }, createMemoryPendingLoginStore());
    await expectCode(oneid.startLogin(), 'not-configured');
  });

  it('maps standard OIDC claims as fallbacks', () => {
    expect(
      mapOneIdClaims({
        sub: 's',
        given_name: 'Ali',
        family_name: 'Valiyev',
        email: ' a@b.uz ',
        phone_number: '+998901112233',
        pin: 31234567890123,
      }),
    ).toEqual({
      provider: 'oneid',
      subject: 's',
      pinfl: '31234567890123',
      fullName: 'Valiyev Ali',
      firstName: 'Ali',
      lastName: 'Valiyev',
      email: 'a@b.uz',
      phone: '+998901112233',
    });
    expect(mapOneIdClaims({ sub: 's', first_name: 'A', last_name: 'B', mid_name: '' })).toMatchObject({
      fullName: 'B A',
      lastName: 'B',
    });
  });
});
