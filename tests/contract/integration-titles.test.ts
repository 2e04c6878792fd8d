/**
 * GET /api/integrations/audit/titles (PGlite): the audit page names agencies and methods by
 * title, and auditors need not be callers — every definition, in the reader's language, for
 * `audit Integration` only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createStaffUser, startTestApp } from '../support/app.ts';

describe('the audit titles of the integration platform', () => {
  let app: FastifyInstance;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ app, close } = await startTestApp('pglite'));
  }, 120_000);
  afterAll(async () => close?.());

  it('names every agency and method in the reader language for auditors, and refuses everyone else', async () => {
    const auditor = await createStaffUser(app, 'titles-auditor', ['auditor'], 14);
    const res = await app.inject({
      method: 'GET',
      url: '/api/integrations/audit/titles',
      headers: { authorization: `Bearer ${auditor.token}`, 'accept-language': 'ru' },
    });
    expect(res.statusCode).toBe(200);
    const expected = [...app.definitions.integrations].map(([id, def]) => ({
      id,
      title: def.agency.title.ru,
      methods: [...def.methods.values()].map((m) => ({ id: m.id, title: m.title.ru })),
    }));
    expect(expected.length).toBeGreaterThan(0);
    expect(res.json().agencies).toEqual(expected);

    const clerk = await createStaffUser(app, 'titles-clerk', ['employee'], 14);
    expect((await clerk.call('GET', '/api/integrations/audit/titles')).status).toBe(403);
    expect(
      (await app.inject({ method: 'GET', url: '/api/integrations/audit/titles', headers: { authorization: '' } }))
        .statusCode,
    ).toBe(401);
  });
});
