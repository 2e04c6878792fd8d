import type { Migration } from '../db/migrations.ts';

/**
 * The call audit: one row per call of another agency's method (who, when, which method, the
 * parameters — masked for personal data —, the purpose, the record it was for, the outcome).
 * Append-only: a trigger refuses every UPDATE and DELETE, whoever asks.
 */
export const INTEGRATION_AUDIT_TABLES: Migration = {
  name: 'integration-audit',
  ddl: [
    `CREATE TABLE IF NOT EXISTS integration_call (
    id bigserial PRIMARY KEY,
    at timestamptz NOT NULL DEFAULT now(),
    user_id text,
    user_name text,
    agency text NOT NULL,
    method text NOT NULL,
    personal_data boolean NOT NULL,
    params jsonb NOT NULL,
    purpose text,
    record_entity text,
    record_id bigint,
    outcome text NOT NULL,
    http_status integer,
    duration_ms integer NOT NULL,
    cached boolean NOT NULL DEFAULT false,
    sandbox boolean NOT NULL DEFAULT false
  )`,
    'CREATE INDEX IF NOT EXISTS integration_call_at ON integration_call (at DESC, id DESC)',
    'CREATE INDEX IF NOT EXISTS integration_call_agency ON integration_call (agency, method, at DESC)',
    'CREATE INDEX IF NOT EXISTS integration_call_user ON integration_call (user_name, at DESC)',
    `CREATE OR REPLACE FUNCTION integration_call_append_only() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      RAISE EXCEPTION 'integration_call is append-only';
    END
    $fn$`,
    `CREATE OR REPLACE TRIGGER integration_call_append_only BEFORE UPDATE OR DELETE ON integration_call
    FOR EACH ROW EXECUTE FUNCTION integration_call_append_only()`,
  ],
};

/** How a call ended, as the audit and the health screen count it. */
export type CallOutcome = 'ok' | 'notFound' | 'refused' | 'failed' | 'unavailable';

/** One audit row as it is written. */
export interface CallRecord {
  userId: string | null;
  userName: string | null;
  agency: string;
  method: string;
  personalData: boolean;
  params: Record<string, string>;
  purpose: string | null;
  record: { entity: string; id: number } | null;
  outcome: CallOutcome;
  httpStatus: number | null;
  durationMs: number;
  cached: boolean;
  sandbox: boolean;
}

/**
 * A parameter value as the audit keeps it: personal identifiers are masked — the first two and
 * the last two characters stay, the rest become "•" (a value of four characters or fewer is all
 * "•"), so an auditor can tell calls apart without the audit holding the identifier.
 * @example maskValue('31503851230012') // '31••••••••••12'
 */
export function maskValue(value: unknown): string {
  const text = String(value);
  if (text.length <= 4) return '•'.repeat(text.length);
  return `${text.slice(0, 2)}${'•'.repeat(text.length - 4)}${text.slice(-2)}`;
}

/** The parameters as the audit keeps them: masked for a personal-data method, as given otherwise. */
export function auditedParams(
  params: Readonly<Record<string, unknown>>,
  personalData: boolean,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params)
      .filter(([, v]) => v !== undefined && v !== null && v !== '')
      .map(([k, v]) => [k, personalData ? maskValue(v) : String(v)]),
  );
}

type Query = <R>(sql: string, params?: unknown[]) => Promise<{ rows: R[] }>;

/** Writes one audit row; resolves to its id. */
export async function writeCall(query: Query, call: CallRecord): Promise<number> {
  const { rows } = await query<{ id: string }>(
    `INSERT INTO integration_call (user_id, user_name, agency, method, personal_data, params, purpose, record_entity,
       record_id, outcome, http_status, duration_ms, cached, sandbox)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
    [
      call.userId,
      call.userName,
      call.agency,
      call.method,
      call.personalData,
      JSON.stringify(call.params),
      call.purpose,
      call.record?.entity ?? null,
      call.record?.id ?? null,
      call.outcome,
      call.httpStatus,
      Math.round(call.durationMs),
      call.cached,
      call.sandbox,
    ],
  );
  return Number(rows[0]!.id);
}

/** The audit's filters (all optional): a day range in Tashkent, agency, method, user name part, outcome, personal data only. */
export interface AuditFilters {
  from?: string;
  to?: string;
  agency?: string;
  method?: string;
  user?: string;
  outcome?: string;
  personalData?: boolean;
}

/** One row as the audit screen and the export show it. */
export interface AuditRow {
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
  outcome: string;
  httpStatus: number | null;
  durationMs: number;
  cached: boolean;
  sandbox: boolean;
}

/** The WHERE clause and its parameters of a set of filters (days are Tashkent's). */
function where(filters: AuditFilters): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    parts.push(sql.replace('?', `$${params.length}`));
  };
  if (filters.from) add(`at >= (?::date)::timestamp AT TIME ZONE 'Asia/Tashkent'`, filters.from);
  if (filters.to) add(`at < ((?::date) + 1)::timestamp AT TIME ZONE 'Asia/Tashkent'`, filters.to);
  if (filters.agency) add('agency = ?', filters.agency);
  if (filters.method) add('method = ?', filters.method);
  if (filters.user)
    add(
      `user_name ILIKE '%' || ? || '%'`,
      filters.user.replace(/[\\%_]/g, (c) => `\\${c}`),
    );
  if (filters.outcome) add('outcome = ?', filters.outcome);
  if (filters.personalData !== undefined) add('personal_data = ?', filters.personalData);
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

/** A page of the audit, newest first, and the number of rows the filters match. */
export async function searchCalls(
  query: Query,
  filters: AuditFilters,
  page: number,
  size: number,
): Promise<{ list: AuditRow[]; total: number }> {
  const w = where(filters);
  const count = await query<{ n: string }>(`SELECT count(*) AS n FROM integration_call ${w.sql}`, w.params);
  const { rows } = await query<Record<string, unknown>>(
    `SELECT * FROM integration_call ${w.sql} ORDER BY at DESC, id DESC LIMIT ${size} OFFSET ${page * size}`,
    w.params,
  );
  return { list: rows.map(toRow), total: Number(count.rows[0]!.n) };
}

function toRow(r: Record<string, unknown>): AuditRow {
  return {
    id: Number(r.id),
    at: new Date(r.at as string | Date).toISOString(),
    userId: (r.user_id as string | null) ?? null,
    userName: (r.user_name as string | null) ?? null,
    agency: r.agency as string,
    method: r.method as string,
    personalData: Boolean(r.personal_data),
    params: (typeof r.params === 'string' ? JSON.parse(r.params) : r.params) as Record<string, string>,
    purpose: (r.purpose as string | null) ?? null,
    recordEntity: (r.record_entity as string | null) ?? null,
    recordId: r.record_id === null || r.record_id === undefined ? null : Number(r.record_id),
    outcome: r.outcome as string,
    httpStatus: r.http_status === null || r.http_status === undefined ? null : Number(r.http_status),
    durationMs: Number(r.duration_ms),
    cached: Boolean(r.cached),
    sandbox: Boolean(r.sandbox),
  };
}
