/**
 * The one registry of named guards, actions, delays and payload checks that machine
 * definitions (workflows/*.machine.json) refer to by string. `npm run check` fails when a
 * machine names something that is not here.
 */
import { businessDate } from '../../shared/business-day.ts';
import { formatDate, formatDateTime } from '../../shared/format.ts';
import { valueAt } from '../../shared/pointer.ts';

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

/** A payload value a check refused: the payload field (JSON pointer), the i18n message key and its parameters. */
export interface CheckProblem {
  pointer: string;
  key: string;
  params: Record<string, unknown>;
}
/**
 * Judges the event's input against the calendar and the record; undefined when it passes. A
 * refusal is the user's input error (400 with `fieldErrors` on the payload field), unlike a
 * guard's "not now" (409).
 */
export type CheckImplementation = (ctx: TransitionContext, params: Record<string, unknown>) => CheckProblem | undefined;

/** Reads a JSON pointer (`/a/b`) from a plain object (the one pointer reader, shared/format.ts). */

const isFilled = (value: unknown): boolean =>
  value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);

const stringList = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

export const guardImplementations: Record<string, GuardImplementation> = {
  /** Every field named in `params.fields` (JSON pointers) is filled in the record. */
  fieldsFilled: (ctx, params) => stringList(params.fields).every((p) => isFilled(valueAt(ctx.record, p))),
  /** Every field named in `params.fields` is filled in the event payload. */
  payloadFilled: (ctx, params) => stringList(params.fields).every((p) => isFilled(valueAt(ctx.payload, p))),
  /** The actor is the user the record's field `params.field` (a JSON pointer) names, e.g. the assigned executor. */
  actorIsAssigned: (ctx, params) =>
    ctx.actorId !== null && String(valueAt(ctx.record, String(params.field))) === ctx.actorId,
  /**
   * A quorum: more than half of the members the record lists (`params.members`, an array of
   * ids) are among those the payload names present (`params.present`); no members, no quorum.
   */
  quorum: (ctx, params) => {
    const ids = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
    const members = new Set(ids(valueAt(ctx.record, String(params.members))));
    const present = new Set(ids(valueAt(ctx.payload, String(params.present))).filter((id) => members.has(id)));
    return members.size > 0 && present.size * 2 > members.size;
  },
};

/**
 * The message a refusing guard gives, when its machine names one (`params.message`, an i18n
 * key, e.g. the spec's "no quorum"): such a guard is a rule the user should read, so its event
 * is offered and a refusal says why; without one the general "conditions not met" is said.
 */
export function guardMessage(guard: unknown): string | undefined {
  const message = (guard as { params?: { message?: unknown } } | undefined)?.params?.message;
  return typeof guard === 'object' && typeof message === 'string' ? message : undefined;
}

/** Guards that read the event payload: they cannot be judged before the payload exists (GET events). */
export const payloadGuards: ReadonlySet<string> = new Set(['payloadFilled', 'quorum']);

/** User ids are text on the actor and integers in records (portal-user ids). */
const asStoredId = (id: string | null): string | number | null => (id !== null && /^\d+$/.test(id) ? Number(id) : id);

export const actionImplementations: Record<string, ActionImplementation> = {
  /** Sets the top-level field `params.field` to the current time (ISO 8601). */
  stampNow: (ctx, params) => ({ [String(params.field)]: ctx.now.toISOString() }),
  /**
   * Copies payload field `params.from` into record field `params.field`. An optional payload
   * field left empty changes nothing (e.g. a deadline the person may leave as it is).
   */
  copyFromPayload: (ctx, params) => {
    const value = valueAt(ctx.payload, `/${String(params.from)}`);
    return value === undefined ? {} : { [String(params.field)]: value };
  },
  /** Sets the top-level field `params.field` to today's date in Tashkent (YYYY-MM-DD) — for `format: date` fields. */
  stampToday: (ctx, params) => ({ [String(params.field)]: businessDate(ctx.now) }),
  /** Sets the top-level field `params.field` to the acting user's id (e.g. the executor who took the case). */
  assignActor: (ctx, params) => ({ [String(params.field)]: asStoredId(ctx.actorId) }),
  /** Sets the top-level field `params.field` to the date `params.days` days after today in Tashkent — e.g. a review deadline, due at the end of that Tashkent day, which the sweep then watches. */
  stampDaysAhead: (ctx, params) => ({ [String(params.field)]: businessDate(ctx.now, Number(params.days)) }),
  /** Removes the top-level field `params.field` (e.g. a deadline that no longer applies). */
  clearField: (_ctx, params) => ({ [String(params.field)]: undefined }),
  /** Copies the record's own top-level field `params.from` into `params.field` (e.g. a requested date that a signature confirms). */
  copyField: (ctx, params) => ({ [String(params.field)]: valueAt(ctx.record, `/${String(params.from)}`) }),
  /** Sets the top-level field `params.field` to the fixed `params.value` (e.g. where a record was routed); the value must suit the field's schema. */
  setValue: (_ctx, params) => ({ [String(params.field)]: params.value }),
};

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A date (`YYYY-MM-DD`, a Tashkent day) or an instant (ISO date-time) as the checks compare them. */
interface Moment {
  /** The Tashkent calendar day. */
  day: string;
  /** The instant, for date-times only. */
  instant?: number;
  /** How the value reads in a message: DD.MM.YYYY, with the Tashkent time for a date-time. */
  text: string;
}

/** Reads a stored date or date-time; undefined for anything else (an empty field, a malformed value — the schema reports those). */
function momentOf(value: unknown): Moment | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  if (DATE_ONLY.test(value)) return { day: value, text: formatDate(value) };
  const instant = Date.parse(value);
  return Number.isNaN(instant)
    ? undefined
    : { day: businessDate(new Date(instant)), instant, text: formatDateTime(value) };
}

/**
 * Orders two moments: by instant when both are date-times, otherwise by Tashkent day — a
 * hearing at 10:00 is after one at 09:00 the same day, but a deadline date is only after
 * another date.
 */
const compareMoments = (a: Moment, b: Moment): number =>
  a.instant !== undefined && b.instant !== undefined
    ? Math.sign(a.instant - b.instant)
    : a.day < b.day
      ? -1
      : a.day > b.day
        ? 1
        : 0;

/**
 * The payload date a check judges (`params.field`, a pointer into the payload) and the
 * refusal it gives: the machine may name a more telling message (`params.message`) than the
 * check's own key.
 */
function judge(
  ctx: TransitionContext,
  params: Record<string, unknown>,
  defaultKey: string,
  refuse: (value: Moment, today: string) => Moment | string | false,
): CheckProblem | undefined {
  const pointer = String(params.field);
  const value = momentOf(valueAt(ctx.payload, pointer));
  if (!value) return undefined;
  const today = businessDate(ctx.now);
  const bound = refuse(value, today);
  if (bound === false) return undefined;
  const date = typeof bound === 'string' ? formatDate(bound) : bound.text;
  return { pointer, key: typeof params.message === 'string' ? params.message : defaultKey, params: { date } };
}

/** The record's date `params.than` (a JSON pointer, system fields such as /createdAt included); undefined when empty. */
const recordMoment = (ctx: TransitionContext, params: Record<string, unknown>): Moment | undefined =>
  momentOf(valueAt(ctx.record, String(params.than)));

export const checkImplementations: Record<string, CheckImplementation> = {
  /** The payload date `params.field` is today or later in Tashkent (a date-time: its Tashkent day) — e.g. a new deadline. */
  dateNotPast: (ctx, params) =>
    judge(ctx, params, 'validation.dateNotPast', (value, today) => (value.day < today ? today : false)),
  /** The payload date `params.field` is today or earlier in Tashkent — e.g. the day a reopened case resumed, which is not a promise about the future. */
  dateNotFuture: (ctx, params) =>
    judge(ctx, params, 'validation.dateNotFuture', (value, today) => (value.day > today ? today : false)),
  /** The payload date `params.field` is later than the record's date `params.than` (passes while that is empty) — e.g. a new deadline after the current one. */
  dateAfterField: (ctx, params) => {
    const than = recordMoment(ctx, params);
    return than
      ? judge(ctx, params, 'validation.dateAfterField', (value) => (compareMoments(value, than) <= 0 ? than : false))
      : undefined;
  },
  /** The payload date `params.field` is not earlier than the record's date `params.than` (passes while that is empty) — e.g. not before the record was created. */
  dateNotBeforeField: (ctx, params) => {
    const than = recordMoment(ctx, params);
    return than
      ? judge(ctx, params, 'validation.dateNotBeforeField', (value) => (compareMoments(value, than) < 0 ? than : false))
      : undefined;
  },
};

/**
 * Where an action writes a payload field into the record (`copyFromPayload`): the payload
 * field and the top-level record field, else undefined. Readers who may not see that record
 * field do not see the payload field in the history either.
 * @example payloadCopyOf({ type: 'copyFromPayload', params: { field: 'deadline', from: 'newDeadline' } }) // { from: 'newDeadline', field: 'deadline' }
 */
export function payloadCopyOf(
  action: string | { type: string; params?: Record<string, unknown> },
): { from: string; field: string } | undefined {
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
  checks: Object.keys(checkImplementations),
};
