/**
 * The one HTTP client of the web app: bearer token, locale header, JSON in and out, and the
 * legacy portal's error rules (spec §8) in one place.
 */

/** A failed response, with what the server said. */
export class HttpError extends Error {
  readonly status: number;
  /** Parsed JSON body, or the raw text when it was not JSON, or null when empty. */
  readonly body: unknown;
  /** `{pointer: message}` from a 400, for the form to put on its fields. */
  readonly fieldErrors: Record<string, string> | undefined;

  constructor(status: number, body: unknown, message: string) {
    super(message);
    this.status = status;
    this.body = body;
    const fe = (body as { fieldErrors?: unknown } | null)?.fieldErrors;
    this.fieldErrors = fe && typeof fe === 'object' ? (fe as Record<string, string>) : undefined;
  }
}

/** The request never got an answer (offline, DNS, refused). */
export class NetworkError extends Error {}

export const MESSAGE_LIMIT = 120;

/**
 * The text a failed response shows (spec §8): 403 and the legacy 417 say "no permission";
 * a JSON `message` is cut to 120 characters; a non-JSON body is shown raw; no body gives
 * `(<status>) - Something wrong, please try again`.
 */
export function describeFailure(status: number, body: unknown, t: (key: string) => string): string {
  if (status === 403 || status === 417) return t('errors.forbidden');
  if (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string') {
    return (body as { message: string }).message.slice(0, MESSAGE_LIMIT);
  }
  if (typeof body === 'string' && body.trim()) return body.slice(0, MESSAGE_LIMIT);
  return `(${status}) - ${t('errors.somethingWrong')}`;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  signal?: AbortSignal;
  /** FormData is sent as multipart. */
  form?: FormData;
  /** Further request headers (e.g. an idempotency key). */
  headers?: Record<string, string>;
  /** The answer is a file: resolve to `DownloadedFile` instead of parsed JSON. */
  blob?: boolean;
}

export interface HttpClientDeps {
  baseUrl?: string;
  getToken(): string | null;
  getLocale(): string;
  /**
   * Called on 401 after a refresh did not help: the session is over. Called once per ended
   * session: a request whose token is no longer the stored one does not call it again.
   */
  onUnauthorized(): void;
  /** Renews the access token (single flight: concurrent callers share one call); true when a retry may succeed. */
  refresh?(): Promise<boolean>;
  /** Observes the number of requests in flight (for the loader and the error queue). */
  onInFlightChange?(count: number): void;
  fetch?: typeof fetch;
}

export interface HttpClient {
  request<T>(method: string, path: string, options?: RequestOptions, retried?: boolean): Promise<T>;
  /** A URL with the query string, for downloads opened by the browser. */
  url(path: string, query?: RequestOptions['query']): string;
  /**
   * A file as the signed-in user may fetch it (a plain link carries no bearer token): its
   * bytes and the name the server gives it (Content-Disposition), else the path's last part.
   * Fails like `request` (HttpError, with the server's message).
   */
  download(pathWithQuery: string): Promise<DownloadedFile>;
}

/** A downloaded file. */
export interface DownloadedFile {
  blob: Blob;
  name: string;
}

/**
 * The file name of a Content-Disposition header (RFC 6266: `filename*` in UTF-8 wins).
 * @example dispositionName('attachment; filename="a.xlsx"; filename*=UTF-8\'\'%D0%B0.xlsx') // 'а.xlsx'
 */
export function dispositionName(header: string | null): string | undefined {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1]!.trim());
    } catch {
      // A malformed escape: fall back to the plain name.
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header);
  return plain?.[1]?.trim();
}

const toQuery = (query: RequestOptions['query']): string => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {}))
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : '';
};

export function createHttpClient(deps: HttpClientDeps): HttpClient {
  const doFetch = deps.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  let inFlight = 0;
  const track = (delta: number) => {
    inFlight += delta;
    deps.onInFlightChange?.(inFlight);
  };
  const url = (path: string, query?: RequestOptions['query']) => `${deps.baseUrl ?? ''}${path}${toQuery(query)}`;
  const client: HttpClient = {
    url,
    download(pathWithQuery) {
      const [path, query] = pathWithQuery.split('?', 2) as [string, string | undefined];
      const base = deps.baseUrl ?? '';
      const relative = path.startsWith(base) ? path.slice(base.length) : path;
      return client.request<DownloadedFile>('GET', relative, {
        blob: true,
        query: query ? Object.fromEntries(new URLSearchParams(query)) : undefined,
        headers: { accept: '*/*' },
      });
    },
    async request<T>(method: string, path: string, options: RequestOptions = {}, retried = false): Promise<T> {
      const headers: Record<string, string> = {
        'x-locale': deps.getLocale(),
        accept: 'application/json',
        ...options.headers,
      };
      const token = deps.getToken();
      if (token) headers.authorization = `Bearer ${token}`;
      let body: BodyInit | undefined;
      if (options.form) body = options.form;
      else if (options.body !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(options.body);
      }
      track(1);
      let response: Response;
      try {
        response = await doFetch(url(path, options.query), { method, headers, body, signal: options.signal });
      } catch (error) {
        if ((error as Error).name === 'AbortError') throw error;
        throw new NetworkError((error as Error).message);
      } finally {
        track(-1);
      }
      if (response.ok && options.blob) {
        const name = dispositionName(response.headers.get('content-disposition'));
        return {
          blob: await response.blob(),
          name: name ?? decodeURIComponent(path.split('/').at(-1) ?? 'download'),
        } as T;
      }
      const text = await response.text();
      let parsed: unknown = null;
      if (text) {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = text;
        }
      }
      if (response.ok) return parsed as T;
      if (response.status === 401 && token) {
        // An expired access token: renew it once (one refresh however many requests failed
        // together) and repeat the request with the new token, once.
        if (!retried && deps.refresh) {
          const current = deps.getToken();
          // Renewed meanwhile by another request's refresh: repeat without a second refresh.
          if ((current && current !== token) || (current === token && (await deps.refresh())))
            return client.request<T>(method, path, options, true);
        }
        // The session is over; only the first request to find out ends it (the others see it gone).
        if (deps.getToken() === token) deps.onUnauthorized();
      }
      throw new HttpError(
        response.status,
        parsed,
        typeof parsed === 'object' && parsed
          ? String((parsed as { message?: string }).message ?? '')
          : String(parsed ?? ''),
      );
    },
  };
  return client;
}

/**
 * Errors that arrive while other requests are still running wait and are shown together
 * once nothing is in flight, so a burst of failures is one readable moment, not a flicker.
 */
export function createErrorQueue(show: (error: unknown) => void) {
  let inFlight = 0;
  let pending: unknown[] = [];
  const flush = () => {
    const errors = pending;
    pending = [];
    // The same text twice in one burst is shown once.
    const seen = new Set<string>();
    for (const e of errors) {
      const key = e instanceof Error ? `${e.constructor.name}:${e.message}` : String(e);
      if (!seen.has(key)) show(e);
      seen.add(key);
    }
  };
  return {
    setInFlight(count: number) {
      inFlight = count;
      if (inFlight === 0 && pending.length) flush();
    },
    report(error: unknown) {
      pending.push(error);
      if (inFlight === 0) flush();
    },
  };
}
