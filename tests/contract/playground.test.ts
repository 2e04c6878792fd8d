/**
 * The admin playground's check, `POST /api/playground/check`: a pasted record schema and form
 * are checked by the rules `npm run check` applies to schema.json and ui.json — each problem
 * names the file and the JSON pointer, in plain words — and only a holder of `use Playground`
 * (the admin) may ask. The check reads no table, so the databases do not matter to it; it runs
 * on each selected one all the same, like every contract test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { REPO_ROOT } from '../../src/server/app.ts';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { backends } from '../support/databases.ts';
import { createCaller, signIn, startTestApp } from '../support/app.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const userBase = `/api${registry.entities.get(registry.access!.userEntity)!.manifest.base}`;
const PASSWORD = 'correct horse battery';
/** A vacancy's own definitions pass: what the check accepts in the repository it accepts here. */
const goodSchema = (await import('../../schemas/vacancy/schema.json', { with: { type: 'json' } })).default;
const goodUi = (await import('../../schemas/vacancy/ui.json', { with: { type: 'json' } })).default;

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`the playground check on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let call: ReturnType<typeof createCaller>;
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
      call = createCaller(app);
      const res = await call('POST', `${userBase}/create`, {
        username: 'executor1',
        firstName: 'X',
        lastName: 'Executor',
        roles: ['executor'],
        regionId: 1,
        isOuter: false,
        canLogin: true,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      await call('POST', '/api/auth/set-password', { userId: res.body.id, password: PASSWORD });
    });
    afterAll(async () => close?.());

    it('passes a schema and form the repository check passes', async () => {
      const res = await call('POST', '/api/playground/check', { schema: goodSchema, ui: goodUi });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.problems).toEqual([]);
    });

    it('passes the example the screen starts with', async () => {
      const example = (await import('../../src/engine/playground/example.json', { with: { type: 'json' } })).default;
      const res = await call('POST', '/api/playground/check', example);
      expect(res.body.problems).toEqual([]);
    });

    it('names the file, the pointer and the close name of each mistake', async () => {
      const schema = structuredClone(goodSchema) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
      schema.required = [...schema.required, 'positon'];
      schema.properties.contactPhone.format = 'phonenumber';
      const ui = structuredClone(goodUi) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
      ui.uiSchema.requirements['ui:widget'] = 'textarae';
      ui.uiSchema.noSuchField = {};
      const res = await call('POST', '/api/playground/check', { schema, ui });
      expect(res.status).toBe(200);
      const said = res.body.problems.map((p: { file: string; pointer: string; message: string }) => p);
      expect(said).toContainEqual({
        file: 'schema.json',
        pointer: `/required/${schema.required.length - 1}`,
        message: expect.stringMatching(/"positon".*did you mean "position"/),
      });
      // The format is checked by the strict ajv with the portal vocabulary, as the server's.
      expect(said).toContainEqual({
        file: 'schema.json',
        pointer: '/properties/contactPhone/format',
        message: expect.stringMatching(/did you mean "phoneNumber"/),
      });
      expect(said).toContainEqual({
        file: 'ui.json',
        pointer: '/uiSchema/requirements/ui:widget',
        message: expect.stringMatching(/did you mean "textarea"/),
      });
      expect(said).toContainEqual({
        file: 'ui.json',
        pointer: '/uiSchema/noSuchField',
        message: 'field "noSuchField" does not exist in the schema',
      });
      // A schema the record meta-schema refuses is named there, as the check stops there too.
      const typo = await call('POST', '/api/playground/check', {
        schema: { ...goodSchema, properties: { ...goodSchema.properties, position: { type: 'strin', title: 'x' } } },
      });
      expect(typo.body.problems).toContainEqual({
        file: 'schema.json',
        pointer: '/properties/position/type',
        message: expect.stringMatching(/did you mean "string"/),
      });
    });

    it('names an i18n title missing from the locales, and a schema that is not a record schema at all', async () => {
      const res = await call('POST', '/api/playground/check', {
        schema: {
          ...goodSchema,
          properties: { ...goodSchema.properties, position: { type: 'string', title: 'Position' } },
        },
      });
      expect(res.body.problems).toContainEqual({
        file: 'schema.json',
        pointer: '/properties/position/title',
        message: expect.stringMatching(/^i18n key "Position" is missing in uz, uzCyrillic, ru, en \(write it in /),
      });
      const bare = await call('POST', '/api/playground/check', { schema: { type: 'object' } });
      expect(bare.body.problems.length).toBeGreaterThan(0);
      expect(bare.body.problems.every((p: { file: string }) => p.file === 'schema.json')).toBe(true);
    });

    it('refuses anyone without use Playground: 403 to staff, 401 to a visitor', async () => {
      const staff = await signIn(app, 'executor1', PASSWORD);
      const asStaff = await app.inject({
        method: 'POST',
        url: '/api/playground/check',
        payload: { schema: goodSchema },
        headers: { authorization: `Bearer ${staff.token}` },
      });
      expect(asStaff.statusCode).toBe(403);
      const asVisitor = await app.inject({
        method: 'POST',
        url: '/api/playground/check',
        payload: { schema: goodSchema },
        headers: { authorization: '' },
      });
      expect(asVisitor.statusCode).toBe(401);
    });
  });
}
