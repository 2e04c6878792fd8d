import type { MachineDefinition, Transition } from '../generated/meta.ts';

/**
 * "My work" from the machines' definitions: in which states a record waits for one user, named
 * by a record field. No entity and no field is named here — a state waits for the user in a
 * field when it declares `awaits: {field}`, or when one of its events is guarded by the named
 * guard `actorIsAssigned` (only that user may send it, so the record is in their hands).
 */

/** The guard whose `params.field` names the one user who may send an event. */
export const ASSIGNED_GUARD = 'actorIsAssigned';

/** One state in which a record waits for the user named by `field`. */
export interface AwaitingState {
  state: string;
  /** Record field (JSON pointer) holding the awaited user's id. */
  field: string;
  /** The events the awaited user sends from this state (those guarded by the field, or all of them if declared). */
  events: string[];
}

const transitionsOf = (value: Transition | Transition[] | undefined): Transition[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** The field an `actorIsAssigned` guard names, if `t` has one. */
function assignedField(t: Transition): string | undefined {
  const guard = t.guard as { type?: string; params?: { field?: unknown } } | string | undefined;
  if (!guard || typeof guard === 'string' || guard.type !== ASSIGNED_GUARD) return undefined;
  return typeof guard.params?.field === 'string' ? guard.params.field : undefined;
}

/**
 * The states of `machine` in which a record waits for one user, with the field naming that user
 * and the events they would send. A declared `awaits` wins; otherwise each field the state's
 * `actorIsAssigned` guards name is one entry (a state may wait for the executor and, in
 * another field, for the signer).
 * @example awaitingStates(documentMachine) // [{state: 'BEING_SEEN', field: '/executorId', events: ['SEND_FOR_VISA', …]}, …]
 */
export function awaitingStates(machine: MachineDefinition): AwaitingState[] {
  const out: AwaitingState[] = [];
  for (const [state, def] of Object.entries(machine.states)) {
    const on = Object.entries(def.on ?? {});
    if (def.awaits) {
      out.push({ state, field: def.awaits.field, events: on.map(([event]) => event) });
      continue;
    }
    const byField = new Map<string, string[]>();
    for (const [event, value] of on) {
      for (const t of transitionsOf(value)) {
        const field = assignedField(t);
        if (!field) continue;
        const events = byField.get(field) ?? [];
        if (!events.includes(event)) events.push(event);
        byField.set(field, events);
      }
    }
    for (const [field, events] of byField) out.push({ state, field, events });
  }
  return out;
}

/**
 * The awaiting states a user acts in: those where `mayDo(event)` holds for at least one of the
 * events they would send (their role's `<EVENT> <Subject>` permission), grouped by field —
 * what one query per entity needs (`status = ANY(states) AND <field> = <user>` per field).
 */
export function statesAwaitingUser(
  machine: MachineDefinition,
  mayDo: (event: string) => boolean,
): Array<{ field: string; states: string[] }> {
  const byField = new Map<string, string[]>();
  for (const a of awaitingStates(machine)) {
    if (!a.events.some(mayDo)) continue;
    const states = byField.get(a.field) ?? [];
    if (!states.includes(a.state)) states.push(a.state);
    byField.set(a.field, states);
  }
  return [...byField].map(([field, states]) => ({ field, states }));
}
