import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
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
    await app.register(helmet, {
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

    app.addHook('onRequest', async (request, reply) => {
      reply.header('permissions-policy', PERMISSIONS_POLICY);
      // request.protocol believes X-Forwarded-Proto only from a trusted proxy (TRUST_PROXY).
      if (request.protocol === 'https') reply.header('strict-transport-security', STRICT_TRANSPORT_SECURITY);
    });

    app.addHook('onSend', async (request, reply, payload) => {
      if (!isApi(request.url)) return payload;
      if (isPublicReference(request, reply)) {
        if (!reply.hasHeader('cache-control'))
          reply.header('cache-control', `public, max-age=${PUBLIC_REFERENCE_MAX_AGE}`);
        // The language comes from ?lang= (in the URL), X-Locale or Accept-Language; a signed-in
        // caller's reply is no-store, so a cache must not answer one with a visitor's.
        vary(reply, 'Accept-Language', 'X-Locale', 'Authorization');
      } else {
        reply.header('cache-control', 'no-store');
      }
      return payload;
    });
  },
  { name: 'security-headers', dependencies: ['http'] },
);
