import type { FastifyPluginAsync } from 'fastify';
import { errorBodySchema } from '../../errors.ts';
import { filterQuerySchema } from '../../store/list-query.ts';
import { aggregateQuery } from '../../store/aggregate.ts';
import { parseMeasureFilter } from '../../store/measure-filter.ts';
import { hiddenFieldsOf } from '../../../shared/ability.ts';
import type { CapabilityOptions } from '../registry.ts';
import type { EntityDefinition } from '../../../definitions/registry.ts';

/**
 * `GET /api{base}/aggregate/{name}` for every aggregate a manifest declares (`aggregates`):
 * grouped min/max/avg/sum/count over the rows list-search's filters leave, so a chart or a
 * price table is a definition, not a route of its own. Reading follows list-search (the
 * role's permission and scope, or anyone for a `publicRead` registry; 403 to a reader from whom
 * a field the aggregate reads is hidden); anonymous calls are rate-limited per address.
 */
/**
 * The fields a measure's `filter` reads (refused, like the others, to a reader from whom one is
 * hidden). A filter `npm run check` would refuse stops the server here, naming it.
 */
function measureFilterFields(def: EntityDefinition, name: string, index: number): string[] {
  const measure = def.manifest.aggregates![name]!.measures[index]!;
  if (!measure.filter) return [];
  const { parsed, problems } = parseMeasureFilter(def, measure.filter);
  if (problems.length)
    throw new Error(
      `${def.id}/entity.json#/aggregates/${name}/measures/${index}/filter: ${problems.map((p) => p.message).join('; ')}`,
    );
  return parsed.filters.flatMap((f) => (f.field ? [f.field] : []));
}

const aggregates: FastifyPluginAsync<CapabilityOptions> = async (app, { entities }) => {
  for (const def of entities) {
    const table = app.tables.get(def.id)!;
    for (const [name, aggregate] of Object.entries(def.manifest.aggregates ?? {})) {
      const filters = filterQuerySchema(def);
      const units = aggregate.dateBucket?.units;
      // The fields the aggregate reads: refused to a reader who may not see one of them.
      const fields = [
        ...(aggregate.groupBy ?? []),
        ...(aggregate.dateBucket ? [aggregate.dateBucket.field] : []),
        ...aggregate.measures.flatMap((m) => (m.field ? [m.field] : [])),
        ...aggregate.measures.flatMap((_, i) => measureFilterFields(def, name, i)),
      ];
      app.get<{ Querystring: Record<string, unknown> }>(
        `/api${def.manifest.base}/aggregate/${name}`,
        {
          config: { publicRateLimit: true },
          schema: {
            tags: [def.manifest.subject],
            summary: aggregate.description ?? `Aggregate "${name}"`,
            querystring: {
              ...filters,
              properties: {
                ...filters.properties,
                lang: { type: 'string' },
                ...(units ? { bucket: { type: 'string', enum: units } } : {}),
              },
            },
            response: {
              200: {
                type: 'object',
                required: ['list'],
                properties: { list: { type: 'array', items: { type: 'object', additionalProperties: true } } },
              },
              400: errorBodySchema,
              401: errorBodySchema,
              403: errorBodySchema,
            },
          },
        },
        async (request) => {
          const { bucket, lang, ...query } = request.query;
          void lang;
          const scoped = app.store.readableWhere(def.id, query, request.actor, fields);
          const hidden = hiddenFieldsOf(request.actor.ability, def.manifest.subject);
          const { sql, params } = aggregateQuery(def, table, aggregate, scoped, bucket as string | undefined, hidden);
          const { rows } = await app.db.query(sql, params);
          return { list: rows };
        },
      );
    }
  }
};

export default aggregates;
