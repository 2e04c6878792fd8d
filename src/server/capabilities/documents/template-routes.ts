import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { EntityDefinition } from '../../../definitions/registry.ts';
import type { Actor } from '../../auth/access.ts';
import { ApiError, errorBodySchema, notFound } from '../../errors.ts';
import { filePart, fileReply, handlerReadsBody, multipartBody, objectReply } from '../../reply-schemas.ts';
import { DOCX_MIME } from './generate.ts';
import { checkTemplate } from './fill.ts';
import { readStored, type TemplateStore } from './store.ts';

/** The CASL subject of template versions: admins (`manage all`) hold it; others may be given it in access.json. */
export const TEMPLATE_SUBJECT = 'DocumentTemplate';

/** The largest template accepted: a DOCX of a few pages with a logo is far smaller. */
export const MAX_TEMPLATE_BYTES = 10 * 1024 * 1024;

const versionSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    entity: { type: 'string' },
    kind: { type: 'string' },
    version: { type: 'integer' },
    name: { type: 'string' },
    size: { type: 'integer' },
    uploadedBy: { type: ['string', 'null'] },
    uploadedAt: { type: 'string' },
    active: { type: 'boolean' },
  },
} as const;

const mustManage = (actor: Actor, action: 'read' | 'manage' = 'manage'): void => {
  if (actor.id === null) throw new ApiError(401, 'errors.unauthorized');
  if (!actor.ability.can(action as never, TEMPLATE_SUBJECT as never)) throw new ApiError(403, 'errors.forbidden');
};

/**
 * The admin screen's calls: every declared kind with its versions (`GET /api/document-templates`),
 * a new version uploaded (`POST /api/document-templates/{entity}/{kind}`, one DOCX, refused with
 * the broken tag named), a version's file (`GET /api/document-templates/file/{id}`) and a version
 * turned on or off (`PUT /api/document-templates/{id}`). Needs `manage DocumentTemplate`.
 */
export function registerTemplateRoutes(
  app: FastifyInstance,
  templates: TemplateStore,
  entities: readonly EntityDefinition[],
): void {
  void app.register(async (scope) => {
    await scope.register(multipart, { throwFileSizeLimit: true });

    scope.get(
      '/api/document-templates',
      {
        schema: {
          tags: ['Documents'],
          summary: 'Every document kind the manifests declare, with its template versions (newest first)',
          querystring: { type: 'object', properties: { lang: { type: 'string' } } },
          response: {
            200: objectReply('Kinds', {
              list: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    entity: { type: 'string' },
                    entityTitleKey: { type: 'string' },
                    kind: { type: 'string' },
                    titleKey: { type: 'string' },
                    versions: { type: 'array', items: versionSchema },
                  },
                },
              },
            }),
            401: errorBodySchema,
            403: errorBodySchema,
          },
        },
      },
      async (request) => {
        mustManage(request.actor);
        const versions = await templates.list();
        return {
          list: entities.flatMap((def) =>
            def.manifest.documents!.kinds.map((k) => ({
              entity: def.id,
              entityTitleKey: def.manifest.titleKey,
              kind: k.kind,
              titleKey: k.titleKey,
              versions: versions.filter((v) => v.entity === def.id && v.kind === k.kind),
            })),
          ),
        };
      },
    );

    scope.post<{ Params: { entity: string; kind: string } }>(
      '/api/document-templates/:entity/:kind',
      {
        validatorCompiler: handlerReadsBody(),
        schema: {
          tags: ['Documents'],
          summary:
            "Uploads a DOCX as the next version of a kind's template (active at once); a file that is not a DOCX, or whose tags do not parse, is refused naming the tag",
          params: { type: 'object', properties: { entity: { type: 'string' }, kind: { type: 'string' } } },
          querystring: { type: 'object', properties: { lang: { type: 'string' } } },
          body: multipartBody({ file: filePart('The template (.docx)') }, ['file']),
          response: {
            200: versionSchema,
            400: errorBodySchema,
            401: errorBodySchema,
            403: errorBodySchema,
            404: errorBodySchema,
            413: errorBodySchema,
            415: errorBodySchema,
          },
        },
      },
      async (request) => {
        mustManage(request.actor);
        const def = entities.find((d) => d.id === request.params.entity);
        if (!def?.manifest.documents!.kinds.some((k) => k.kind === request.params.kind)) throw notFound();
        if (!request.isMultipart()) throw new ApiError(415, 'errors.unsupportedType');
        let content: Buffer;
        let name: string;
        try {
          const part = await request.file({ limits: { fileSize: MAX_TEMPLATE_BYTES, files: 1 } });
          if (!part) throw new ApiError(400, 'errors.noFiles');
          content = await part.toBuffer();
          name = part.filename || `${request.params.kind}.docx`;
        } catch (error) {
          if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
            throw new ApiError(413, 'errors.tooLarge', { params: { limit: '10 MB' } });
          throw error;
        }
        checkTemplate(content);
        return templates.add(def.id, request.params.kind, name, content, request.actor.id);
      },
    );

    scope.get<{ Params: { id: number } }>(
      '/api/document-templates/file/:id',
      {
        schema: {
          tags: ['Documents'],
          summary: "A template version's DOCX (older versions stay downloadable)",
          params: { type: 'object', properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } } },
          response: { 200: fileReply('The DOCX, as an attachment'), 403: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request, reply) => {
        mustManage(request.actor);
        const version = await templates.get(request.params.id);
        const bytes = version && (await readStored(app.fileStorage, version.fileId));
        if (!version || !bytes) throw notFound();
        return reply
          .header('content-type', DOCX_MIME)
          .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(version.name)}`)
          .send(bytes);
      },
    );

    scope.put<{ Params: { id: number }; Body: { active: boolean } }>(
      '/api/document-templates/:id',
      {
        schema: {
          tags: ['Documents'],
          summary: 'Turns a template version on or off (generation uses the newest active version)',
          params: { type: 'object', properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } } },
          body: {
            type: 'object',
            required: ['active'],
            additionalProperties: false,
            properties: { active: { type: 'boolean' } },
          },
          response: { 200: versionSchema, 403: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request) => {
        mustManage(request.actor);
        const version = await templates.setActive(request.params.id, request.body.active);
        if (!version) throw notFound();
        return version;
      },
    );
  });
}
