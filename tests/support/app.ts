import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.ts';
import { createTestDatabase } from './databases.ts';

/** An app on PGlite (in memory) or on a fresh database of the test PostgreSQL cluster. */
export async function startTestApp(backend: 'pglite' | 'postgres'): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-test-'));
  const database = backend === 'postgres' ? await createTestDatabase() : undefined;
  const app = await buildApp({ dataDir, inMemory: backend === 'pglite', databaseUrl: database?.url });
  await app.ready();
  return {
    app,
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
