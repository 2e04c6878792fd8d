/**
 * The data provider's methods for endpoints a definition names rather than the engine: a
 * lookup screen's query, its counters and a form's public lookup; a dashboard panel's source;
 * and — the one generic method — a flow step or a record action, whose request a screen
 * definition spells out in full.
 */
import type { HttpClient } from '../http.ts';

/** Query or body values of a request (empty ones are left out of a query string). */
export type RequestValues = Record<string, unknown>;

/**
 * A request a screen definition spells out: method, path (placeholders already filled in),
 * query and body (engine/flow/flow.ts `requestOf`).
 */
export interface EndpointRequest {
  method: 'GET' | 'POST';
  path: string;
  query?: RequestValues | undefined;
  /** POST only (a GET has none). */
  body?: RequestValues | undefined;
}

/** A lookup screen's endpoint: how the query travels (`send: 'query'` — a POST with an empty body and the query in the URL). */
export interface LookupEndpoint {
  endpoint: string;
  method?: 'GET' | 'POST' | undefined;
  send?: 'body' | 'query' | undefined;
}

/** A dashboard panel's source: a GET with the query, or a POST of `body` with the query in the URL. */
export interface PanelSource {
  endpoint: string;
  method?: 'GET' | 'POST' | undefined;
  body?: RequestValues | undefined;
}

export interface EndpointMethods {
  /**
   * The one generic method, for requests a screen definition spells out in full: the steps
   * and live checks of a `flow` screen (registration, password reset…) and a detail screen's
   * `recordActions` (e.g. setting a user's password). Their replies are whatever the
   * definition's endpoint answers; everything else has a method of its own.
   * @example dp.callEndpoint({ method: 'POST', path: '/api/registration/confirm', body: { code }, query: { uid } })
   */
  callEndpoint<T>(request: EndpointRequest): Promise<T>;
  /** Asks a lookup screen's endpoint (case tracking, schedules…); the answer is an object, `{list}` or `{count}`. */
  lookup(endpoint: LookupEndpoint, values: RequestValues): Promise<unknown>;
  /** The counters a lookup screen shows above its form (`statsEndpoint`). */
  getLookupStats(path: string): Promise<Record<string, number>>;
  /** The rows of a dashboard panel (typically an entity's aggregates) for the filters' values. */
  getPanelRows(source: PanelSource, query: RequestValues): Promise<Array<Record<string, unknown>>>;
  /** One page (from 0) of a paged panel's rows (a list-search with `itemsPerPage`) and how many there are. */
  getPanelPage(source: PanelSource, query: RequestValues, page: number): Promise<PanelPage>;
}

/** A page of a paged dashboard panel: its rows and the number of all matching rows. */
export interface PanelPage {
  list: Array<Record<string, unknown>>;
  total: number;
}

type Query = Record<string, string>;

/** Creates the endpoint methods over an HTTP client. */
export function createEndpointMethods(http: HttpClient): EndpointMethods {
  const callEndpoint = <T>({ method, path, query, body }: EndpointRequest): Promise<T> =>
    method === 'GET'
      ? http.request<T>('GET', path, { query: query as Query })
      : http.request<T>('POST', path, { body: body ?? {}, ...(query ? { query: query as Query } : {}) });
  return {
    callEndpoint,
    lookup: ({ endpoint, method = 'GET', send }, values) =>
      method === 'POST' && send === 'query'
        ? callEndpoint({ method: 'POST', path: endpoint, body: {}, query: values })
        : callEndpoint(
            method === 'GET' ? { method, path: endpoint, query: values } : { method, path: endpoint, body: values },
          ),
    getLookupStats: (path) => callEndpoint({ method: 'GET', path }),
    getPanelRows: async (source, query) =>
      (
        await callEndpoint<{ list: Array<Record<string, unknown>> }>(
          source.method === 'POST'
            ? { method: 'POST', path: source.endpoint, body: source.body ?? {}, query }
            : { method: 'GET', path: source.endpoint, query },
        )
      ).list,
    getPanelPage: (source, query, page) =>
      callEndpoint<PanelPage>({ method: 'POST', path: source.endpoint, body: { ...source.body, page }, query }),
  };
}
