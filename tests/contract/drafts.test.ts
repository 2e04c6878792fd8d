import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { backends } from '../support/databases.ts';
import { createCaller, startTestApp } from '../support/app.ts';
import { createSampler } from '../support/sample-data.ts';
import { brokenTypes, requiredPointers, withField } from '../support/records.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const withDrafts = [...registry.entities.values()].filter((d) => d.manifest.drafts);

for (const backend of backends()) {
  describe.skipIf(!backend.available || !withDrafts.length)(`drafts on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
    });
    afterAll(async () => close?.());
    const call = (...args: Parameters<ReturnType<typeof createCaller>>) => createCaller(app)(...args);

    for (const def of withDrafts) {
      const base = `/api${def.manifest.base}`;
      const sample = createSampler(def.schema, registry.references, createServerAjv());
      it(`${def.id}: keeps partial input, refuses bad values, resumes by link and submits only when complete`, async () => {
        const full = sample(31, { full: true });
        const [firstRequired] = requiredPointers(def.schema, full);
        const partial = withField(full, firstRequired!);
        const saved = await call('POST', `${base}/draft`, partial);
        expect(saved.status).toBe(200);
        expect(saved.body.data).toEqual(partial);

        const broken = brokenTypes(def.schema)[0]!;
        const bad = await call(
          'PUT',
          `${base}/draft/${saved.body.id}`,
          withField(partial, broken.pointer, broken.value),
        );
        expect(bad.status).toBe(400);
        expect(Object.keys(bad.body.fieldErrors)).toContain(broken.pointer);
        expect((await call('GET', `${base}/draft/${saved.body.id}`)).body.data).toEqual(partial);

        const early = await call('POST', `${base}/draft/${saved.body.id}/submit`);
        expect(early.status).toBe(400);
        expect(early.body.fieldErrors[firstRequired!]).toBe('Mandatory field');

        expect((await call('PUT', `${base}/draft/${saved.body.id}`, full)).status).toBe(200);
        const submitted = await call('POST', `${base}/draft/${saved.body.id}/submit`);
        expect(submitted.status).toBe(200);
        expect((await call('GET', `${base}/get/${submitted.body.id}`)).status).toBe(200);
        expect((await call('GET', `${base}/draft/${saved.body.id}`)).status).toBe(404);
        expect((await call('GET', `${base}/draft/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
      });
    }
  });
}
