/**
 * A record's audit trail as `GET {base}/audit/{id}` answers it: the server writes it
 * (src/server/store/audit-trail.ts) and the record's history tab reads it.
 */

/** One changed field of an audit row: its old and new value. */
export interface AuditChange {
  /** The field (`/customer/name`): objects are compared field by field, other values whole. */
  pointer: string;
  /** The value before; absent where the field was absent (a create, a field filled in). */
  old?: unknown;
  /** The value after; absent where the field is gone (a delete, a field emptied). */
  new?: unknown;
  /** The sides whose value was longer than the audit keeps: only its start is kept (other values as their JSON text). */
  truncated?: Array<'old' | 'new'>;
  /** The reader is told that the field changed, not its values (a staff user's id, to an outer user). */
  redacted?: true;
}

/** One row of a record's audit trail. */
export interface AuditEntry {
  /** bigint: the drivers may hand it over as text; the route's reply schema makes it a number. */
  id: number | string;
  at: string;
  /** The user who acted; null to an outer user for anyone else's change. */
  actor: string | null;
  /** The acting user's name ("last first", else the username) as the user directory has it; null for the system, a guest or a withheld actor. */
  actorName?: string | null;
  action: string;
  /** The top-level fields the change touched (without those hidden from the reader). */
  changed: string[];
  /** What the system's own change followed: the migration files applied, fields kept aside. */
  note?: string;
  /** Old → new values of the changed fields as the reader may see them; absent on rows written before values were kept. */
  diff?: AuditChange[];
}
