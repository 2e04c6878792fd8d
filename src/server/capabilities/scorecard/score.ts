import type { EntityManifest } from '../../../generated/meta.ts';
import type { FieldProblem } from '../../../shared/validation/field-errors.ts';
import { valueAt } from '../../../shared/pointer.ts';

/** A manifest's `scorecard`. */
export type Scorecard = NonNullable<EntityManifest['scorecard']>;

/** One area of a scored record as stored. */
export interface ScoredArea {
  code: string;
  maxPoints: number;
  source: 'derived' | 'entered' | 'answered';
  points: number | null;
  /** Why a derived area has no points: "noData" (nothing to measure in the unit and period). */
  reason?: 'noData';
  /** The note typed beside an entered area. */
  note?: string;
}

/** What the server writes into a scored record. */
export interface ScoreResult {
  areas: ScoredArea[];
  points: number;
  maxPoints: number;
  percent: number | null;
  band: string | null;
  /** The codes of the areas below the scorecard's weakBelow share of their maximum (none without weakBelow). */
  weak: string[];
}

const round = (n: number, digits: number): number => Math.round(n * 10 ** digits) / 10 ** digits;
const fieldName = (pointer: string): string => pointer.slice(1);

/**
 * The points of a derived area: maxPoints × numerator / denominator (or × (1 − ratio) when
 * inverted), 2 decimals, kept within 0…maxPoints; no denominator → null ("noData").
 * @example derivedPoints(5, 45, 50, false) // 4.5
 */
export function derivedPoints(
  maxPoints: number,
  numerator: number,
  denominator: number,
  invert: boolean,
): number | null {
  if (!(denominator > 0)) return null;
  const share = Math.min(1, Math.max(0, numerator / denominator));
  return round(maxPoints * (invert ? 1 - share : share), 2);
}

/** The first band (best first) whose minPercent the percent reaches; null without a percent. */
export function bandOf(bands: Scorecard['bands'], percent: number | null): string | null {
  if (percent === null) return null;
  return bands.find((b) => percent >= b.minPercent)?.code ?? null;
}

/**
 * The points of an answered area: maxPoints × the average value of its answers (an answer the
 * rule does not list, or none, counts 0), 2 decimals.
 * @example answeredPoints(4, { fields: ['/a', '/b'], values: { YES: 1, PARTIAL: 0.5 } }, { a: 'YES', b: 'PARTIAL' }) // 3
 */
export function answeredPoints(
  maxPoints: number,
  rule: NonNullable<Scorecard['areas'][number]['answered']>,
  data: Record<string, unknown>,
): number {
  const shares = rule.fields.map((pointer) => {
    const answer = valueAt(data, pointer);
    const share = typeof answer === 'string' ? rule.values[answer] : undefined;
    return typeof share === 'number' ? Math.min(1, Math.max(0, share)) : 0;
  });
  return round((maxPoints * shares.reduce((a, b) => a + b, 0)) / shares.length, 2);
}

/**
 * The areas of a record in the scorecard's order: derived ones from `derived` (code → points,
 * null for no data), entered ones from what the person typed for the same code (`sent`, the
 * record's entered array), answered ones from the record's own answers (`data`). Entered points
 * outside 0…maxPoints are refused (field problems at the typed item's pointer).
 */
export function scoreAreas(
  card: Scorecard,
  sent: unknown,
  derived: ReadonlyMap<string, number | null>,
  data: Record<string, unknown> = {},
): { result: ScoreResult; problems: FieldProblem[] } {
  const maxOf = new Map(card.areas.map((a) => [a.code, a]));
  const given = new Map<string, { item: Record<string, unknown>; index: number }>();
  const problems: FieldProblem[] = [];
  (Array.isArray(sent) ? sent : []).forEach((item, index) => {
    const code = item && typeof item === 'object' ? (item as { code?: unknown }).code : undefined;
    const area = typeof code === 'string' ? maxOf.get(code) : undefined;
    if (!area?.entered) return;
    given.set(area.code, { item: item as Record<string, unknown>, index });
    const points = (item as { points?: unknown }).points;
    if (typeof points === 'number' && (points < 0 || points > area.maxPoints))
      problems.push({
        pointer: `${card.fields.entered ?? ''}/${index}/points`,
        key: points < 0 ? 'validation.minimum' : 'validation.maximum',
        params: { limit: points < 0 ? 0 : area.maxPoints },
      });
  });
  const areas = card.areas.map((area): ScoredArea => {
    if (area.answered)
      return {
        code: area.code,
        maxPoints: area.maxPoints,
        source: 'answered',
        points: answeredPoints(area.maxPoints, area.answered, data),
      };
    if (area.derived) {
      const points = derived.get(area.code) ?? null;
      return {
        code: area.code,
        maxPoints: area.maxPoints,
        source: 'derived',
        points,
        ...(points === null ? { reason: 'noData' as const } : {}),
      };
    }
    const item = given.get(area.code)?.item;
    const raw = item?.points;
    const points = typeof raw === 'number' && Number.isFinite(raw) ? raw : null;
    const note = typeof item?.note === 'string' && item.note !== '' ? { note: item.note } : {};
    return { code: area.code, maxPoints: area.maxPoints, source: 'entered', points, ...note };
  });
  const scored = areas.filter((a) => a.points !== null);
  const points = round(
    scored.reduce((sum, a) => sum + (a.points ?? 0), 0),
    2,
  );
  const maxPoints = scored.reduce((sum, a) => sum + a.maxPoints, 0);
  const percent = maxPoints > 0 ? round((points / maxPoints) * 100, 1) : null;
  const { weakBelow } = card;
  const weak =
    weakBelow === undefined
      ? []
      : areas.filter((a) => a.points !== null && (a.points / a.maxPoints) * 100 < weakBelow).map((a) => a.code);
  return { result: { areas, points, maxPoints, percent, band: bandOf(card.bands, percent), weak }, problems };
}

/**
 * Writes a score into a record's data at the scorecard's fields (top-level names), with the
 * period's first day and the unit/period key where the scorecard declares those fields.
 */
export function withScore(
  card: Scorecard,
  data: Record<string, unknown>,
  score: ScoreResult,
  periodStart: string | undefined,
): Record<string, unknown> {
  const { fields } = card;
  const out: Record<string, unknown> = { ...data };
  // An area without points is stored without the key: the record schema has no nulls.
  out[fieldName(fields.areas)] = score.areas.map(({ points, ...area }) =>
    points === null ? area : { ...area, points },
  );
  out[fieldName(fields.points)] = score.points;
  out[fieldName(fields.maxPoints)] = score.maxPoints;
  for (const [pointer, value] of [
    [fields.percent, score.percent],
    [fields.band, score.band],
    [fields.periodStart, periodStart],
  ] as const) {
    if (!pointer) continue;
    if (value === null || value === undefined) delete out[fieldName(pointer)];
    else out[fieldName(pointer)] = value;
  }
  if (fields.weak) out[fieldName(fields.weak)] = Object.fromEntries(score.weak.map((code) => [code, true]));
  // Each weak area twice: the record schema titles `area` with the area's name and
  // `recommendation` with its advice, so a record page shows both as a two-column table.
  if (fields.weakList)
    out[fieldName(fields.weakList)] = score.weak.map((code) => ({ area: code, recommendation: code }));
  if (fields.key) {
    const unit = data[fieldName(fields.unit)];
    const period = data[fieldName(fields.period)];
    if (unit !== undefined && period !== undefined) out[fieldName(fields.key)] = `${String(unit)}/${String(period)}`;
    else delete out[fieldName(fields.key)];
  }
  return out;
}
