/**
 * The one registry of named guards, actions and delays that machine definitions
 * (workflows/*.machine.json) refer to by string. `npm run check` fails when a machine
 * names something that is not here.
 */
import { businessDate } from '../../shared/business-day.ts';

/** What a guard or action sees: the record's data, the event payload and the actor. */
export interface TransitionContext {
  record: Record<string, unknown>;
  payload: Record<string, unknown>;
  actorId: string | null;
  now: Date;
}

export type GuardImplementation = (ctx: TransitionContext, params: Record<string, unknown>) => boolean;
/** Returns the changes to merge into the record's data. */
export type ActionImplementation = (ctx: TransitionContext, params: Record<string, unknown>) => Record<string, unknown>;
/** Returns the delay in milliseconds. */
export type DelayImplementation = (ctx: TransitionContext, params: Record<string, unknown>) => number;

/** Reads a JSON pointer (`/a/b`) from a plain object. */
export function readPointer(data: unknown, pointer: string): unknown {
  let node: unknown = data;
  for (const segment of pointer.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

const isFilled = (value: unknown): boolean =>
  value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);

const stringList = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

export const guardImplementations: Record<string, GuardImplementation> = {
  /** Every field named in `params.fields` (JSON pointers) is filled in the record. */
  fieldsFilled: (ctx, params) => stringList(params.fields).every((p) => isFilled(readPointer(ctx.record, p))),
  /** Every field named in `params.fields` is filled in the event payload. */
  payloadFilled: (ctx, params) => stringList(params.fields).every((p) => isFilled(readPointer(ctx.payload, p))),
  /** The actor is the user the record's field `params.field` (a JSON pointer) names, e.g. the assigned executor. */
  actorIsAssigned: (ctx, params) => ctx.actorId !== null && String(readPointer(ctx.record, String(params.field))) === ctx.actorId,
};

/** Guards that read the event payload: they cannot be judged before the payload exists (GET events). */
export const payloadGuards: ReadonlySet<string> = new Set(['payloadFilled']);

/** User ids are text on the actor and integers in records (portal-user ids). */
const asStoredId = (id: string | null): string | number | null => (id !== null && /^\d+$/.test(id) ? Number(id) : id);

export const actionImplementations: Record<string, ActionImplementation> = {
  /** Sets the top-level field `params.field` to the current time (ISO 8601). */
  stampNow: (ctx, params) => ({ [String(params.field)]: ctx.now.toISOString() }),
  /** Copies payload field `params.from` into record field `params.field`. */
  copyFromPayload: (ctx, params) => ({ [String(params.field)]: readPointer(ctx.payload, `/${String(params.from)}`) }),
  /** Sets the top-level field `params.field` to today's date in Tashkent (YYYY-MM-DD) — for `format: date` fields. */
  stampToday: (ctx, params) => ({ [String(params.field)]: businessDate(ctx.now) }),
  /** Sets the top-level field `params.field` to the acting user's id (e.g. the executor who took the case). */
  assignActor: (ctx, params) => ({ [String(params.field)]: asStoredId(ctx.actorId) }),
  /** Sets the top-level field `params.field` to the date `params.days` days after today in Tashkent — e.g. a review deadline, due at the end of that Tashkent day, which the sweep then watches. */
  stampDaysAhead: (ctx, params) => ({ [String(params.field)]: businessDate(ctx.now, Number(params.days)) }),
  /** Removes the top-level field `params.field` (e.g. a deadline that no longer applies). */
  clearField: (_ctx, params) => ({ [String(params.field)]: undefined }),
  /** Copies the record's own top-level field `params.from` into `params.field` (e.g. a requested date that a signature confirms). */
  copyField: (ctx, params) => ({ [String(params.field)]: readPointer(ctx.record, `/${String(params.from)}`) }),
  /** Sets the top-level field `params.field` to the fixed `params.value` (e.g. where a record was routed); the value must suit the field's schema. */
  setValue: (_ctx, params) => ({ [String(params.field)]: params.value }),
};

/**
 * Where an action writes a payload field into the record (`copyFromPayload`): the payload
 * field and the top-level record field, else undefined. Readers who may not see that record
 * field do not see the payload field in the history either.
 * @example payloadCopyOf({ type: 'copyFromPayload', params: { field: 'deadline', from: 'newDeadline' } }) // { from: 'newDeadline', field: 'deadline' }
 */
export function payloadCopyOf(action: string | { type: string; params?: Record<string, unknown> }): { from: string; field: string } | undefined {
  if (typeof action === 'string' || action.type !== 'copyFromPayload') return undefined;
  return { from: String(action.params?.from), field: String(action.params?.field) };
}

export const delayImplementations: Record<string, DelayImplementation> = {
  /** A fixed number of days from `params.days`. */
  days: (_ctx, params) => Number(params.days) * 86_400_000,
};

/** The names machines may use, for the definition check. */
export const implementationNames = {
  guards: Object.keys(guardImplementations),
  actions: Object.keys(actionImplementations),
  delays: Object.keys(delayImplementations),
};
