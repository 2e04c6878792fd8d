import { assign, createMachine, transition, type AnyStateMachine } from 'xstate';
import type { JSONSchema7 } from 'json-schema';
import type { MachineDefinition, Transition } from '../../generated/meta.ts';
import {
  actionImplementations,
  checkImplementations,
  delayImplementations,
  guardImplementations,
  type CheckProblem,
  type TransitionContext,
} from './implementations.ts';

/**
 * Turns a machine definition (workflows/<id>.machine.json, data) into an XState v5 machine
 * whose guards, actions and delays come from the one registry. The record travels in the
 * machine's context; actions are `assign`s that merge their changes into it, so one pure
 * `transition()` gives both the next status and the record as the actions leave it.
 */

/** The machine's context: what guards and actions see (see TransitionContext). */
export type WorkflowContext = TransitionContext;
/** An event as the engine sends it: its type and payload. */
export interface WorkflowEvent {
  type: string;
  payload?: Record<string, unknown>;
}

type NamedImpl = string | { type: string; params?: Record<string, unknown> };
const implName = (n: NamedImpl): string => (typeof n === 'string' ? n : n.type);
const implParams = (n: NamedImpl): Record<string, unknown> => (typeof n === 'string' ? {} : (n.params ?? {}));

const transitionsOf = (value: Transition | Transition[] | undefined): Transition[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** The transitions of `event` in `state`, in the order XState tries them. */
export function transitionsFor(machine: MachineDefinition, state: string, event: string): Transition[] {
  return transitionsOf(machine.states[state]?.on?.[event] as Transition | Transition[] | undefined);
}

/** Every event type the machine knows, sorted. */
export function machineEvents(machine: MachineDefinition): string[] {
  return [...new Set(Object.values(machine.states).flatMap((s) => Object.keys(s.on ?? {})))].sort();
}

/** The states that keep a deadline (`deadline`): the field holding the due date and the event the sweep sends. */
export function deadlinesOf(machine: MachineDefinition): Array<{ state: string; field: string; event: string }> {
  return Object.entries(machine.states).flatMap(([state, s]) =>
    s.deadline ? [{ state, field: s.deadline.field, event: s.deadline.event }] : [],
  );
}

/** The payload schema of an event in a state (the first of its transitions that declares one). */
export function payloadSchemaFor(machine: MachineDefinition, state: string, event: string): JSONSchema7 | undefined {
  return transitionsFor(machine, state, event).find((t) => t.payload)?.payload as JSONSchema7 | undefined;
}

/** Drops what XState does not read (payload schemas) and keeps the rest of the config as is. */
function xstateConfig(machine: MachineDefinition, withImplementations: boolean): Record<string, unknown> {
  const strip = (t: Transition): Record<string, unknown> => ({
    ...(t.target ? { target: t.target } : {}),
    ...(withImplementations && t.guard ? { guard: t.guard } : {}),
    ...(withImplementations && t.actions ? { actions: t.actions } : {}),
    description: t.description,
    ...(t.meta ? { meta: t.meta } : {}),
  });
  const group = (on: Record<string, Transition | Transition[]> | undefined) =>
    on && Object.fromEntries(Object.entries(on).map(([k, v]) => [k, Array.isArray(v) ? v.map(strip) : strip(v)]));
  return {
    id: machine.id,
    initial: machine.initial,
    description: machine.description,
    context: ({ input }: { input?: WorkflowContext }) =>
      input ?? { record: {}, payload: {}, actorId: null, now: new Date(0) },
    states: Object.fromEntries(
      Object.entries(machine.states).map(([name, s]) => [
        name,
        {
          description: s.description,
          ...(s.type ? { type: s.type } : {}),
          ...(s.tags ? { tags: s.tags } : {}),
          ...(s.meta ? { meta: s.meta } : {}),
          ...(s.on ? { on: group(s.on as Record<string, Transition | Transition[]>) } : {}),
          ...(withImplementations && s.after
            ? { after: group(s.after as Record<string, Transition | Transition[]>) }
            : {}),
          ...(withImplementations && s.entry ? { entry: s.entry } : {}),
          ...(withImplementations && s.exit ? { exit: s.exit } : {}),
        },
      ]),
    ),
  };
}

/** Merges an action's changes into the record; `undefined` removes a field. */
function merge(record: Record<string, unknown>, changes: Record<string, unknown>): Record<string, unknown> {
  const out = { ...record };
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** All names of the registry, wired as XState implementations over the context above. */
function implementations() {
  const guards = Object.fromEntries(
    Object.entries(guardImplementations).map(([name, impl]) => [
      name,
      ({ context, event }: { context: WorkflowContext; event: WorkflowEvent }, params: unknown) =>
        impl({ ...context, payload: event.payload ?? context.payload }, (params as Record<string, unknown>) ?? {}),
    ]),
  );
  const actions = Object.fromEntries(
    Object.entries(actionImplementations).map(([name, impl]) => [
      name,
      assign(({ context, event }: { context: WorkflowContext; event: WorkflowEvent }, params: unknown) => ({
        record: merge(
          context.record,
          impl({ ...context, payload: event.payload ?? context.payload }, (params as Record<string, unknown>) ?? {}),
        ),
      })),
    ]),
  );
  const delays = Object.fromEntries(
    Object.entries(delayImplementations).map(([name, impl]) => [
      name,
      ({ context }: { context: WorkflowContext }, params: unknown) =>
        impl(context, (params as Record<string, unknown>) ?? {}),
    ]),
  );
  return { guards, actions, delays };
}

/** The executable machine: guards, actions and delays from the registry. */
export function toXStateMachine(machine: MachineDefinition): AnyStateMachine {
  return createMachine(xstateConfig(machine, true) as never, implementations() as never);
}

/**
 * The machine's shape only — states and events, every guard passing and no actions — for
 * graph traversal (model-based tests, diagrams): which statuses are reachable by which events.
 */
export function toShapeMachine(machine: MachineDefinition): AnyStateMachine {
  return createMachine(xstateConfig(machine, false) as never);
}

/** The outcome of sending an event: refused, or the next status and record. */
export type Step =
  | { ok: false; reason: 'notInState' | 'guard' }
  | { ok: true; status: string; record: Record<string, unknown>; transition: Transition };

/**
 * Computes, without side effects, what sending `event` to a record in status `status`
 * does: XState resolves the snapshot from the stored status, checks the guard and runs the
 * `assign` actions. `notInState` = the state has no such event; `guard` = its guard refused.
 */
export function computeStep(
  machine: MachineDefinition,
  executable: AnyStateMachine,
  status: string,
  context: WorkflowContext,
  event: WorkflowEvent,
): Step {
  if (!machine.states[status] || transitionsFor(machine, status, event.type).length === 0)
    return { ok: false, reason: 'notInState' };
  const snapshot = executable.resolveState({ value: status, context });
  if (!snapshot.can(event)) return { ok: false, reason: 'guard' };
  const [next] = transition(executable, snapshot as never, event as never) as unknown as [
    { value: unknown; context: WorkflowContext },
  ];
  return {
    ok: true,
    status: String(next.value),
    record: next.context.record,
    transition: takenTransition(machine, status, context, event),
  };
}

/**
 * Which of the event's transitions XState took: the first whose guard passes, in document
 * order (XState's rule). Its `notify` entries are the notices of this step.
 */
function takenTransition(
  machine: MachineDefinition,
  status: string,
  context: WorkflowContext,
  event: WorkflowEvent,
): Transition {
  const candidates = transitionsFor(machine, status, event.type);
  const ctx = { ...context, payload: event.payload ?? context.payload };
  return (
    candidates.find(
      (t) =>
        !t.guard ||
        guardImplementations[implName(t.guard as NamedImpl)]?.(ctx, implParams(t.guard as NamedImpl)) === true,
    ) ?? candidates[0]!
  );
}

/**
 * The problems the transition's named `checks` find in the payload (dates against the
 * calendar and the record), at most one per payload field — the first, in the order the
 * machine lists them. Empty when the input is fine.
 * @example checkPayload(transition, { record: { deadline: '2026-05-10' }, payload: { newDeadline: '2026-05-10' }, actorId: '7', now })
 *   // [{ pointer: '/newDeadline', key: 'validation.dateAfterField', params: { date: '10.05.2026' } }]
 */
export function checkPayload(transition: Transition, context: WorkflowContext): CheckProblem[] {
  const problems = new Map<string, CheckProblem>();
  for (const check of (transition.checks ?? []) as NamedImpl[]) {
    const problem = checkImplementations[implName(check)]?.(context, implParams(check));
    if (problem && !problems.has(problem.pointer)) problems.set(problem.pointer, problem);
  }
  return [...problems.values()];
}
