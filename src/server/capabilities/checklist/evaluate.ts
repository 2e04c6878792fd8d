import { valueAt } from '../../../shared/pointer.ts';

/** A limit: a fixed number, another field divided by a divisor, or a number per value of a field. */
export type ChecklistLimit =
  | number
  | { field: string; divisor?: number }
  | { byField: string; values: Record<string, number> };

/** One measured-value rule of a checklist (the manifest's `checklist.rules`). */
export interface ChecklistRule {
  check: string;
  field: string;
  op: 'min' | 'max';
  limit: ChecklistLimit;
  when?: { field: string; in: ReadonlyArray<string | number | boolean> };
  messageKey: string;
}

/** The manifest key `checklist`. */
export interface Checklist {
  checks: string[];
  conform: string;
  nonConform: string;
  result: string;
  nonConformCount?: string;
  rules?: ChecklistRule[];
}

/** A refused check: the pointer of the check, the rule's message key and its parameters. */
export interface ChecklistProblem {
  pointer: string;
  key: string;
  params: { value: number; limit: number };
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * The limit a rule sets for this record and how the value is compared with it: `scale` multiplies
 * the value instead of dividing the other field, so that 1/3 of 15 m is exactly 5 m (no rounding).
 * Undefined when the limit cannot be known (the other field is empty, the class is not listed).
 */
function limitOf(limit: ChecklistLimit, data: unknown): { limit: number; scale: number; shown: number } | undefined {
  if (isNumber(limit)) return { limit, scale: 1, shown: limit };
  if ('byField' in limit) {
    const key = valueAt(data, limit.byField);
    const n = key === undefined || key === null ? undefined : limit.values[String(key)];
    return isNumber(n) ? { limit: n, scale: 1, shown: n } : undefined;
  }
  const other = valueAt(data, limit.field);
  if (!isNumber(other)) return undefined;
  const divisor = limit.divisor ?? 1;
  return { limit: other, scale: divisor, shown: Math.round((other / divisor) * 100) / 100 };
}

/**
 * Whether the measured value breaks the rule for this record: false while the value or the limit
 * is unknown or the rule's `when` does not hold.
 * @example breaksRule({check: '/a', field: '/d', op: 'min', limit: 1, messageKey: 'k'}, {d: 0.99}) // true
 */
export function breaksRule(rule: ChecklistRule, data: unknown): { value: number; limit: number } | undefined {
  if (rule.when && !rule.when.in.includes(valueAt(data, rule.when.field) as never)) return undefined;
  const value = valueAt(data, rule.field);
  const limit = limitOf(rule.limit, data);
  if (!isNumber(value) || !limit) return undefined;
  const scaled = value * limit.scale;
  const broken = rule.op === 'min' ? scaled < limit.limit : scaled > limit.limit;
  return broken ? { value, limit: limit.shown } : undefined;
}

/**
 * Evaluates a checklist record: the checks marked conform whose measured value breaks a rule
 * (refused), the overall result (conform when every check is conform, non-conform when any is,
 * undefined while one is unmarked) and the number of non-conform checks.
 */
export function evaluateChecklist(
  spec: Checklist,
  data: unknown,
): { problems: ChecklistProblem[]; result: string | undefined; nonConformCount: number } {
  const problems: ChecklistProblem[] = [];
  for (const rule of spec.rules ?? []) {
    if (valueAt(data, rule.check) !== spec.conform) continue;
    const broken = breaksRule(rule, data);
    if (broken && !problems.some((p) => p.pointer === rule.check))
      problems.push({ pointer: rule.check, key: rule.messageKey, params: broken });
  }
  const marks = spec.checks.map((pointer) => valueAt(data, pointer));
  const nonConformCount = marks.filter((m) => m === spec.nonConform).length;
  const result =
    nonConformCount > 0 ? spec.nonConform : marks.every((m) => m === spec.conform) ? spec.conform : undefined;
  return { problems, result, nonConformCount };
}
