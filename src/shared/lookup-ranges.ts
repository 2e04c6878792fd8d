/** One parameter of a public lookup (manifest `publicLookups[].by[]`), as far as a range needs it. */
export interface RangeParam {
  param: string;
  /** Absent on a parameter that matches the reference number (never part of a range). */
  field?: string | undefined;
  op?: 'eq' | 'gte' | 'lte' | undefined;
  type?: string | undefined;
}

const given = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

/**
 * The upper-bound parameters of the ranges given the wrong way round: a `gte` and an `lte`
 * parameter on the same field whose end is before its start (dates as `YYYY-MM-DD`, numbers
 * as numbers). The server refuses them with a field error and the lookup screen says so
 * before asking — "no cases" would be a wrong answer, not an empty one.
 * @example reversedRangeParams(lookup.by, { from: '2026-12-31', to: '2026-11-01' }) // ['to']
 */
export function reversedRangeParams(by: readonly RangeParam[], values: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const upper of by) {
    if (upper.op !== 'lte' || upper.field === undefined || !given(values[upper.param])) continue;
    const lower = by.find((b) => b.op === 'gte' && b.field === upper.field && given(values[b.param]));
    if (!lower) continue;
    const [a, b] = [values[lower.param], values[upper.param]];
    const reversed =
      upper.type === 'integer' || upper.type === 'number' ? Number(a) > Number(b) : String(a) > String(b);
    if (reversed) out.push(upper.param);
  }
  return out;
}
