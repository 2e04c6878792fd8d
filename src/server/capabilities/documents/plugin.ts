import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import path from 'node:path';
import { ApiError, errorBodySchema, notFound } from '../../errors.ts';
import { fileReply, objectReply } from '../../reply-schemas.ts';
import type { CapabilityOptions } from '../registry.ts';
import { createPdfConverter, DEFAULT_CONVERTER } from './convert.ts';
import { DOCX_MIME, generateDocument, type Generator } from './generate.ts';
import { createTemplateStore, DOCUMENT_TABLES, readStored } from './store.ts';
import { registerTemplateRoutes } from './template-routes.ts';

/** The tables of templates and generated documents. */
export const migrations = [DOCUMENT_TABLES];

const fileSchema = {
  type: 'object',
  properties: { id: { type: 'string' }, name: { type: 'string' }, mime: { type: 'string' }, size: { type: 'integer' } },
} as const;

const generatedSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    kind: { type: 'string' },
    templateVersion: { type: 'integer' },
    docx: fileSchema,
    pdf: { anyOf: [fileSchema, { type: 'null' }] },
    createdAt: { type: 'string' },
    createdBy: { type: ['string', 'null'] },
    createdByName: { type: ['string', 'null'] },
  },
} as const;

/** Logs a failed conversion's reason (the caller gets the plain message), then passes the error on. */
const logFailure =
  (request: FastifyRequest) =>
  (error: unknown): never => {
    if (error instanceof ApiError && error.statusCode >= 500)
      request.log.error({ err: error.cause ?? error }, 'document conversion failed');
    throw error;
  };

const idParams = { type: 'object', properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } } } as const;

/**
 * Documents made from records (manifest `documents`): `POST /api{base}/documents/{id}/{kind}`
 * makes one (generate.ts), `GET /api{base}/documents/{id}` lists a record's documents, each
 * kind's `alias` answers the DOCX on a GET of the specification's path; plus the template
 * versions of the admin screen (template-routes.ts). Version 1 of each kind is seeded from
 * its default file at start-up when the kind has none.
 */
const documents: FastifyPluginAsync<CapabilityOptions> = async (app, { entities }) => {
  const converter = createPdfConverter(() => ({
    sofficePath: app.config.sofficePath ?? DEFAULT_CONVERTER.sofficePath,
    poolSize: app.config.docgenPoolSize ?? DEFAULT_CONVERTER.poolSize,
    timeoutMs: app.config.docgenTimeoutMs ?? DEFAULT_CONVERTER.timeoutMs,
  }));
  const templates = createTemplateStore(app.db, app.fileStorage);
  const gen: Generator = { templates, converter };
  app.addHook('onClose', async () => converter.close());

  for (const def of entities) {
    for (const kind of def.manifest.documents!.kinds) {
      await templates.seed(
        def.id,
        kind.kind,
        path.join(app.config.root, kind.template ?? `templates/${def.id}/${kind.kind}.docx`),
      );
    }
  }
  registerTemplateRoutes(app, templates, entities);

  for (const def of entities) {
    const kinds = def.manifest.documents!.kinds;
    const tags = [def.manifest.subject];
    app.post<{ Params: { id: number; kind: string } }>(
      `/api${def.manifest.base}/documents/:id/:kind`,
      {
        schema: {
          tags,
          summary: `Makes a document of the record from the kind's newest template (${kinds.map((k) => k.kind).join(', ')}): DOCX and PDF attached to the record, audited`,
          params: {
            type: 'object',
            properties: { ...idParams.properties, kind: { type: 'string', enum: kinds.map((k) => k.kind) } },
          },
          // No query parameters: `lang` (read before validation) picks the document's language.
          response: {
            200: generatedSchema,
            401: errorBodySchema,
            403: errorBodySchema,
            404: errorBodySchema,
            500: errorBodySchema,
            503: errorBodySchema,
          },
        },
      },
      async (request) => {
        const kind = kinds.find((k) => k.kind === request.params.kind);
        if (!kind) throw notFound();
        return generateDocument(app, gen, def, kind, request.params.id, request.actor, request.locale).catch(
          logFailure(request),
        );
      },
    );

    app.get<{ Params: { id: number } }>(
      `/api${def.manifest.base}/documents/:id`,
      {
        schema: {
          tags,
          summary: "The record's generated documents, newest first (needs read on the record)",
          params: idParams,
          querystring: { type: 'object', properties: { lang: { type: 'string' } } },
          response: { 200: objectReply('Documents', { list: { type: 'array', items: generatedSchema } }) },
        },
      },
      async (request) => {
        await app.store.get(def.id, request.params.id, request.actor);
        const { rows } = await app.db.query<Record<string, unknown>>(
          `SELECT g.id::int AS id, g.kind, g.template_version AS "templateVersion", g.created_by AS "createdBy",
                  to_char(g.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
                  json_build_object('id', d.id::text, 'name', d.name, 'mime', d.mime, 'size', d.size) AS docx,
                  CASE WHEN p.id IS NULL THEN NULL ELSE json_build_object('id', p.id::text, 'name', p.name, 'mime', p.mime, 'size', p.size) END AS pdf
             FROM generated_document g
             JOIN file_entity d ON d.id = g.docx_file
             LEFT JOIN file_entity p ON p.id = g.pdf_file
            WHERE g.entity = $1 AND g.record_id = $2 ORDER BY g.created_at DESC, g.id DESC LIMIT 200`,
          [def.id, request.params.id],
        );
        return { list: rows };
      },
    );

    for (const kind of kinds.filter((k) => k.alias)) {
      app.get<{ Params: { id: number } }>(
        `/api${kind.alias}/:id`,
        {
          schema: {
            tags,
            summary: `Makes the ${kind.kind} document of a ${def.id} record and answers its DOCX (the specification's path; like POST /api${def.manifest.base}/documents/{id}/${kind.kind})`,
            params: idParams,
            response: {
              200: fileReply('The DOCX, as an attachment'),
              403: errorBodySchema,
              404: errorBodySchema,
              503: errorBodySchema,
            },
          },
        },
        async (request, reply) => {
          const made = await generateDocument(
            app,
            gen,
            def,
            kind,
            request.params.id,
            request.actor,
            request.locale,
          ).catch(logFailure(request));
          const bytes = await readStored(app.fileStorage, made.docx.id);
          if (!bytes) throw notFound();
          return reply
            .header('content-type', DOCX_MIME)
            .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(made.docx.name)}`)
            .send(bytes);
        },
      );
    }
  }
};

export default documents;
