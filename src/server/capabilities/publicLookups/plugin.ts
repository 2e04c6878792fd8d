import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { ApiError, badInput, errorBodySchema, notFound } from '../../errors.ts';
import { objectReply } from '../../reply-schemas.ts';
import { lookupWhere, projectRow, rowAsRecord, type PublicLookup } from '../../public/lookup.ts';
import { PUBLIC_LOOKUP_TABLES } from '../../public/tables.ts';
import type { CapabilityOptions } from '../registry.ts';
import { BUSINESS_TIME_ZONE } from '../../../shared/time-zone.ts';
import { reversedRangeParams } from '../../../shared/lookup-ranges.ts';

/** The log of lookups (also their rate limit and counters). */
export const migrations = [PUBLIC_LOOKUP_TABLES];

/** Calls of public lookups one address may make in a minute unless the lookup says otherwise. */
export const DEFAULT_LOOKUPS_PER_MINUTE = 30;
const DEFAULT_LIMIT = 50;
/** "Today" of the counters is the committee's day (Tashkent, UTC+5). */
const TODAY = `(at AT TIME ZONE '${BUSINESS_TIME_ZONE}')::date = (now() AT TIME ZONE '${BUSINESS_TIME_ZONE}')::date`;

interface Row {
  id: number;
  status: string;
  data: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

/** JSON Schema of a lookup's query: its parameters, types and formats. */
function querySchema(lookup: PublicLookup) {
  const properties: Record<string, object> = { lang: { type: 'string' } };
  for (const b of lookup.by) {
    properties[b.param] =
      b.type === 'integer'
        ? { type: 'integer', minimum: 1 }
        : {
            type: 'string',
            maxLength: 100,
            ...(b.type === 'date' ? { format: 'date' } : b.format ? { format: b.format } : {}),
          };
  }
  const required = lookup.oneOf ? [] : lookup.by.filter((b) => !b.optional).map((b) => b.param);
  return { type: 'object', additionalProperties: false, properties, required };
}

/**
 * Public lookups declared in the manifests (`publicLookups`): one generic route per lookup,
 * `GET /api/public-lookup/<entity>/<name>`, with no account. The answer holds only the
 * declared fields, masked as declared; each call is logged in `public_lookup_log` (the values
 * hashed) and an address making too many calls a minute gets 429. Counters (`stats`) are
 * served at `…/<name>/stats`.
 */
const publicLookups: FastifyPluginAsync<CapabilityOptions> = async (app, { entities }) => {
  for (const def of entities) {
    const table = app.tables.get(def.id)!;
    for (const lookup of def.manifest.publicLookups ?? []) {
      const path = `/api/public-lookup/${def.id}/${lookup.name}`;
      const perMinute = lookup.perMinute ?? DEFAULT_LOOKUPS_PER_MINUTE;
      const tags = ['Public lookups'];

      /** 429 once this address made `perMinute` calls in the last minute (any public lookup). */
      const limit = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
        const { rows } = await app.db.query<{ n: number; oldest: string | null }>(
          `SELECT count(*)::int AS n, min(at)::text AS oldest FROM public_lookup_log WHERE ip = $1 AND at > now() - interval '1 minute'`,
          [request.ip],
        );
        const { n, oldest } = rows[0]!;
        if (n < perMinute) return;
        const seconds = Math.max(1, Math.ceil(60 - (Date.now() - new Date(oldest!).getTime()) / 1000));
        reply.header('retry-after', String(seconds));
        throw new ApiError(429, 'errors.tooManyRequests', { params: { seconds } });
      };

      app.get<{ Querystring: Record<string, unknown> }>(
        path,
        {
          schema: {
            tags,
            summary: lookup.description ?? `Public lookup ${lookup.name} of ${def.id}`,
            querystring: querySchema(lookup),
            response: {
              200:
                lookup.mode === 'summary'
                  ? objectReply("How many records match, the newest one's date and its declared fields (masked)", {
                      count: { type: 'integer' },
                      lastAt: { type: ['string', 'null'] },
                    })
                  : objectReply('The matching records, only their declared fields (masked)', {
                      list: { type: 'array', items: objectReply(lookup.returns.map((r) => r.as).join(', ')) },
                    }),
              400: errorBodySchema,
              429: errorBodySchema,
            },
          },
        },
        async (request, reply) => {
          const query = request.query;
          const given = lookup.by.filter((b) => query[b.param] !== undefined && query[b.param] !== '');
          if (lookup.oneOf && given.length !== 1) {
            throw badInput(
              (given.length ? given : lookup.by).map((b) => ({
                pointer: `/${b.param}`,
                key: given.length ? 'validation.oneOf' : 'validation.required',
                params: {},
              })),
            );
          }
          const oneNeeded = lookup.by.filter((b) => lookup.needsOneOf?.includes(b.param));
          if (oneNeeded.length && !oneNeeded.some((b) => given.includes(b))) {
            throw badInput(oneNeeded.map((b) => ({ pointer: `/${b.param}`, key: 'journey.needsOneOf', params: {} })));
          }
          // A range the wrong way round is a mistake to point out, not a question with no answer.
          const reversed = reversedRangeParams(lookup.by, query);
          if (reversed.length)
            throw badInput(reversed.map((param) => ({ pointer: `/${param}`, key: 'fixes.rangeReversed', params: {} })));
          await limit(request, reply);
          const values = Object.fromEntries(given.map((b) => [b.param, query[b.param]]));
          const where = lookupWhere(lookup, table, values, def.id);
          const sortCol = lookup.sort ? (table.columns.get(lookup.sort.field)?.column ?? 'created_at') : 'created_at';
          const desc = lookup.sort ? lookup.sort.desc === true : true;
          const order = `${sortCol} ${desc ? 'DESC' : 'ASC'} NULLS LAST, id ${desc ? 'DESC' : 'ASC'}`;
          const select = `id, status, data, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at`;
          let answer: Record<string, unknown>;
          let found: number;
          if (lookup.mode === 'summary') {
            const { rows } = await app.db.query<{ n: number; last_at: string | null }>(
              `SELECT count(*)::int AS n, to_char(max(created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_at FROM ${table.table} ${where.sql}`,
              where.params,
            );
            found = rows[0]!.n;
            answer = { count: found, lastAt: rows[0]!.last_at };
            if (found) {
              const newest = await app.db.query<Row>(
                `SELECT ${select} FROM ${table.table} ${where.sql} ORDER BY created_at DESC, id DESC LIMIT 1`,
                where.params,
              );
              Object.assign(answer, projectRow(lookup, rowAsRecord(newest.rows[0]!)));
              // Publicly submitted records have a reference number; a single one is named.
              if (found === 1 && def.manifest.publicSubmit) {
                const ref = await app.db.query<{ reference: string }>(
                  'SELECT reference FROM public_submission WHERE entity = $1 AND record_id = $2 AND reference IS NOT NULL',
                  [def.id, newest.rows[0]!.id],
                );
                answer.referenceNumber = ref.rows[0]?.reference ?? null;
              }
            }
          } else {
            const { rows } = await app.db.query<Row>(
              `SELECT ${select} FROM ${table.table} ${where.sql} ORDER BY ${order} LIMIT ${lookup.limit ?? DEFAULT_LIMIT}`,
              where.params,
            );
            found = rows.length;
            answer = { list: rows.map((r) => projectRow(lookup, rowAsRecord(r))) };
          }
          const hash = createHash('sha256').update(JSON.stringify(values)).digest('hex');
          await app.db.query(
            'INSERT INTO public_lookup_log (ip, entity, lookup, params_hash, found) VALUES ($1, $2, $3, $4, $5)',
            [request.ip, def.id, lookup.name, hash, found],
          );
          return answer;
        },
      );

      if (!lookup.stats?.length) continue;
      app.get(
        `${path}/stats`,
        {
          schema: {
            tags,
            summary: `Counters of ${lookup.name}`,
            response: {
              200: objectReply(
                (lookup.stats ?? []).map((s) => s.name).join(', '),
                Object.fromEntries((lookup.stats ?? []).map((s) => [s.name, { type: 'integer' }])),
              ),
            },
          },
        },
        async () => {
          const out: Record<string, number> = {};
          for (const s of lookup.stats ?? []) {
            if (s.source === 'checks') {
              const { rows } = await app.db.query<{ n: number }>(
                `SELECT count(*)::int AS n FROM public_lookup_log WHERE entity = $1 AND lookup = $2${s.today ? ` AND ${TODAY}` : ''}`,
                [def.id, lookup.name],
              );
              out[s.name] = rows[0]!.n;
            } else {
              const col = s.field ? table.columns.get(s.field) : undefined;
              if (!col) throw notFound();
              const today = s.today
                ? ` AND (${col.column} AT TIME ZONE '${BUSINESS_TIME_ZONE}')::date = (now() AT TIME ZONE '${BUSINESS_TIME_ZONE}')::date`
                : '';
              const { rows } = await app.db.query<{ n: number }>(
                `SELECT count(*)::int AS n FROM ${table.table} WHERE ${col.column} IS NOT NULL${today}`,
              );
              out[s.name] = rows[0]!.n;
            }
          }
          return out;
        },
      );
    }
  }
};

export default publicLookups;
