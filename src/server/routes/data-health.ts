import type { FastifyPluginAsync } from 'fastify';
import { ApiError, errorBodySchema } from '../errors.ts';
import { createRecordProblems } from '../evolution/record-problems.ts';

const problemSchema = {
  type: 'object',
  properties: { pointer: { type: 'string' }, label: { type: 'string' }, message: { type: 'string' } },
} as const;

/** The subsystem subject of the list: the administrator's `manage all` covers it; a role may be given `read DataHealth`. */
export const DATA_HEALTH_SUBJECT = 'DataHealth';

interface HealthRow {
  entity: string;
  record_id: string | number;
}

/**
 * `GET /api/admin/data-health` (`read DataHealth`: administrators): the stored records that need a
 * person's eye after the definitions changed — fields the schema no longer knows, kept aside
 * (pointer and value), and what still fails the schema (pointer, label, message). The start-up
 * pass lists them (src/server/evolution/record-evolution.ts); each is judged again here
 * against the record as it is now, so a record put right since drops off the list.
 */
const dataHealth: FastifyPluginAsync = async (app) => {
  const problems = createRecordProblems(app.definitions, app.translator);
  app.get(
    '/api/admin/data-health',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Stored records with fields kept aside or that fail their schema',
        response: {
          200: {
            type: 'object',
            properties: {
              list: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    entity: { type: 'string' },
                    id: { type: 'integer' },
                    version: { type: 'integer' },
                    keptAside: {
                      type: 'array',
                      items: { type: 'object', properties: { pointer: { type: 'string' }, value: {} } },
                    },
                    errors: { type: 'array', items: problemSchema },
                    entityTitle: { type: 'string' },
                    keptAsideText: { type: 'string' },
                    problemsText: { type: 'string' },
                  },
                },
              },
            },
          },
          401: errorBodySchema,
          403: errorBodySchema,
        },
      },
    },
    async (request) => {
      const { actor } = request;
      if (actor.id === null) throw new ApiError(401, 'errors.unauthorized');
      if (!actor.ability.can('read', DATA_HEALTH_SUBJECT)) throw new ApiError(403, 'errors.forbidden');
      const listed = await app.db.query<HealthRow>(
        'SELECT entity, record_id FROM data_health ORDER BY entity, record_id LIMIT 1000',
      );
      const list = [];
      for (const row of listed.rows) {
        const table = app.tables.get(row.entity);
        const stored = table
          ? await app.db.query<{ data: Record<string, unknown>; kept_aside: Record<string, unknown>; v: number }>(
              `SELECT data, kept_aside, schema_version AS v FROM ${table.table} WHERE id = $1`,
              [row.record_id],
            )
          : undefined;
        const record = stored?.rows[0];
        const errors = record ? problems.of(row.entity, record.data) : [];
        const kept = Object.entries(record?.kept_aside ?? {});
        if (!record || (!errors.length && !kept.length)) {
          await app.db.query('DELETE FROM data_health WHERE entity = $1 AND record_id = $2', [
            row.entity,
            row.record_id,
          ]);
          continue;
        }
        const told = problems.tell(row.entity, errors, request.locale);
        const titleKey = app.definitions.entities.get(row.entity)?.manifest.titleKey;
        list.push({
          entity: row.entity,
          id: Number(row.record_id),
          version: record.v,
          keptAside: kept.map(([pointer, value]) => ({ pointer, value })),
          errors: told,
          // The same, as one line each, for the data-health screen's table (a dashboard panel).
          entityTitle: titleKey ? app.translator.t(request.locale, titleKey) : row.entity,
          keptAsideText: kept.map(([pointer, value]) => `${pointer} = ${JSON.stringify(value)}`).join('; '),
          problemsText: told.map((p) => `${p.label}: ${p.message}`).join('; '),
        });
      }
      return { list };
    },
  );
};

export default dataHealth;
