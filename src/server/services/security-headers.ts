import fp from 'fastify-plugin';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import type { OutgoingHttpHeaders } from 'node:http';
import path from 'node:path';
import {
  contentSecurityPolicy,
  PERMISSIONS_POLICY,
  PUBLIC_REFERENCE_MAX_AGE,
  readScriptHashes,
  STRICT_TRANSPORT_SECURITY,
} from '../security/policy.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * This API route answers public reference data: the same for every signed-out caller (at
     * most per language), no personal data — reference lists, the open-data catalogue, the
     * API document. Its replies to signed-out callers may be cached; every other API reply is
     * `no-store`.
     */
    publicReference?: boolean;
  }
}

const isApi = (url: string): boolean => /^\/api(?:[/?]|$)/.test(url);

/**
 * The headers helmet sets with `options`, as it sets them on a reply. They depend on the
 * options alone (no nonces, no per-route settings), so they are asked of helmet once, through
 * a throwaway instance, and then only copied onto each reply: @fastify/helmet would build its
 * whole middleware again (and parse the CSP directives) for every request.
 */
async function helmetHeaders(options: FastifyHelmetOptions): Promise<Array<[string, string]>> {
  const probe = Fastify();
  try {
    await probe.register(helmet, options);
    // In the handler the raw reply holds what the onRequest hooks set, and nothing of Fastify's yet.
    probe.get('/', (_request, reply) => reply.raw.getHeaders());
    const headers = (await probe.inject('/')).json<OutgoingHttpHeaders>();
    return Object.entries(headers).map(([name, value]) => [name, String(value)]);
  } finally {
    await probe.close();
  }
}

/** Adds names to the reply's Vary header, keeping what is there. */
function vary(reply: FastifyReply, ...names: string[]): void {
  const current = String(reply.getHeader('vary') ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  const missing = names.filter((n) => !current.some((c) => c.toLowerCase() === n.toLowerCase()));
  if (missing.length) reply.header('vary', [...current, ...missing].join(', '));
}

/** Whether the reply may be kept by a cache: public reference data, answered to a signed-out caller. */
function isPublicReference(request: FastifyRequest, reply: FastifyReply): boolean {
  return request.routeOptions.config?.publicReference === true && request.actor.id === null && reply.statusCode === 200;
}

/**
 * The browser security headers on every reply (docs/security.md "Security headers"), through helmet:
 * a Content-Security-Policy whose only inline scripts are the built pages' own, by hash
 * (src/server/security/policy.ts), no framing, nosniff, a strict referrer policy, a
 * Permissions-Policy, a cross-origin opener policy, HSTS when the request came over TLS
 * (directly, or per a trusted proxy's X-Forwarded-Proto: TRUST_PROXY). Every API reply is
 * `Cache-Control: no-store` — tokens, personal data, errors — except public reference data
 * for signed-out callers (`config: { publicReference: true }`).
 */
export default fp(
  async (app) => {
    const scriptHashes = readScriptHashes(path.join(app.config.root, 'dist/web'));
    const headers = await helmetHeaders({
      contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(scriptHashes) },
      crossOriginOpenerPolicy: { policy: 'same-origin' },
      crossOriginResourcePolicy: { policy: 'same-origin' },
      // Would block nothing of ours but is not needed: no SharedArrayBuffer, no cross-origin isolation.
      crossOriginEmbedderPolicy: false,
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      // Sent below, only over TLS: over plain HTTP browsers ignore it, and a portal reached by
      // address on an internal network must not be told to insist on TLS it does not have.
      strictTransportSecurity: false,
    });
    headers.push(['permissions-policy', PERMISSIONS_POLICY]);

    // Not async: a hook that awaits nothing need not cost a promise on every request.
    app.addHook('onRequest', (request, reply, done) => {
      // On the raw reply, as helmet sets them: they stay on whatever answers the request.
      for (const [name, value] of headers) reply.raw.setHeader(name, value);
      // request.protocol believes X-Forwarded-Proto only from a trusted proxy (TRUST_PROXY).
      if (request.protocol === 'https') reply.header('strict-transport-security', STRICT_TRANSPORT_SECURITY);
      done();
    });

    app.addHook('onSend', (request, reply, payload, done) => {
      if (!isApi(request.url)) return done(null, payload);
      if (isPublicReference(request, reply)) {
        if (!reply.hasHeader('cache-control'))
          reply.header('cache-control', `public, max-age=${PUBLIC_REFERENCE_MAX_AGE}`);
        // The language comes from ?lang= (in the URL), X-Locale or Accept-Language; a signed-in
        // caller's reply is no-store, so a cache must not answer one with a visitor's.
        vary(reply, 'Accept-Language', 'X-Locale', 'Authorization');
      } else {
        reply.header('cache-control', 'no-store');
      }
      done(null, payload);
    });
  },
  { name: 'security-headers', dependencies: ['http'] },
);
