import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp, type BuildAppOptions } from '../../src/server/app.ts';
import { createTestDatabase } from './databases.ts';
import { pgliteImage } from './pglite-image.ts';
import { postgresTemplate } from './postgres-template.ts';
import { systemActor } from '../../src/server/auth/access.ts';
import { ApiError } from '../../src/server/errors.ts';
import { withServerOwnedFrom } from '../../src/server/store/server-owned.ts';

/** The `admin` password of test apps (a real one is ADMIN_PASSWORD or printed once). */
export const TEST_ADMIN_PASSWORD = 'test-admin-password';

/** Signs in through the API and returns the reply (token, refreshToken, id, permissions…). */
export async function signIn(
  app: FastifyInstance,
  username = 'admin',
  password = TEST_ADMIN_PASSWORD,
): Promise<{ token: string; refreshToken: string; id: number; permissions: string[] }> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth-payload',
    payload: { username, password },
    headers: { authorization: '' },
  });
  if (res.statusCode !== 200) throw new Error(`sign-in of ${username} failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

/**
 * The token with its signature's first character changed. Changing the last characters is
 * not a forgery: the last base64url character of a signature carries only 2 bits and lenient
 * decoders ignore the rest, so `…xx` decodes to the same bytes about once in 256 tokens.
 */
export function forgedToken(token: string): string {
  const dot = token.lastIndexOf('.') + 1;
  return `${token.slice(0, dot)}${token[dot] === 'A' ? 'B' : 'A'}${token.slice(dot + 1)}`;
}

/**
 * Makes every `app.inject` carry the admin's bearer token unless the call sets its own
 * `authorization` header (an empty one means: as an anonymous visitor).
 */
function injectAsAdmin(app: FastifyInstance, token: string): void {
  const inject = app.inject.bind(app) as (opts: InjectOptions) => ReturnType<FastifyInstance['inject']>;
  (app as unknown as { inject: (opts: InjectOptions) => unknown }).inject = (opts: InjectOptions) => {
    const headers = { ...(opts.headers ?? {}) } as Record<string, string>;
    if (!('authorization' in headers)) headers.authorization = `Bearer ${token}`;
    if (headers.authorization === '') delete headers.authorization;
    return inject({ ...opts, headers });
  };
}

/**
 * An app on PGlite (in memory) or on a fresh database of the test PostgreSQL cluster, signed in as admin.
 * PGlite starts from the run's migrated image (tests/support/pglite-image.ts), PostgreSQL from
 * the run's migrated template database (tests/support/postgres-template.ts), unless the test
 * brings definitions of its own (`root`).
 */
export async function startTestApp(
  backend: 'pglite' | 'postgres',
  options: BuildAppOptions = {},
): Promise<{ app: FastifyInstance; adminId: number; close(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-test-'));
  // The run's migrated template (tests/support/postgres-template.ts), unless the test brings its own definitions.
  const database =
    backend === 'postgres' ? await createTestDatabase(options.root ? undefined : await postgresTemplate()) : undefined;
  const app = await buildApp({
    dataDir,
    inMemory: backend === 'pglite',
    databaseUrl: database?.url,
    adminPassword: TEST_ADMIN_PASSWORD,
    pgliteImage: backend === 'pglite' && !options.root ? await pgliteImage() : undefined,
    ...options,
  });
  await app.ready();
  const session = await signIn(app);
  injectAsAdmin(app, session.token);
  return {
    app,
    adminId: session.id,
    async close() {
      await app.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `app.inject` as a test reads it: status and parsed body, in English. */
export function createCaller(app: FastifyInstance) {
  return async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
    const res = await app.inject({ method, url, payload: payload as never, headers: { 'accept-language': 'en' } });
    return { status: res.statusCode, body: res.json() as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
}

/** The password {@link createStaffUser} gives its users. */
export const STAFF_PASSWORD = 'Str0ng-enough-passw0rd!';

/**
 * The record of a test user who can sign in: a staff user of `roles`, or what `extra` changes
 * (`isOuter`, `regionId`…), as POST /api/portal-user/create takes it.
 * @example await api(admin, 'POST', '/api/portal-user/create', userRecord('e2e-head', ['department-head'], { regionId: 6 }))
 */
export function userRecord(username: string, roles: readonly string[], extra: Record<string, unknown> = {}) {
  return { username, firstName: 'Test', lastName: username, isOuter: false, canLogin: true, roles, ...extra };
}

/**
 * Creates a staff user with `roles` in `regionId` (through the admin API), sets a password and
 * signs them in. Answers their id, token and a caller that sends their token (English replies).
 *
 * @example const clerk = await createStaffUser(app, 'clerk', ['registrar'], 3); await clerk.call('GET', '/api/my-work')
 */
export async function createStaffUser(app: FastifyInstance, username: string, roles: string[], regionId: number) {
  const admin = createCaller(app);
  const created = await admin('POST', '/api/portal-user/create', userRecord(username, roles, { regionId }));
  if (created.status !== 200) throw new Error(`user ${username}: ${created.status} ${JSON.stringify(created.body)}`);
  const password = await admin('POST', '/api/auth/set-password', { userId: created.body.id, password: STAFF_PASSWORD });
  if (password.status !== 200) throw new Error(`password of ${username}: ${password.status}`);
  const { token } = await signIn(app, username, STAFF_PASSWORD);
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
    const res = await app.inject({
      method,
      url,
      payload: payload as never,
      headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
    });
    return { status: res.statusCode, body: res.json() as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  return { id: Number(created.body.id), token, call };
}

/**
 * Creates `count` records through the API, ten at a time. Generated values of unique fields
 * (short codes) can clash; such a record is drawn again with another seed.
 */
export async function createRecords(
  app: FastifyInstance,
  base: string,
  count: number,
  make: (seed: number) => Record<string, unknown>,
  firstSeed: number,
): Promise<Array<Record<string, unknown> & { id: number }>> {
  const one = async (seed: number): Promise<Record<string, unknown> & { id: number }> => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const res = await app.inject({
        method: 'POST',
        url: `${base}/create`,
        payload: make(seed + attempt * 1_000_003),
        headers: { 'accept-language': 'en' },
      });
      if (res.statusCode === 200) return res.json();
      const clash =
        res.statusCode === 400 &&
        Object.values((res.json() as { fieldErrors?: Record<string, string> }).fieldErrors ?? {}).some((m) =>
          m.endsWith('already registered'),
        );
      if (!clash) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
    }
    throw new Error('create kept clashing on unique fields');
  };
  return tenAtATime(count, firstSeed, one);
}

/**
 * Creates `count` records of `entity` as its create route does — the same store call on the
 * same input (server-owned fields dropped): validated, computed, numbered and audited — but
 * without HTTP and sign-in, by the system, ten at a time: what a test that needs hundreds of
 * rows to search, sort or export spends most of its time on otherwise. A drawn record whose
 * unique field clashes is drawn again with another seed. Answers the records as the route
 * answers them (JSON), in the order of their seeds.
 * @example const rows = await storeRecords(app, 'appeal', 500, (seed) => sample(seed), 1000);
 */
export async function storeRecords(
  app: FastifyInstance,
  entity: string,
  count: number,
  make: (seed: number) => Record<string, unknown>,
  firstSeed: number,
): Promise<Array<Record<string, unknown> & { id: number }>> {
  const def = app.definitions.entities.get(entity);
  if (!def) throw new Error(`no entity ${entity}`);
  const actor = systemActor();
  const one = async (seed: number): Promise<Record<string, unknown> & { id: number }> => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const input = withServerOwnedFrom(def.schema, make(seed + attempt * 1_000_003)) as Record<string, unknown>;
      try {
        return JSON.parse(JSON.stringify(await app.store.create(entity, input, actor, { locale: 'en' })));
      } catch (error) {
        const clash = error instanceof ApiError && error.fieldErrors?.some((f) => f.key === 'validation.unique');
        if (!clash) throw new Error(`create ${entity} failed: ${(error as Error).message}`, { cause: error });
      }
    }
    throw new Error(`create ${entity} kept clashing on unique fields`);
  };
  return tenAtATime(count, firstSeed, one);
}

/** Runs `one` for `count` seeds from `firstSeed`, ten at a time; answers the results in seed order. */
async function tenAtATime<T>(count: number, firstSeed: number, one: (seed: number) => Promise<T>): Promise<T[]> {
  const done: T[] = [];
  for (let i = 0; i < count; i += 10)
    done.push(
      ...(await Promise.all(Array.from({ length: Math.min(10, count - i) }, (_, j) => one(firstSeed + i + j)))),
    );
  return done;
}
