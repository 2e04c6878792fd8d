/**
 * The data provider's methods for the integration platform (`/api/integrations`,
 * docs/integrations.md): the agencies and methods the user may query, one call of a method,
 * the agencies' health, and the call audit (a page of it, the titles its filters offer, and
 * the URL of its XLSX export).
 */
import type { HttpClient } from '../http.ts';

/** An agency's connection as the platform reports it. */
export type AgencyStatus = 'connected' | 'sandbox' | 'notConnected';
/** An agency's circuit breaker: closed (calls go through), open (paused), halfOpen (one trial call). */
export type BreakerState = 'closed' | 'open' | 'halfOpen';

/** A JSON Schema as the server localized it (`titles` already turned into `title`). */
export type IntegrationSchema = Record<string, unknown>;

/** One method of an agency, in the reader's language. */
export interface IntegrationMethodInfo {
  id: string;
  title: string;
  description?: string;
  personalData: boolean;
  /** JSON Schema (draft-07) object of the query's parameters. */
  params: IntegrationSchema;
  /** How the answer is shown: one record, or a table of the rows at the `rows` pointer. */
  result: { view: 'record' | 'table'; rows?: string; schema: IntegrationSchema };
}

/** One agency the user may query, with the methods the user may call. */
export interface IntegrationAgencyInfo {
  id: string;
  title: string;
  description?: string;
  status: AgencyStatus;
  breaker: BreakerState;
  methods: IntegrationMethodInfo[];
}

/** GET /api/integrations: `sandbox` is true when the sandbox upstream answers for agencies. */
export interface IntegrationCatalogue {
  sandbox: boolean;
  agencies: IntegrationAgencyInfo[];
}

/** What a call sends: the parameters, the purpose (personal data), the record it is made for. */
export interface IntegrationCallInput {
  agency: string;
  method: string;
  params: Record<string, unknown>;
  purpose?: string | undefined;
  record?: { entity: string; id: number } | undefined;
}

/** What a call answers: `found` false is "nothing found" (result null). */
export interface IntegrationCallReply {
  found: boolean;
  result: Record<string, unknown> | null;
  cached: boolean;
  sandbox: boolean;
  durationMs: number;
  callId: number;
}

/** One agency's row of the health screen (recent calls of this app instance). */
export interface IntegrationHealthRow {
  agency: string;
  title: string;
  status: AgencyStatus;
  breaker: BreakerState;
  calls: number;
  failures: number;
  /** A share of the recent calls, 0…1. */
  errorRate: number;
  p50Ms: number | null;
  p95Ms: number | null;
  lastError: string | null;
  lastCallAt: string | null;
}

/** How a call ended, as the audit keeps it. */
export type IntegrationOutcome = 'ok' | 'notFound' | 'refused' | 'failed' | 'unavailable';

/** The audit's filters; every one optional (days are YYYY-MM-DD, Tashkent's). */
export interface IntegrationAuditFilters {
  from?: string;
  to?: string;
  agency?: string;
  method?: string;
  /** A part of the user's name. */
  user?: string;
  outcome?: IntegrationOutcome;
  personalData?: boolean;
}

/** One call as the audit shows it: the parameters masked where they are personal data. */
export interface IntegrationAuditRow {
  id: number;
  at: string;
  userId: string | null;
  userName: string | null;
  agency: string;
  method: string;
  personalData: boolean;
  params: Record<string, string>;
  purpose: string | null;
  recordEntity: string | null;
  recordId: number | null;
  outcome: IntegrationOutcome;
  httpStatus: number | null;
  durationMs: number;
  cached: boolean;
  sandbox?: boolean;
}

/** Every agency and method by title, for the audit's filters and rows (auditors need not call them). */
export interface IntegrationTitles {
  agencies: Array<{ id: string; title: string; methods: Array<{ id: string; title: string }> }>;
}

export interface IntegrationMethods {
  /** The agencies and methods the user may query. @example await dp.getIntegrations() */
  getIntegrations(): Promise<IntegrationCatalogue>;
  /**
   * Calls an agency's method. A 400 carries `fieldErrors` at `/params/<name>` and `/purpose`.
   * @example await dp.callIntegration({ agency: 'a', method: 'm', params: { inn: '301234567' } })
   */
  callIntegration(input: IntegrationCallInput): Promise<IntegrationCallReply>;
  /** Each agency's connection, circuit and recent latency and errors. */
  getIntegrationHealth(): Promise<{ list: IntegrationHealthRow[] }>;
  /** A page (from 0) of the call audit, newest first. */
  searchIntegrationCalls(
    filters: IntegrationAuditFilters,
    page: number,
    size: number,
  ): Promise<{ list: IntegrationAuditRow[]; total: number }>;
  /** The titles of every agency and method, for the audit. */
  getIntegrationTitles(): Promise<IntegrationTitles>;
  /** URL of the audit's XLSX export under these filters (fetched with the session by a download link). */
  integrationAuditExportUrl(filters: IntegrationAuditFilters): string;
  /** A registry's import log (by the entity's API base from its manifest). */
  getRegistryImports(base: string): Promise<RegistryImportLog>;
  /** Refreshes a registry from its agency now; answers the run's counts (503 when the agency fails). */
  runRegistryImport(base: string): Promise<RegistryImportRun>;
}

/** The filters as query or body values: empty ones left out. */
export function auditFilterValues(filters: IntegrationAuditFilters): Record<string, string | boolean> {
  return Object.fromEntries(
    Object.entries(filters).filter(([, v]) => v !== undefined && v !== '' && v !== null) as Array<
      [string, string | boolean]
    >,
  );
}

/** Creates the integration methods over an HTTP client. */
/** One run of a registry's import from another agency (manifest `registryImport`). */
export interface RegistryImportRun {
  id: number;
  trigger: 'schedule' | 'manual';
  userName: string | null;
  startedAt: string;
  finishedAt: string | null;
  calls: number;
  fetched: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  /** The agency's failure that ended the run, in the reader's language. */
  error: string | null;
  failures: Array<{ row: number; key: Record<string, unknown>; problem: string }>;
}

/** GET /api{base}/registry-import: the method, the agency's connection, the schedule and the last runs. */
export interface RegistryImportLog {
  integration: string;
  agencyStatus: AgencyStatus;
  every: 'hour' | 'day';
  list: RegistryImportRun[];
}

export function createIntegrationMethods(http: HttpClient): IntegrationMethods {
  return {
    getIntegrations: () => http.request('GET', '/api/integrations'),
    callIntegration: ({ agency, method, params, purpose, record }) =>
      http.request('POST', `/api/integrations/${encodeURIComponent(agency)}/${encodeURIComponent(method)}`, {
        body: { params, ...(purpose ? { purpose } : {}), ...(record ? { record } : {}) },
      }),
    getIntegrationHealth: () => http.request('GET', '/api/integrations/health'),
    searchIntegrationCalls: (filters, page, size) =>
      http.request('POST', '/api/integrations/audit/list-search', {
        body: { ...auditFilterValues(filters), page, size },
      }),
    getIntegrationTitles: () => http.request('GET', '/api/integrations/audit/titles'),
    integrationAuditExportUrl: (filters) => http.url('/api/integrations/audit/export.xlsx', auditFilterValues(filters)),
    getRegistryImports: (base) => http.request('GET', `/api${base}/registry-import`),
    runRegistryImport: (base) => http.request('POST', `/api${base}/registry-import`, {}),
  };
}
