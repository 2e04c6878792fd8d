// @vitest-environment happy-dom
/**
 * The web app's answer to 401 (issue #4, spec §4), through the real session client over a
 * scripted server: one refresh however many requests failed together, each request repeated
 * once with the new token, and — when the refresh fails — the session ends once: tokens, user
 * info and project data cleared, the CASL rules back to read-all, the page reloaded.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createSessionHttpClient } from './session.ts';
import { getSetting, setSetting } from './settings.ts';
import { READ_ALL_RULES } from '../shared/ability.ts';
import { HttpError } from './http.ts';

/** A promise and the function that settles it, to hold a scripted answer back. */
const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** What the refresh grant answers: the sign-in reply's fields with the OAuth names (server: /api/o/token/). */
const refreshReply = {
  access_token: 'access-2',
  refresh_token: 'refresh-2',
  token_type: 'Bearer',
  expires_in: 900,
  token: 'access-2',
  refreshToken: 'refresh-2',
  expiresIn: 900,
  id: 7,
  username: 'karimova',
  employeeId: 3,
  employee: { firstName: 'Dilnoza', lastName: 'Karimova', middleName: null },
  isOuter: false,
  uploadPath: '/api/file-entity/get/new-avatar',
  userSettings: {},
  permissions: ['read Appeal'],
  fieldRules: [],
};

/**
 * A scripted server: API calls succeed only with `access-2`; the refresh grant answers
 * `refreshAnswer` once `refreshGate` opens (so that every request has failed by then).
 */
function scriptedServer(refreshAnswer: () => Response, options: { acceptRenewed?: boolean } = {}) {
  const refreshGate = gate();
  const seen: string[] = [];
  let refreshes = 0;
  const holds = new Map<string, Promise<void>>();
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const path = String(url);
    if (path === '/api/o/token/') {
      refreshes += 1;
      expect(JSON.parse(String(init?.body))).toEqual({ grant_type: 'refresh_token', refresh_token: 'refresh-1' });
      await refreshGate.opened;
      return refreshAnswer();
    }
    const token = (init?.headers as Record<string, string>).authorization;
    seen.push(`${path} ${token}`);
    await holds.get(`${path} ${token}`);
    return token === 'Bearer access-2' && options.acceptRenewed !== false
      ? json(200, { path })
      : json(401, { message: 'Session expired' });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, seen, refreshGate, holds, refreshes: () => refreshes };
}

/** A signed-in session with project data and preferences, as the app stores them. */
function signedIn(): void {
  localStorage.clear();
  setSetting('accessToken', 'access-1');
  setSetting('refreshToken', 'refresh-1');
  setSetting('userId', 7);
  setSetting('userInfo', { id: 7, username: 'karimova' });
  setSetting('isOuter', true);
  setSetting('avatarUrl', '/api/file-entity/get/old-avatar');
  setSetting('currentProject', 12);
  setSetting('selectedModule', 'cases');
  setSetting('permissionRules', [{ action: 'manage', subject: 'all' }]);
  setSetting('locale', 'ru');
  setSetting('itemsPerPage', { 'appeal-list': 50 });
}

describe('a 401 during a session', () => {
  beforeEach(signedIn);

  it('renews the token with one refresh for every request that failed together, and repeats each once with the new token', async () => {
    const server = scriptedServer(() => json(200, refreshReply));
    const reload = vi.fn();
    const http = createSessionHttpClient({ getLocale: () => 'ru', fetch: server.fetch, reload });
    const requests = ['/api/a', '/api/b', '/api/c'].map((p) => http.request<{ path: string }>('GET', p));
    // All three were sent with the old token; the refresh is held until the first of them asks for it.
    expect(server.seen).toHaveLength(3);
    await vi.waitFor(() => expect(server.refreshes()).toBe(1), { timeout: 10_000 });
    server.refreshGate.open();
    expect((await Promise.all(requests)).map((r) => r.path)).toEqual(['/api/a', '/api/b', '/api/c']);
    expect(server.refreshes()).toBe(1);
    // Each request twice: with the old token, then once with the new one.
    expect([...server.seen].sort()).toEqual([
      '/api/a Bearer access-1',
      '/api/a Bearer access-2',
      '/api/b Bearer access-1',
      '/api/b Bearer access-2',
      '/api/c Bearer access-1',
      '/api/c Bearer access-2',
    ]);
    expect(getSetting('accessToken')).toBe('access-2');
    expect(getSetting('refreshToken')).toBe('refresh-2');
    // The refresh answers the sign-in reply: the new avatar and permissions are kept.
    expect(getSetting('avatarUrl')).toBe('/api/file-entity/get/new-avatar');
    expect(getSetting('permissionRules')).toEqual([{ action: 'read', subject: 'Appeal' }]);
    expect(reload).not.toHaveBeenCalled();
  });

  it('repeats a request whose 401 arrives after the refresh with the renewed token, without a second refresh', async () => {
    const server = scriptedServer(() => json(200, refreshReply));
    const late = gate();
    server.holds.set('/api/late Bearer access-1', late.opened);
    const http = createSessionHttpClient({ getLocale: () => 'ru', fetch: server.fetch, reload: vi.fn() });
    const slow = http.request<{ path: string }>('GET', '/api/late');
    const first = http.request<{ path: string }>('GET', '/api/first');
    server.refreshGate.open();
    expect((await first).path).toBe('/api/first');
    late.open();
    expect((await slow).path).toBe('/api/late');
    expect(server.refreshes()).toBe(1);
    expect(server.seen.filter((s) => s.startsWith('/api/late'))).toEqual([
      '/api/late Bearer access-1',
      '/api/late Bearer access-2',
    ]);
  });

  it('signs out once when the refresh fails: tokens, user info and project data cleared, rules read-all, page reloaded', async () => {
    const server = scriptedServer(() => json(401, { message: 'Session expired' }));
    const reload = vi.fn();
    const http = createSessionHttpClient({ getLocale: () => 'ru', fetch: server.fetch, reload });
    const requests = ['/api/a', '/api/b', '/api/c'].map((p) => http.request('GET', p).catch((e: unknown) => e));
    expect(server.seen).toHaveLength(3);
    await vi.waitFor(() => expect(server.refreshes()).toBe(1), { timeout: 10_000 });
    server.refreshGate.open();
    const errors = await Promise.all(requests);
    for (const e of errors) expect((e as HttpError).status).toBe(401);
    expect(server.refreshes()).toBe(1);
    // Not repeated: nothing to repeat them with.
    expect(server.seen).toHaveLength(3);
    expect(reload).toHaveBeenCalledOnce();
    for (const key of [
      'accessToken',
      'refreshToken',
      'userInfo',
      'userId',
      'avatarUrl',
      'currentProject',
      'selectedModule',
    ] as const) {
      expect(getSetting(key), key).toBeNull();
    }
    expect(getSetting('isOuter')).toBe(false);
    expect(getSetting('permissionRules')).toEqual(READ_ALL_RULES);
    // Preferences are not the session's: they stay.
    expect(getSetting('locale')).toBe('ru');
    expect(getSetting('itemsPerPage')).toEqual({ 'appeal-list': 50 });
  });

  it('repeats a request only once: a renewed token refused again ends the session', async () => {
    const server = scriptedServer(() => json(200, refreshReply), { acceptRenewed: false });
    const reload = vi.fn();
    const http = createSessionHttpClient({ getLocale: () => 'ru', fetch: server.fetch, reload });
    const request = http.request('GET', '/api/a').catch((e: unknown) => e);
    server.refreshGate.open();
    expect(((await request) as HttpError).status).toBe(401);
    expect(server.seen).toEqual(['/api/a Bearer access-1', '/api/a Bearer access-2']);
    expect(server.refreshes()).toBe(1);
    expect(reload).toHaveBeenCalledOnce();
    expect(getSetting('accessToken')).toBeNull();
  });
});
