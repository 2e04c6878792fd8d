/**
 * The contract of the entity store, the one write path of the server: what it answers and what
 * it refuses (implemented by `createEntityStore`, ./entity-store.ts, and wrapped by the store
 * service's concerns). Its users import these types from ./entity-store.ts.
 */
import type { Queryable } from '../db/database.ts';
import type { Actor } from '../auth/access.ts';
import type { AuditEntry } from '../../shared/audit.ts';
import type { Locale } from '../../shared/locales.ts';
import type { RecordRights } from './edit-rights.ts';
import type { SearchPayload } from './list-query.ts';
import type { StoredRecord } from './record-row.ts';

/** Where a store wrapper reports what it cannot answer for (Fastify's request or app log). */
export interface StoreLog {
  warn(details: object, message: string): void;
}

/** Who asks a list, beyond the actor: the caller's language and log. */
export interface ListContext {
  locale?: Locale;
  log?: StoreLog;
}

/** The one write path of the server (STYLE rule 4). */
export interface EntityStore {
  /** A blank record: the schema's defaults. */
  empty(entity: string): Record<string, unknown>;
  get(entity: string, id: number, actor: Actor): Promise<StoredRecord>;
  /**
   * Validates, stores and audits a new record. With `options.tx` it joins the caller's open
   * transaction (a record created together with other rows: all or nothing). With
   * `options.locale` (the caller's language) it fills the manifest's `localeField` when the
   * input leaves it empty.
   */
  create(
    entity: string,
    input: unknown,
    actor: Actor,
    options?: { tx?: Queryable; locale?: Locale },
  ): Promise<StoredRecord>;
  /**
   * Replaces the record's data; `input.version` must be the version read (else 409). A change
   * the entity's edit rules (in the record's status) or the actor's roles do not allow answers
   * 403 with `fieldErrors` naming each refused field, and a file attached by someone else may
   * not be removed; nothing is written.
   */
  update(entity: string, id: number, input: unknown, actor: Actor): Promise<StoredRecord>;
  /**
   * Deletes the record: the actor's roles must allow `delete`, and the entity's edit rules must
   * let this actor delete it in its status (else 403, nothing deleted).
   */
  remove(entity: string, id: number, actor: Actor, version?: number): Promise<void>;
  /**
   * What the actor may do to the record now by the entity's edit rules and their roles: update
   * (and which fields stay read-only), delete — for the screens; the store enforces the same on
   * update, delete and upload. 401/403/404 as `get`.
   */
  rights(entity: string, id: number, actor: Actor): Promise<RecordRights>;
  /**
   * A page and the total; past `countCap` matches the total is the cap and `totalCapped` is
   * set. `context` is the caller's language and log, for a miss another system may fill
   * (store/remote-sources.ts).
   */
  listSearch(
    entity: string,
    filters: Record<string, unknown>,
    payload: SearchPayload,
    actor: Actor,
    context?: ListContext,
  ): Promise<{ list: StoredRecord[]; total: number; totalCapped?: boolean }>;
  searchByKeyword(
    entity: string,
    keyword: string,
    limit: number,
    actor: Actor,
  ): Promise<{ list: Array<{ id: number; label: string }> }>;
  /**
   * The WHERE clause (and its parameters) of list-search's filters, narrowed to the rows the
   * actor may read — for other read-only queries over the same rows (the aggregates). `fields`
   * are the record fields the caller's query reads: 403 when one of them is hidden from the
   * actor (its role's `hiddenFields`), as a sum or a grouping would tell its values.
   */
  readableWhere(
    entity: string,
    filters: Record<string, unknown>,
    actor: Actor,
    fields?: readonly string[],
  ): { where: string; params: unknown[] };
  /**
   * Every record matching list-search's filters, in list-search's order, read in batches
   * (keyset paging) so that a large result is never in memory at once. Bad filters or
   * sort fields throw (400) when this is called, before any row is read.
   * @example for await (const record of store.streamList('x', { keyword: 'a' }, { sortBy: ['createdAt'] }, actor)) …
   */
  streamList(
    entity: string,
    filters: Record<string, unknown>,
    sort: Pick<SearchPayload, 'sortBy' | 'sortDesc'>,
    actor: Actor,
    batchSize?: number,
  ): AsyncIterable<StoredRecord>;
  /**
   * A status change (the workflow engine's write): locks the record, answers 404 outside the
   * actor's scope and 409 for a stale `version`, lets `step` compute the new status and data
   * from the locked record (and write its own rows, e.g. history, on `tx`), validates the data
   * against the schema, and writes status, data and the audit row — all in one transaction.
   * The caller checks the abilities (an event's permission is not read/update/delete).
   * With `options.tx` it joins the caller's open transaction (the deadline sweep, which has
   * already locked the row it picked).
   */
  writeTransition(
    entity: string,
    id: number,
    version: number,
    actor: Actor,
    step: (before: StoredRecord, tx: Queryable) => Promise<{ status: string; data: Record<string, unknown> }>,
    options?: { tx?: Queryable },
  ): Promise<StoredRecord>;
  /**
   * The record's audit trail, newest first (500 rows at most), for whoever may read the record
   * (else 404/403 as `get`): an outer user sees who acted only on their own changes, and the
   * names and values of fields hidden from the actor are left out (audit-trail.ts
   * `readableChanges`; to an outer user the values of staff user fields too).
   */
  audit(entity: string, id: number, actor: Actor): Promise<{ list: AuditEntry[] }>;
}
