/** A record as the API returns it: the data with the system fields merged in. */
export type StoredRecord = Record<string, unknown> & { id: number; version: number; status: string };

// Microseconds, as stored: clients comparing these strings see the database's own order.
const isoText = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The columns every read of records selects: the data plus the system fields as the API shows them. */
export const RECORD_COLUMNS = `id, version, status, owner, region, data,
  ${isoText('created_at')} AS created_iso,
  ${isoText('updated_at')} AS updated_iso`;

/** One row as {@link RECORD_COLUMNS} selects it. */
export interface RecordRow {
  id: number;
  region: number | null;
  version: number;
  status: string;
  owner: string | null;
  data: Record<string, unknown>;
  /** Aliased so that ORDER BY created_at still means the timestamp column and its index. */
  created_iso: string;
  updated_iso: string;
}

/** The record of a row: its data with the system fields. */
export const toRecord = (row: RecordRow): StoredRecord => ({
  ...row.data,
  id: row.id,
  version: row.version,
  status: row.status,
  owner: row.owner,
  createdAt: row.created_iso,
  updatedAt: row.updated_iso,
});
