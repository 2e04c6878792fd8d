import type { FastifyInstance } from 'fastify';
import type { EntityDefinition } from '../../../definitions/registry.ts';
import type { Aggregate, ScorecardArea } from '../../../generated/meta.ts';
import { systemActor } from '../../auth/access.ts';
import { aggregateQuery } from '../../store/aggregate.ts';
import type { Period } from '../../../shared/periods.ts';
import { derivedPoints } from './score.ts';

/** A derived area's rule (`areas[].derived`). */
export type DerivedRule = NonNullable<ScorecardArea['derived']>;
type RatioPart = DerivedRule['ratio'][number];

/** An aggregate named by its URL, with the entity that declares it. */
export interface ResolvedAggregate {
  def: EntityDefinition;
  name: string;
  aggregate: Aggregate;
}

/**
 * The entity and aggregate behind `/api{base}/aggregate/{name}`, or undefined when no manifest
 * declares it (`npm run check` names such an area).
 * @example resolveAggregate(entities, '/api/appeal/aggregate/rating-appeals')
 */
export function resolveAggregate(entities: Iterable<EntityDefinition>, url: string): ResolvedAggregate | undefined {
  const match = /^\/api(\/.+)\/aggregate\/([a-z][a-z0-9-]*)$/.exec(url);
  if (!match) return undefined;
  const [, base, name] = match;
  for (const def of entities) {
    const aggregate = def.manifest.aggregates?.[name!];
    if (def.manifest.base === base && aggregate) return { def, name: name!, aggregate };
  }
  return undefined;
}

const partOf = (part: RatioPart): { measure: string; query: Record<string, string | number> } =>
  typeof part === 'string' ? { measure: part, query: {} } : { measure: part.measure, query: part.query ?? {} };

/**
 * The value of one measure of the aggregate over the unit's rows in the period (summed over
 * the aggregate's groups). Read as the server itself: a score counts every row of the unit,
 * whoever fills the record.
 */
async function measureOf(
  app: FastifyInstance,
  target: ResolvedAggregate,
  rule: DerivedRule,
  part: RatioPart,
  unit: unknown,
  period: Period,
): Promise<number> {
  const { measure, query } = partOf(part);
  const filters: Record<string, unknown> = {
    ...(rule.query ?? {}),
    ...query,
    [rule.unit]: unit,
    [`${rule.period}From`]: period.from,
    [`${rule.period}To`]: period.to,
  };
  const scoped = app.store.readableWhere(target.def.id, filters, systemActor());
  const table = app.tables.get(target.def.id)!;
  const { sql, params } = aggregateQuery(target.def, table, target.aggregate, scoped, undefined);
  const { rows } = await app.db.query<Record<string, unknown>>(sql, params);
  return rows.reduce((sum, row) => sum + (Number(row[measure]) || 0), 0);
}

/**
 * The points of one derived area for a unit and a period: maxPoints × numerator / denominator
 * (score.ts derivedPoints), null when the denominator is 0.
 */
export async function derivedAreaPoints(
  app: FastifyInstance,
  target: ResolvedAggregate,
  maxPoints: number,
  rule: DerivedRule,
  unit: unknown,
  period: Period,
): Promise<number | null> {
  const [numerator, denominator] = await Promise.all(
    rule.ratio.map((part) => measureOf(app, target, rule, part, unit, period)),
  );
  return derivedPoints(maxPoints, numerator!, denominator!, rule.invert === true);
}
