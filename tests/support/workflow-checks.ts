/**
 * The tests' own model of the machines' named payload checks (`checks` of a transition:
 * dateNotPast, dateNotFuture, dateAfterField, dateNotBeforeField), written independently of
 * the server's registry: which payload dates pass for a record, which are refused and with
 * which message. The model-based tests draw valid payloads and refused-date cases from it, so
 * a new machine with checks is covered without new test code.
 */
import type { JSONSchema7 } from 'json-schema';
import type { Transition } from '../../src/generated/meta.ts';
import { businessDate } from '../../src/shared/business-day.ts';
import { formatDate, formatDateTime } from '../../src/shared/format.ts';
import { valueAt } from '../../src/shared/pointer.ts';
import { at } from './records.ts';

/** One named check of a transition, its parameters spelled out. */
export interface NamedCheck {
  type: string;
  field: string;
  than?: string;
  message?: string;
}

/** The checks of a transition, in the machine's order. */
export function checksOf(transition: Transition | undefined): NamedCheck[] {
  return (transition?.checks ?? []).map((c) => {
    const named =
      typeof c === 'string'
        ? { type: c, params: {} as Record<string, unknown> }
        : { type: c.type, params: (c.params ?? {}) as Record<string, unknown> };
    return {
      type: named.type,
      field: String(named.params.field),
      ...(typeof named.params.than === 'string' ? { than: named.params.than } : {}),
      ...(typeof named.params.message === 'string' ? { message: named.params.message } : {}),
    };
  });
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const isDateOnly = (value: string): boolean => DATE_ONLY.test(value);
const dayOf = (value: string): string => (isDateOnly(value) ? value : businessDate(new Date(value)));
/** The Tashkent day `days` after `day`. */
export const addDays = (day: string, days: number): string =>
  businessDate(new Date(Date.parse(`${day}T12:00:00+05:00`)), days);
/** A value of the payload field's format on a Tashkent day (date-times at 12:00 Tashkent). */
const onDay = (format: string | undefined, day: string): string =>
  format === 'date-time' ? `${day}T07:00:00.000Z` : day;
const filled = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** Today in Tashkent, as the server's clock (the real one in these tests) sees it. */
export const tashkentToday = (): string => businessDate(new Date());

/**
 * Whether `check` refuses `value` for a record on `today`, and the message parameters it
 * gives: the day the calendar checks compare with, or the record's date as shown.
 */
export function refusal(
  check: NamedCheck,
  value: string,
  record: Record<string, unknown>,
  today: string,
): { key: string; params: { date: string } } | undefined {
  const key = check.message ?? `validation.${check.type}`;
  const than = check.than ? at(record, check.than) : undefined;
  const comparable = filled(than) ? than : undefined;
  // Two instants compare as instants; anything else by Tashkent day.
  const order = (a: string, b: string): number =>
    !isDateOnly(a) && !isDateOnly(b)
      ? Math.sign(Date.parse(a) - Date.parse(b))
      : dayOf(a) < dayOf(b)
        ? -1
        : dayOf(a) > dayOf(b)
          ? 1
          : 0;
  const shown = (v: string) => (isDateOnly(v) ? formatDate(v) : formatDateTime(v));
  switch (check.type) {
    case 'dateNotPast':
      return dayOf(value) < today ? { key, params: { date: formatDate(today) } } : undefined;
    case 'dateNotFuture':
      return dayOf(value) > today ? { key, params: { date: formatDate(today) } } : undefined;
    case 'dateAfterField':
      return comparable && order(value, comparable) <= 0 ? { key, params: { date: shown(comparable) } } : undefined;
    case 'dateNotBeforeField':
      return comparable && order(value, comparable) < 0 ? { key, params: { date: shown(comparable) } } : undefined;
    default:
      throw new Error(
        `the tests do not know the check "${check.type}": describe it in tests/support/workflow-checks.ts`,
      );
  }
}

/**
 * A value of the payload field that every check passes for the record, or undefined when the
 * checks cannot all pass (then the caller skips that step). With an upper bound (not in the
 * future) the tightest day is today; otherwise the earliest day the lower bounds allow, and at
 * least tomorrow — so that a Tashkent midnight during the run keeps a "today or later" date valid.
 */
export function acceptedValue(
  checks: NamedCheck[],
  format: string | undefined,
  record: Record<string, unknown>,
  today: string,
): string | undefined {
  const upper = checks.some((c) => c.type === 'dateNotFuture') ? today : undefined;
  const lowers = [upper ? today : addDays(today, 1)];
  for (const c of checks) {
    const than = c.than ? at(record, c.than) : undefined;
    if (!filled(than)) continue;
    if (c.type === 'dateAfterField') lowers.push(addDays(dayOf(than), 1));
    if (c.type === 'dateNotBeforeField') lowers.push(dayOf(than));
  }
  const lowest = lowers.sort().at(-1)!;
  const day = upper ? (lowest <= upper ? upper : undefined) : lowest;
  if (!day) return undefined;
  const value = onDay(format, day);
  return checks.every((c) => !refusal(c, value, record, today)) ? value : undefined;
}

/**
 * For each check of a field, a value that check refuses: yesterday for "not past", two days
 * ahead for "not future" (so that a Tashkent midnight during the run does not make it
 * acceptable), the record's own date for "after", the day before it for "not before".
 * Checks against an empty record field cannot refuse and give no case.
 */
export function refusedValues(
  checks: NamedCheck[],
  format: string | undefined,
  record: Record<string, unknown>,
  today: string,
): Array<{ check: NamedCheck; value: string }> {
  return checks.flatMap((check) => {
    const than = check.than ? at(record, check.than) : undefined;
    let value: string | undefined;
    if (check.type === 'dateNotPast') value = onDay(format, addDays(today, -1));
    else if (check.type === 'dateNotFuture') value = onDay(format, addDays(today, 2));
    else if (!filled(than)) value = undefined;
    else if (check.type === 'dateAfterField')
      value = format === 'date-time' && !isDateOnly(than) ? than : onDay(format, dayOf(than));
    else if (check.type === 'dateNotBeforeField') value = onDay(format, addDays(dayOf(than), -1));
    return value !== undefined && refusal(check, value, record, today) ? [{ check, value }] : [];
  });
}

/** The checks of a transition grouped by the payload field they judge, with the field's format. */
export function checkedFields(
  transition: Transition | undefined,
): Array<{ field: string; format: string | undefined; checks: NamedCheck[] }> {
  const byField = new Map<string, NamedCheck[]>();
  for (const c of checksOf(transition)) byField.set(c.field, [...(byField.get(c.field) ?? []), c]);
  const properties = (transition?.payload?.properties ?? {}) as Record<string, JSONSchema7>;
  return [...byField].map(([field, checks]) => ({ field, format: properties[field.slice(1)]?.format, checks }));
}

/**
 * The payload with every checked date set to a value the checks accept for the record;
 * undefined when no such value exists for some field.
 */
export function satisfyChecks(
  transition: Transition | undefined,
  payload: Record<string, unknown>,
  record: Record<string, unknown>,
  today = tashkentToday(),
): Record<string, unknown> | undefined {
  const out = { ...payload };
  // A quorum guard (`quorum`) passes with every member the record lists present.
  const guard = transition?.guard as { type?: string; params?: Record<string, unknown> } | undefined;
  if (guard?.type === 'quorum') {
    const members = valueAt(record, String(guard.params?.members));
    out[String(guard.params?.present).slice(1)] = Array.isArray(members) ? [...members] : [];
  }
  for (const { field, format, checks } of checkedFields(transition)) {
    // An optional field left out is not judged.
    if (out[field.slice(1)] === undefined) continue;
    const value = acceptedValue(checks, format, record, today);
    if (value === undefined) return undefined;
    out[field.slice(1)] = value;
  }
  return out;
}
