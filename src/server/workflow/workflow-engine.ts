/**
 * The workflow engine's contract: what a record's status machine allows, the one way to change
 * a status, and the deadline sweep (implemented by `createWorkflowEngine`, ./transition.ts).
 */
import type { JSONSchema7 } from 'json-schema';
import type { Actor, StoredRecord } from '../store/entity-store.ts';
import type { EntityTable } from '../db/entity-table.ts';
import type { Sender } from '../notify/outbox.ts';
import type { Translator } from '../i18n.ts';
import type { MachineDefinition } from '../../generated/meta.ts';
import type { HistoryEntry } from '../../shared/workflow.ts';
import type { StaffDirectory } from '../store/staff-directory.ts';
import type { InAppSink } from './in-app-notice.ts';

/** An event the actor may send now, as `GET events` lists it. */
export interface EventOption {
  type: string;
  target: string;
  description: string;
  /** JSON Schema of the payload the event needs, when it needs one. */
  payload?: JSONSchema7;
}

/** The workflow engine: what a record's status machine allows, and the one way to change a status. */
export interface WorkflowEngine {
  /** The machine an entity follows, or undefined. */
  machineOf(entity: string): MachineDefinition | undefined;
  /** The events `actor` may send to the record now (state, ability and guard all allow them). */
  events(
    entity: string,
    id: number,
    actor: Actor,
  ): Promise<{ status: string; version: number; machine: string; events: EventOption[] }>;
  history(entity: string, id: number, actor: Actor): Promise<{ list: HistoryEntry[] }>;
  /**
   * Sends `{event, payload?, version, comment?}` to a record: 403 without the event's
   * ability, 409 when the state does not allow it (or its guard refuses, or the version is
   * stale), 400 for a bad payload (its schema, or a named check such as a past new
   * deadline) — and nothing changes. Otherwise the new status, the data
   * as the actions leave it, the audit row and a history row are written in one transaction.
   */
  send(entity: string, id: number, input: unknown, actor: Actor): Promise<StoredRecord>;
  /**
   * The deadline sweep: every record whose state keeps a deadline (`deadline` in the machine)
   * and whose due moment (`due_at`: a date's last millisecond in Tashkent) is before the clock's now gets the state's deadline event,
   * through the same path as `send`, as the actor `system`. One record per transaction, picked
   * with `FOR UPDATE SKIP LOCKED`, so several instances may sweep at once and each record
   * moves once. Returns what it moved; a refused record is logged and left for the next round.
   */
  sweep(limit?: number): Promise<SweptRecord[]>;
}

/** A record the sweep moved. */
export interface SweptRecord {
  entity: string;
  id: number;
  event: string;
  from: string;
  to: string;
}

/** What the engine needs besides the store (all optional: tests of the engine alone go without). */
export interface WorkflowEngineOptions {
  /** The clock of actions (stamped dates) and of the sweep. */
  now?: () => Date;
  /** The entity tables (the sweep reads `due_at`). */
  tables?: Map<string, EntityTable>;
  /** Where transition notices go (the outbox), rendered by `translator`; `onQueued` after a commit that queued some. */
  notify?: { sender: Sender; translator: Translator; onQueued(): void; inApp?: InAppSink };
  /** Errors the sweep skipped over. */
  log?: (error: unknown, what: string) => void;
  /** Checks the `staffUser` fields of payloads (an executor must be a staff user who may sign in). */
  staff?: StaffDirectory;
}
