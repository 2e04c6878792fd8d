import type { FastifyPluginAsync } from 'fastify';
import { errorBodySchema } from '../errors.ts';
import { BUSINESS_TIME_ZONE } from '../../shared/time-zone.ts';
import type { Migration } from '../db/migrations.ts';

/** One counter row per day. */
const VISIT_TABLES: Migration = {
  name: 'visits',
  ddl: [`CREATE TABLE IF NOT EXISTS visit_day (day date PRIMARY KEY, visits bigint NOT NULL DEFAULT 0)`],
};
/** This route plugin's tables (db/migrations.ts). */
export const migrations = [VISIT_TABLES];

const today = `(now() AT TIME ZONE '${BUSINESS_TIME_ZONE}')::date`;
const dayRow = {
  type: 'object',
  required: ['date', 'visits'],
  properties: { date: { type: 'string' }, visits: { type: 'integer' } },
} as const;

/**
 * Daily site visitors (spec §7: visit/add, visit/stats, visit/current-date-stats). The app
 * counts a visit once per browser session; the server keeps one counter row per day (the
 * day in Tashkent), so the table stays small whatever the traffic and an increment is one
 * upsert. Anyone may call these; they are rate-limited per address.
 */
const visits: FastifyPluginAsync = async (app) => {
  const config = { publicRateLimit: true };
  const tags = ['Visits'];

  app.post(
    '/api/visit/add',
    { config, schema: { tags, summary: 'Counts one visit today', response: { 200: dayRow, 429: errorBodySchema } } },
    async () => {
      const { rows } = await app.db.query<{ date: string; visits: number }>(
        `INSERT INTO visit_day (day, visits) VALUES (${today}, 1)
       ON CONFLICT (day) DO UPDATE SET visits = visit_day.visits + 1
       RETURNING to_char(day, 'YYYY-MM-DD') AS date, visits::int AS visits`,
      );
      return rows[0];
    },
  );

  app.get(
    '/api/visit/current-date-stats',
    { config, schema: { tags, summary: "Today's visits", response: { 200: dayRow } } },
    async () => {
      const { rows } = await app.db.query<{ date: string; visits: number }>(
        `SELECT to_char(${today}, 'YYYY-MM-DD') AS date, COALESCE((SELECT visits FROM visit_day WHERE day = ${today}), 0)::int AS visits`,
      );
      return rows[0];
    },
  );

  app.get<{ Querystring: { month?: string } }>(
    '/api/visit/stats',
    {
      config,
      schema: {
        tags,
        summary: 'Visits per day of a month (every day of it, zero where nobody came); default the current month',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { month: { type: 'string', pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$' }, lang: { type: 'string' } },
        },
        response: {
          200: {
            type: 'object',
            required: ['month', 'list', 'total'],
            properties: {
              month: { type: 'string' },
              total: { type: 'integer' },
              list: { type: 'array', items: dayRow },
            },
          },
          400: errorBodySchema,
        },
      },
    },
    async (request) => {
      const first = request.query.month ? `($1::text || '-01')::date` : `date_trunc('month', ${today})::date`;
      const { rows } = await app.db.query<{ date: string; visits: number }>(
        `SELECT to_char(d, 'YYYY-MM-DD') AS date, COALESCE(v.visits, 0)::int AS visits
       FROM generate_series(${first}, (${first} + interval '1 month' - interval '1 day')::date, interval '1 day') AS d
       LEFT JOIN visit_day v ON v.day = d::date ORDER BY d`,
        request.query.month ? [request.query.month] : [],
      );
      return { month: rows[0]!.date.slice(0, 7), total: rows.reduce((n, r) => n + r.visits, 0), list: rows };
    },
  );
};

export default visits;
