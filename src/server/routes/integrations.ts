import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ApiError, errorBodySchema } from '../errors.ts';
import { fileReply } from '../reply-schemas.ts';
import { searchCalls, type AuditFilters } from '../integrations/audit.ts';
import { BUSINESS_UTC_OFFSET_MINUTES } from '../../shared/time-zone.ts';

/** A moment as Tashkent's clock shows it: DD.MM.YYYY HH:mm:ss (spec §9). */
function tashkentDateTime(iso: string): string {
  const d = new Date(new Date(iso).getTime() + BUSINESS_UTC_OFFSET_MINUTES * 60_000).toISOString();
  return `${d.slice(8, 10)}.${d.slice(5, 7)}.${d.slice(0, 4)} ${d.slice(11, 19)}`;
}

/** The subsystem subject (access.json): `call` the query pages, `read` the health screen, `audit` the call audit. */
export const INTEGRATION_SUBJECT = 'Integration';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** Refuses a signed-out caller (401) or one without `action Integration` (403). */
function demand(request: FastifyRequest, action: string): void {
  if (request.actor.id === null) throw new ApiError(401, 'errors.unauthorized');
  if (!request.actor.ability.can(action, INTEGRATION_SUBJECT)) throw new ApiError(403, 'errors.forbidden');
}

const auditFilterProperties = {
  from: { type: 'string', format: 'date' },
  to: { type: 'string', format: 'date' },
  agency: { type: 'string', maxLength: 100 },
  method: { type: 'string', maxLength: 100 },
  user: { type: 'string', maxLength: 100 },
  outcome: { enum: ['ok', 'notFound', 'refused', 'failed', 'unavailable'] },
  personalData: { type: 'boolean' },
} as const;

const auditRowSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    at: { type: 'string' },
    userId: { type: ['string', 'null'] },
    userName: { type: ['string', 'null'] },
    agency: { type: 'string' },
    method: { type: 'string' },
    personalData: { type: 'boolean' },
    params: { type: 'object', additionalProperties: { type: 'string' } },
    purpose: { type: ['string', 'null'] },
    recordEntity: { type: ['string', 'null'] },
    recordId: { type: ['integer', 'null'] },
    outcome: { type: 'string' },
    httpStatus: { type: ['integer', 'null'] },
    durationMs: { type: 'integer' },
    cached: { type: 'boolean' },
    sandbox: { type: 'boolean' },
  },
} as const;

/** Rows an export holds at most (the newest). */
const EXPORT_LIMIT = 50_000;

/**
 * The integration platform's routes (src/server/integrations): the catalogue of agencies and
 * methods the caller may query, one call, the agencies' health, and the call audit (search and
 * XLSX export).
 */
const integrationRoutes: FastifyPluginAsync = async (app) => {
  app.get(
    '/api/integrations',
    {
      schema: {
        tags: ['Integrations'],
        summary: 'The agencies and methods the caller may query',
        response: {
          200: {
            type: 'object',
            properties: {
              sandbox: { type: 'boolean' },
              agencies: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    id: { type: 'string' },
                    title: { type: 'string' },
                    description: { type: 'string' },
                    status: { enum: ['connected', 'sandbox', 'notConnected'] },
                    breaker: { enum: ['closed', 'open', 'halfOpen'] },
                    methods: {
                      type: 'array',
                      items: {
                        type: 'object',
                        properties: {
                          id: { type: 'string' },
                          title: { type: 'string' },
                          description: { type: 'string' },
                          personalData: { type: 'boolean' },
                          params: { type: 'object', additionalProperties: true },
                          result: { type: 'object', additionalProperties: true },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
          ...errors,
        },
      },
    },
    async (request) => {
      demand(request, 'call');
      return app.integrations.catalogue(request.actor, request.locale);
    },
  );

  app.get(
    '/api/integrations/health',
    {
      schema: {
        tags: ['Integrations'],
        summary: 'Each agency: connection, circuit breaker, recent latency and error rate',
        response: {
          200: {
            type: 'object',
            properties: {
              list: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    agency: { type: 'string' },
                    title: { type: 'string' },
                    status: { type: 'string' },
                    breaker: { type: 'string' },
                    calls: { type: 'integer' },
                    failures: { type: 'integer' },
                    errorRate: { type: 'number' },
                    p50Ms: { type: ['number', 'null'] },
                    p95Ms: { type: ['number', 'null'] },
                    lastError: { type: ['string', 'null'] },
                    lastCallAt: { type: ['string', 'null'] },
                  },
                },
              },
            },
          },
          ...errors,
        },
      },
    },
    async (request) => {
      demand(request, 'read');
      return app.integrations.health(request.locale);
    },
  );

  app.post<{
    Params: { agency: string; method: string };
    Body: { params?: Record<string, unknown>; purpose?: string; record?: { entity: string; id: number } };
  }>(
    '/api/integrations/:agency/:method',
    {
      schema: {
        tags: ['Integrations'],
        summary: "Calls an agency's method (personal data: a purpose is required and the call is audited)",
        params: {
          type: 'object',
          properties: { agency: { type: 'string', maxLength: 100 }, method: { type: 'string', maxLength: 100 } },
        },
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            params: { type: 'object' },
            purpose: { type: 'string', maxLength: 2000 },
            record: {
              type: 'object',
              additionalProperties: false,
              required: ['entity', 'id'],
              properties: {
                entity: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' },
                id: { type: 'integer', minimum: 1 },
              },
            },
          },
        },
        response: {
          200: {
            type: 'object',
            properties: {
              found: { type: 'boolean' },
              result: { type: ['object', 'null'], additionalProperties: true },
              cached: { type: 'boolean' },
              sandbox: { type: 'boolean' },
              durationMs: { type: 'integer' },
              callId: { type: 'integer' },
            },
          },
          ...errors,
          429: errorBodySchema,
          502: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (request) => {
      if (request.actor.id === null) throw new ApiError(401, 'errors.unauthorized');
      const body = request.body ?? {};
      return app.integrations.call({
        agency: request.params.agency,
        method: request.params.method,
        params: body.params ?? {},
        purpose: body.purpose,
        record: body.record,
        actor: request.actor,
        locale: request.locale,
      });
    },
  );

  app.post<{ Body: AuditFilters & { page?: number; size?: number } }>(
    '/api/integrations/audit/list-search',
    {
      schema: {
        tags: ['Integrations'],
        summary: 'The call audit, newest first (auditors)',
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            ...auditFilterProperties,
            page: { type: 'integer', minimum: 0, default: 0 },
            size: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
          },
        },
        response: {
          200: {
            type: 'object',
            properties: { list: { type: 'array', items: auditRowSchema }, total: { type: 'integer' } },
          },
          ...errors,
        },
      },
    },
    async (request) => {
      demand(request, 'audit');
      const { page = 0, size = 20, ...filters } = request.body ?? {};
      return searchCalls((sql, params) => app.db.query(sql, params), filters, page, size);
    },
  );

  // Auditors need not be callers: the audit screen names agencies and methods (its filters and
  // rows) from here, every definition, in the reader's language.
  app.get(
    '/api/integrations/audit/titles',
    {
      schema: {
        tags: ['Integrations'],
        summary: 'Every agency and method by title, for the audit (auditors)',
        response: {
          200: {
            type: 'object',
            properties: {
              agencies: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    id: { type: 'string' },
                    title: { type: 'string' },
                    methods: {
                      type: 'array',
                      items: { type: 'object', properties: { id: { type: 'string' }, title: { type: 'string' } } },
                    },
                  },
                },
              },
            },
          },
          ...errors,
        },
      },
    },
    async (request) => {
      demand(request, 'audit');
      return {
        agencies: [...app.definitions.integrations].map(([id, def]) => ({
          id,
          title: def.agency.title[request.locale],
          methods: [...def.methods.values()].map((m) => ({ id: m.id, title: m.title[request.locale] })),
        })),
      };
    },
  );

  app.get<{ Querystring: AuditFilters }>(
    '/api/integrations/audit/export.xlsx',
    {
      schema: {
        tags: ['Integrations'],
        summary: 'The call audit under the same filters, as an XLSX workbook (auditors)',
        querystring: { type: 'object', additionalProperties: false, properties: auditFilterProperties },
        response: { 200: fileReply('The workbook (.xlsx), as an attachment'), ...errors },
      },
    },
    async (request, reply) => {
      demand(request, 'audit');
      const { list } = await searchCalls((sql, params) => app.db.query(sql, params), request.query, 0, EXPORT_LIMIT);
      const t = (key: string) => app.translator.t(request.locale, key);
      const titles = new Map(
        [...app.definitions.integrations].flatMap(([id, def]) => [
          [id, def.agency.title[request.locale]],
          ...[...def.methods.values()].map((m) => [`${id}/${m.id}`, m.title[request.locale]] as [string, string]),
        ]),
      );
      const { default: ExcelJS } = await import('exceljs');
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet(t('integrationAudit.sheet'));
      const columns = [
        'at',
        'user',
        'agency',
        'method',
        'personalData',
        'params',
        'purpose',
        'record',
        'outcome',
        'httpStatus',
        'durationMs',
        'cached',
      ];
      sheet.columns = columns.map((key) => ({
        header: t(`integrationAudit.column.${key}`),
        key,
        width: key === 'purpose' || key === 'params' ? 40 : 18,
      }));
      sheet.getRow(1).font = { bold: true };
      for (const row of list)
        sheet.addRow({
          at: tashkentDateTime(row.at),
          user: row.userName ?? '',
          agency: titles.get(row.agency) ?? row.agency,
          method: titles.get(`${row.agency}/${row.method}`) ?? row.method,
          personalData: row.personalData ? t('integrationAudit.yes') : t('integrationAudit.no'),
          params: Object.entries(row.params)
            .map(([k, v]) => `${k}=${v}`)
            .join(', '),
          purpose: row.purpose ?? '',
          record: row.recordEntity ? `${row.recordEntity} #${row.recordId}` : '',
          outcome: t(`integrationAudit.outcome.${row.outcome}`),
          httpStatus: row.httpStatus ?? '',
          durationMs: row.durationMs,
          cached: row.cached ? t('integrationAudit.yes') : t('integrationAudit.no'),
        });
      const buffer = Buffer.from(await book.xlsx.writeBuffer());
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', 'attachment; filename="integration-audit.xlsx"')
        .send(buffer);
    },
  );
};

export default integrationRoutes;
