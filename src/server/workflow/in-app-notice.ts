import type { Queryable } from '../db/database.ts';
import type { NewNotification } from '../notify/inbox.ts';
import type { EntityDefinition } from '../../definitions/registry.ts';
import type { MachineDefinition } from '../../generated/meta.ts';
import { valueAt } from '../../shared/pointer.ts';

/** What an in-app notice of a transition needs to know about its step. */
export interface InAppStep {
  entity: string;
  machine: string;
  id: number;
  event: string;
  to: string;
  data: Record<string, unknown>;
  payload: Record<string, unknown>;
  /** The actor's user id, or `system` (the sweep) / null. */
  actorId: string | null;
  label: string;
  /** The due date of the state entered, when it keeps one. */
  deadline?: unknown;
}

/** The user ids a notice's `to` field holds: one id or an array of ids; anything else holds none. */
export function userIdsAt(data: Record<string, unknown>, pointer: string): string[] {
  const value = valueAt(data, pointer);
  const ids = (Array.isArray(value) ? value : [value])
    .map((v) => (typeof v === 'number' || typeof v === 'string' ? String(v).trim() : ''))
    .filter((v) => /^[1-9][0-9]{0,17}$/.test(v));
  return [...new Set(ids)];
}

/**
 * The rows of one `inApp` notice: one per user the record's field names, but not the actor
 * (nobody is told of their own step). The text is rendered when read, in the reader's
 * language, so the parameters keep codes (`workflow`: machine, event, state) beside the
 * record's id, label and the payload's plain values.
 */
export function inAppRows(notice: { to: string; template: string }, step: InAppStep): NewNotification[] {
  const sender = step.actorId && /^[1-9][0-9]*$/.test(step.actorId) ? step.actorId : null;
  const params: Record<string, unknown> = {
    ...Object.fromEntries(
      Object.entries(step.payload).filter(([, v]) => typeof v === 'string' || typeof v === 'number'),
    ),
    id: step.id,
    label: step.label,
    workflow: { machine: step.machine, event: step.event, state: step.to },
    ...(step.deadline !== undefined ? { deadline: step.deadline ?? '' } : {}),
  };
  return userIdsAt(step.data, notice.to)
    .filter((id) => id !== sender)
    .map((recipientId) => ({
      recipientId,
      senderId: sender,
      entity: step.entity,
      recordId: step.id,
      templateKey: notice.template,
      params,
    }));
}

/** Where the engine writes in-app notices (the inbox), and how it announces them after the commit. */
export interface InAppSink {
  write(rows: readonly NewNotification[], tx?: Queryable): Promise<number[]>;
  published(userIds: readonly string[]): void;
}

/**
 * Writes one `inApp` notice of a transition in its transaction (a refused step writes none);
 * returns the recipients, to be told live after the commit.
 */
export async function writeInAppNotice(
  sink: InAppSink,
  notice: { to: string; template: string },
  step: {
    def: EntityDefinition;
    machine: MachineDefinition;
    id: number;
    event: string;
    to: string;
    data: Record<string, unknown>;
    payload: Record<string, unknown>;
    actorId: string | null;
  },
  tx: Queryable,
): Promise<string[]> {
  const { def, data } = step;
  const label = def.manifest.labelField ? valueAt(data, def.manifest.labelField) : undefined;
  const deadline = step.machine.states[step.to]?.deadline;
  const rows = inAppRows(notice, {
    entity: def.id,
    machine: step.machine.id,
    id: step.id,
    event: step.event,
    to: step.to,
    data,
    payload: step.payload,
    actorId: step.actorId,
    label: label === undefined || label === null || label === '' ? String(step.id) : String(label),
    ...(deadline ? { deadline: valueAt(data, deadline.field) ?? '' } : {}),
  });
  await sink.write(rows, tx);
  return rows.map((r) => r.recipientId);
}
