// @vitest-environment happy-dom
/** The one HTTP client: headers, JSON, the spec's error texts, and the queue that shows a burst of failures once. */
import { describe, expect, it, vi } from 'vitest';
import {
  createErrorQueue,
  createHttpClient,
  describeFailure,
  dispositionName,
  HttpError,
  NetworkError,
} from './http.ts';

const t = (key: string) =>
  ({
    'errors.forbidden': 'You have no permission to do this action',
    'errors.somethingWrong': 'Something wrong, please try again',
  })[key] ?? key;

describe('failed responses (spec §8)', () => {
  it('says "no permission" for 403 and the legacy 417', () => {
    expect(describeFailure(403, { message: 'x' }, t)).toBe('You have no permission to do this action');
    expect(describeFailure(417, null, t)).toBe('You have no permission to do this action');
  });
  it('cuts the server message to 120 characters, shows a raw body, or the status', () => {
    expect(describeFailure(400, { message: 'a'.repeat(300) }, t)).toHaveLength(120);
    expect(describeFailure(502, '<html>Bad gateway</html>', t)).toBe('<html>Bad gateway</html>');
    expect(describeFailure(500, null, t)).toBe('(500) - Something wrong, please try again');
  });
});

describe('the HTTP client', () => {
  const respond = (status: number, body: string) => vi.fn(async () => new Response(body, { status }));
  const deps = (fetch: typeof globalThis.fetch, onUnauthorized = vi.fn()) => ({
    fetch,
    getToken: () => 'tok',
    getLocale: () => 'ru',
    onUnauthorized,
  });

  it('sends the bearer token, the locale and JSON; parses the answer', async () => {
    const fetch = respond(200, '{"ok":true}');
    const http = createHttpClient(deps(fetch));
    expect(await http.request('POST', '/api/x', { body: { a: 1 }, query: { q: 'v', skip: undefined } })).toEqual({
      ok: true,
    });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/x?q=v');
    expect(init.headers).toMatchObject({
      authorization: 'Bearer tok',
      'x-locale': 'ru',
      'content-type': 'application/json',
    });
    expect(init.body).toBe('{"a":1}');
  });

  it('turns failures into HttpError with field errors, logs out on 401, and reports network errors apart', async () => {
    const failing = createHttpClient(deps(respond(400, '{"message":"bad","fieldErrors":{"/a":"Mandatory field"}}')));
    const error = await failing.request('GET', '/api/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).fieldErrors).toEqual({ '/a': 'Mandatory field' });
    const onUnauthorized = vi.fn();
    await createHttpClient(deps(respond(401, ''), onUnauthorized))
      .request('GET', '/api/x')
      .catch(() => undefined);
    expect(onUnauthorized).toHaveBeenCalledOnce();
    const offline = createHttpClient(
      deps(
        vi.fn(async () => {
          throw new TypeError('Failed to fetch');
        }),
      ),
    );
    expect(await offline.request('GET', '/api/x').catch((e: unknown) => e)).toBeInstanceOf(NetworkError);
  });

  it('shows errors that arrive while requests run only once nothing is in flight, each text once', () => {
    const show = vi.fn();
    const queue = createErrorQueue(show);
    queue.setInFlight(2);
    queue.report(new Error('a'));
    queue.report(new Error('a'));
    queue.report(new Error('b'));
    expect(show).not.toHaveBeenCalled();
    queue.setInFlight(1);
    expect(show).not.toHaveBeenCalled();
    queue.setInFlight(0);
    expect(show.mock.calls.map(([e]) => (e as Error).message)).toEqual(['a', 'b']);
    queue.report(new Error('c'));
    expect(show).toHaveBeenCalledTimes(3);
  });
});

describe('downloads with the session (a plain link carries no bearer token)', () => {
  it('fetches the file with the token and names it from Content-Disposition', async () => {
    const fetch = vi.fn(
      async () =>
        new Response(new Uint8Array([0x50, 0x4b, 3, 4]), {
          status: 200,
          headers: {
            'content-disposition': `attachment; filename="x.xlsx"; filename*=UTF-8''${encodeURIComponent('Ҳисобот 2025.xlsx')}`,
          },
        }),
    );
    const http = createHttpClient({ fetch, getToken: () => 'tok', getLocale: () => 'ru', onUnauthorized: vi.fn() });
    const file = await http.download('/api/dashboards/s/p/export?period=2025-Q3&lang=ru');
    expect(file.name).toBe('Ҳисобот 2025.xlsx');
    expect(new Uint8Array(await file.blob.arrayBuffer()).slice(0, 2)).toEqual(new Uint8Array([0x50, 0x4b]));
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/dashboards/s/p/export?period=2025-Q3&lang=ru');
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer tok');
    expect((init.headers as Record<string, string>).accept).toBe('*/*');
  });
  it("fails with the server's message like any request", async () => {
    const fetch = vi.fn(async () => new Response('{"message":"Not allowed"}', { status: 403 }));
    const http = createHttpClient({ fetch, getToken: () => 'tok', getLocale: () => 'ru', onUnauthorized: vi.fn() });
    await expect(http.download('/api/x/export')).rejects.toMatchObject({ status: 403, message: 'Not allowed' });
  });
  it('reads plain and RFC 6266 names', () => {
    expect(dispositionName('attachment; filename="a b.xlsx"')).toBe('a b.xlsx');
    expect(dispositionName("attachment; filename*=UTF-8''%D0%B0.pdf")).toBe('а.pdf');
    expect(dispositionName(null)).toBeUndefined();
  });
});
