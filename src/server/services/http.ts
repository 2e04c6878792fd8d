import fp from 'fastify-plugin';
import type { FastifyError, FastifySchemaCompiler } from 'fastify';
import { pickLocale } from '../../shared/locales.ts';
import { toFieldProblems } from '../../shared/validation/field-errors.ts';
import { ApiError } from '../errors.ts';
import { createServerAjv } from '../validation.ts';
import { guestActor } from '../auth/access.ts';
import { assertNoHostileInput, guardMultipart, isDataException } from '../hostile-input.ts';
import type { Actor } from '../auth/access.ts';
import type { Locale } from '../../shared/locales.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's language: `?lang=`, X-Locale or Accept-Language. */
    locale: Locale;
    /** Who is asking: a guest until the auth service identifies the bearer token's user. */
    actor: Actor;
  }
}

const MESSAGE_LIMIT = 120;

/**
 * Request context and the error contract (DESIGN §4): every request gets a locale and an
 * actor; every error leaves as `{message, details?, fieldErrors?}` in the caller's language.
 */
export default fp(
  async (app) => {
    const bodyAjv = createServerAjv();
    const queryAjv = createServerAjv({ coerceTypes: true });
    const compiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
      (httpPart === 'body' ? bodyAjv : queryAjv).compile(schema as object) as never;
    app.setValidatorCompiler(compiler);

    const guest = guestActor(app.definitions.access);
    app.decorateRequest('locale', 'uzCyrillic');
    app.decorateRequest('actor', null as never);
    // The hooks of every request await nothing: plain callbacks, no promise per request.
    app.addHook('onRequest', (request, _reply, done) => {
      const q = request.query as Record<string, unknown> | undefined;
      request.locale = pickLocale(
        (typeof q?.lang === 'string' ? q.lang : undefined) ??
          (request.headers['x-locale'] as string | undefined) ??
          request.headers['accept-language'],
      );
      // A guest until the auth service identifies the caller by a bearer token.
      request.actor = guest;
      done();
    });

    // One gate for every route (hostile-input.ts): after schema validation, before any handler.
    app.addHook('preHandler', (request, _reply, done) => {
      // A refusal thrown here is answered as one rejected by an async hook would be.
      assertNoHostileInput(request);
      guardMultipart(request);
      done();
    });

    app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
      // A param named `<x>Key` is an i18n key (e.g. a field's title) shown translated as `<x>`.
      const t = (key: string, params: Record<string, unknown> = {}) =>
        app.translator.t(
          request.locale,
          key,
          Object.fromEntries(
            Object.entries(params).map(([k, v]) =>
              k.endsWith('Key') && typeof v === 'string'
                ? [k.slice(0, -3), app.translator.t(request.locale, v)]
                : [k, v],
            ),
          ),
        );
      if (error instanceof ApiError) {
        const fieldErrors =
          error.fieldErrors && Object.fromEntries(error.fieldErrors.map((f) => [f.pointer, t(f.key, f.params)]));
        return reply.code(error.statusCode).send({
          message: t(error.key, error.params).slice(0, MESSAGE_LIMIT),
          ...(error.details !== undefined ? { details: error.details } : {}),
          ...(fieldErrors ? { fieldErrors } : {}),
        });
      }
      if (error.validation) {
        const problems = toFieldProblems(error.validation as never);
        return reply.code(400).send({
          message: t('errors.invalidInput'),
          details: { part: error.validationContext },
          fieldErrors: Object.fromEntries(problems.map((p) => [p.pointer, t(p.key, p.params)])),
        });
      }
      if (isDataException(error)) {
        // A backstop: the input gate should have refused the value; the log names the gap.
        request.log.warn({ err: error, url: request.routeOptions.url }, 'input refused by the database');
        return reply.code(400).send({
          message: t('hostileInput.databaseRefused').slice(0, MESSAGE_LIMIT),
          details: { code: (error as { code: string }).code },
        });
      }
      const status = error.statusCode ?? 500;
      if (status >= 500) {
        request.log.error({ err: error }, 'request failed');
        return reply.code(500).send({ message: t('errors.internal') });
      }
      const key =
        {
          401: 'errors.unauthorized',
          403: 'errors.forbidden',
          404: 'errors.notFound',
          413: 'errors.requestTooLarge',
          415: 'errors.unsupportedType',
          429: 'errors.tooManyRequests',
        }[status] ?? 'errors.invalidInput';
      return reply.code(status).send({ message: t(key).slice(0, MESSAGE_LIMIT), details: { code: error.code } });
    });

    app.setNotFoundHandler((request, reply) => {
      // Client routes (history mode) get the web app; its router shows its own not-found page.
      if (
        app.webAppRoot &&
        request.method === 'GET' &&
        !request.url.startsWith('/api/') &&
        !request.url.startsWith('/assets/')
      ) {
        return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
      }
      return reply.code(404).send({ message: app.translator.t(request.locale, 'errors.notFound') });
    });
  },
  { name: 'http', dependencies: ['definitions'] },
);
