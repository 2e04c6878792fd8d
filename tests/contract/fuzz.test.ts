/**
 * Fuzz test generated from the OpenAPI document (issue #14): every documented route × every
 * path and query parameter, top-level body field and multipart field gets the hostile values
 * of tests/support/hostile-values.ts, the other fields valid (sample records of the
 * definitions, existing ids), as the signed-in admin and — on routes a visitor may call —
 * anonymously. Asserted, on PGlite and PostgreSQL: no 5xx, no error-level log line (nor a
 * value that only the database refused: the error handler's backstop), and no
 * write by a refused (4xx) request (a trigger-based write log, tests/support/write-detector.ts).
 *
 * Left out: the live socket's GET entry (`/gs-guide-websocket`: a WebSocket, fuzzed by the
 * STOMP tests, its HTTP side takes no input). Destructive routes are included: deletes aim
 * at an id that does not exist, sign-out is sent without the admin's token, and passwords
 * are set on a user made for the test — so the admin's session lives through the run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { Writable } from 'node:stream';
import { writeFileSync } from 'node:fs';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';
import { createSampler } from '../support/sample-data.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { createWriteDetector } from '../support/write-detector.ts';
import { hostileRequests, validRequest, type FuzzContext, type OpenApiDoc } from '../support/fuzz-plan.ts';
import { validValue, type DocSchema } from '../support/hostile-values.ts';
import type { EntityDefinition } from '../../src/definitions/registry.ts';
import { STOMP_PATH } from '../../src/server/services/stomp.ts';

/** Routes not fuzzed, with the reason. */
const SKIPPED: Record<string, string> = {
  [`GET ${STOMP_PATH}`]: 'the live socket (WebSocket); its HTTP entry takes no input',
};
/** Routes never sent with the admin's token: signing out would end the session the run uses. */
const ANONYMOUS_ONLY = new Set(['POST /api/logout']);
const FUZZ_PASSWORD = 'Fuzz-password-2026!qx';

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`hostile values on every route (${backend.name})`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    // Error lines, and the error handler's warnings that the database refused a value the
    // input gate let through (its backstop must not be what keeps a route from a 500).
    const logged: string[] = [];
    beforeAll(async () => {
      const stream = new Writable({
        write(chunk: Buffer, _enc, done) {
          const line = JSON.parse(chunk.toString()) as {
            level: number;
            msg: string;
            url?: string;
            err?: { message?: string };
          };
          if (line.level >= 50 || line.msg === 'input refused by the database')
            logged.push(`${line.level} ${line.msg} ${line.url ?? ''}: ${line.err?.message ?? ''}`.slice(0, 500));
          done();
        },
      });
      // The integration platform's agencies answer from the sandbox (else a valid query is a 503: not connected).
      ({ app, close } = await startTestApp(backend.name, {
        logger: { level: 'warn', stream },
        integrationSandbox: true,
      }));
    });
    afterAll(async () => close?.());

    it('answers no 5xx, logs no error and writes nothing when it refuses', async () => {
      const defs = [...app.definitions.entities.values()];
      const ajv = createServerAjv();
      const samplers = new Map(defs.map((def) => [def.id, createSampler(def.schema, app.definitions.references, ajv)]));
      let seed = 1;
      const sample = (entity: string) => samplers.get(entity)!(seed++, { full: true });
      const bases = defs
        .map((def) => ({ base: `/api${def.manifest.base}`, def }))
        .sort((a, b) => b.base.length - a.base.length);
      const entityOf = (path: string): EntityDefinition | undefined =>
        bases.find((b) => path.startsWith(`${b.base}/`))?.def;

      // One record (and draft) per entity to aim at, its version followed through the run.
      const records = new Map<
        string,
        { id: number; version: number; update: Record<string, unknown>; event?: string }
      >();
      const drafts = new Map<string, string>();
      for (const def of defs) {
        const base = `/api${def.manifest.base}`;
        const input = sample(def.id);
        const res = await app.inject({ method: 'POST', url: `${base}/create`, payload: input });
        if (res.statusCode !== 200) continue;
        const record = res.json() as { id: number; version: number };
        const events = def.manifest.workflow
          ? await app.inject({ method: 'GET', url: `${base}/events/${record.id}` })
          : undefined;
        records.set(def.id, {
          id: record.id,
          version: record.version,
          update: input,
          event: events?.json().events?.[0]?.type,
        });
        if (def.manifest.drafts)
          drafts.set(def.id, (await app.inject({ method: 'POST', url: `${base}/draft`, payload: {} })).json().id);
      }
      expect([...records.keys()]).toEqual(defs.map((d) => d.id));
      const access = app.definitions.access!;
      const photoDef = defs.find((d) => d.manifest.photo?.route);
      const uploadDef = defs.find((d) => d.manifest.publicSubmit) ?? defs[0]!;
      const submitDef = (path: string) =>
        defs.find((d) => d.manifest.publicSubmit && `/api${d.manifest.publicSubmit.path}` === path);

      const ctx: FuzzContext = {
        pathValue(path, _method, name, schema) {
          const def = entityOf(path);
          if (name === 'id' && def) {
            if (path.endsWith('/delete/{id}')) return '999999999';
            if (path.includes('/draft/')) return drafts.get(def.id) ?? String(validValue(schema));
            return String(records.get(def.id)?.id ?? 1);
          }
          if (name === 'id' && path.startsWith('/api/file-entity/save/') && photoDef)
            return String(records.get(photoDef.id)?.id ?? 1);
          if (name === 'kind')
            return path.startsWith('/api/reference/') ? [...app.definitions.references.keys()][0]! : uploadDef.id;
          if (name === 'route') return photoDef?.manifest.photo?.route ?? 'photo';
          if (name === 'code') return [...app.definitions.openData.keys()][0] ?? 'none';
          if (name === 'format') return 'json';
          return encodeURIComponent(String(validValue(schema)));
        },
        jsonBody(path) {
          const def = entityOf(path);
          const record = def && records.get(def.id);
          const base = def && `/api${def.manifest.base}`;
          if (def && path === `${base}/create`) return sample(def.id);
          if (record && path === `${base}/update/{id}`) return { ...record.update, version: record.version };
          if (record && path === `${base}/transition/{id}`)
            return { event: record.event ?? 'NONE', version: record.version };
          if (def && (path === `${base}/draft` || path === `${base}/draft/{id}`)) return record?.update;
          if (path === '/api/auth-payload') return { username: 'fuzz-nobody', password: 'not-the-password' };
          if (path === '/api/auth/set-password')
            return { userId: records.get(access.userEntity)?.id ?? 999999, password: FUZZ_PASSWORD };
          if (path === '/api/auth/change-password')
            return { oldPassword: 'not-the-password', newPassword: FUZZ_PASSWORD };
          return undefined;
        },
        jsonField: (path, name) => {
          const def = submitDef(path);
          return def && name === 'data' ? (records.get(def.id)?.update ?? sample(def.id)) : undefined;
        },
        jsonFieldSchema: (path) => (submitDef(path)?.schema.properties ?? {}) as Record<string, DocSchema>,
      };

      const writes = await createWriteDetector(app.db);
      const doc = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json() as OpenApiDoc;
      const problems: string[] = [];
      const counts = { requests: 0, refused: 0, accepted: 0, anonymous: 0, routes: 0 };
      let address = 0;
      let mark = await writes.mark();

      /** Sends one request from its own address (per-address limits never answer first) and checks it. */
      const send = async (route: string, what: string, options: InjectOptions, anonymous: boolean) => {
        address++;
        const headers = {
          ...(options.headers as Record<string, string> | undefined),
          'accept-language': 'en',
          ...(anonymous ? { authorization: '' } : {}),
        };
        const res = await app.inject({
          ...options,
          headers,
          remoteAddress: `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
        });
        counts.requests++;
        if (anonymous) counts.anonymous++;
        const after = await writes.mark();
        if (res.statusCode >= 500)
          problems.push(
            `${res.statusCode} ${route} ${what}${anonymous ? ' (anonymous)' : ''}: ${res.body.slice(0, 200)}`,
          );
        else if (res.statusCode >= 400) {
          counts.refused++;
          const written = after > mark ? await writes.writesSince(mark) : [];
          if (written.length)
            problems.push(
              `refused ${res.statusCode} yet wrote ${written.join(', ')}: ${route} ${what}${anonymous ? ' (anonymous)' : ''}`,
            );
        } else counts.accepted++;
        mark = after;
        return res;
      };
      /** Keeps the record's version current after an accepted update or transition (or a stale one). */
      const follow = async (path: string, status: number, body: string) => {
        const def = entityOf(path);
        const record = def && records.get(def.id);
        if (!record || !/\/(update|transition)\/\{id\}$/.test(path)) return;
        if (status === 200) record.version = (JSON.parse(body) as { version?: number }).version ?? record.version;
        else if (status === 409)
          record.version =
            (await app.inject({ method: 'GET', url: `/api${def.manifest.base}/get/${record.id}` })).json().version ??
            record.version;
      };

      const started = Date.now();
      for (const [path, operations] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(operations)) {
          const route = `${method.toUpperCase()} ${path}`;
          if (SKIPPED[route]) continue;
          counts.routes++;
          // A visitor's attempts too, where a visitor gets past sign-in with the valid request.
          const probe = await send(route, 'the valid request', validRequest(path, method, op, ctx), true);
          const anonymousToo = ANONYMOUS_ONLY.has(route) || ![401, 403].includes(probe.statusCode);
          for (const request of hostileRequests(path, method, op, ctx)) {
            const what = `${request.target} = ${request.label}`;
            if (!ANONYMOUS_ONLY.has(route)) {
              const res = await send(route, what, request.options, false);
              await follow(path, res.statusCode, res.body);
            }
            if (anonymousToo) await send(route, what, request.options, true);
          }
        }
      }
      const seconds = Math.round((Date.now() - started) / 1000);
      console.log(
        `fuzz: ${counts.requests} requests on ${backend.name} (${counts.routes} routes, ${counts.anonymous} anonymous; ${counts.refused} refused, ${counts.accepted} accepted) in ${seconds} s`,
      );
      // FUZZ_DUMP=<file> keeps every problem, not only the first ones the assertion shows.
      if (process.env.FUZZ_DUMP) writeFileSync(process.env.FUZZ_DUMP, [...problems, ...logged].join('\n'));
      expect(problems.slice(0, 50), `${problems.length} problems`).toEqual([]);
      expect(logged.slice(0, 20), `${logged.length} log lines`).toEqual([]);
      expect(counts.requests).toBeGreaterThan(10_000);
    }, 1_800_000);
  });
}
