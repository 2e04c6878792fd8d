/**
 * The integration platform (issue #21) through the sandbox upstream, on both databases: every
 * method of schemas/_integrations answers each of its fixture cases through POST
 * /api/integrations/<agency>/<method> (the sandbox speaks HTTP, as an agency would); a
 * personal-data call without a purpose is refused and one with it is audited with its
 * parameters masked; a role outside a method's roles gets 403 (and the refusal is audited);
 * auditors search and export the audit, which refuses UPDATE and DELETE; rate limits answer 429.
 * The circuit breaker (PGlite): it opens after failures, refuses at once without reaching the
 * agency, and closes after the agency recovers; a slow agency times out; an agency without a
 * URL or sandbox is "not connected".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { createCaller, createStaffUser, startTestApp } from '../support/app.ts';
import type { IntegrationMethod } from '../../src/generated/meta.ts';

type Caller = ReturnType<typeof createCaller>;
const PURPOSE = 'Checking the applicant of appeal 14-05/123';

/** Every method with its agency, from the app's own registry. */
function methodsOf(app: FastifyInstance): Array<{ agency: string; method: IntegrationMethod }> {
  return [...app.definitions.integrations].flatMap(([agency, def]) =>
    [...def.methods.values()].map((method) => ({ agency, method })),
  );
}

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`integration platform on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let admin: Caller;
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name, { integrationSandbox: true }));
      admin = createCaller(app);
    }, 120_000);
    afterAll(async () => close?.());

    it('answers every fixture case of every method through the sandbox, and 404 → nothing found', async () => {
      const methods = methodsOf(app);
      expect(methods.length).toBeGreaterThan(0);
      for (const { agency, method } of methods) {
        const cases = app.definitions.integrations.get(agency)!.fixtures.get(method.id)!.cases;
        for (const c of cases) {
          const res = await admin('POST', `/api/integrations/${agency}/${method.id}`, {
            params: c.params,
            ...(method.personalData ? { purpose: PURPOSE } : {}),
          });
          expect({
            at: `${agency}/${method.id}`,
            status: res.status,
            found: res.body.found,
            sandbox: res.body.sandbox,
          }).toEqual({
            at: `${agency}/${method.id}`,
            status: 200,
            found: true,
            sandbox: true,
          });
          expect(res.body.result).toEqual(c.body);
        }
      }
      const none = await admin('POST', '/api/integrations/soliq/yuridik-info', { params: { inn: '399999999' } });
      expect(none.status).toBe(200);
      expect(none.body).toMatchObject({ found: false, result: null });
    });

    it('lists the agencies with their methods in the reader language, titles taken from `titles`', async () => {
      const res = await app.inject({ method: 'GET', url: '/api/integrations', headers: { 'accept-language': 'ru' } });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.sandbox).toBe(true);
      const soliq = body.agencies.find((a: { id: string }) => a.id === 'soliq');
      expect(soliq).toMatchObject({ title: 'Налоговый комитет', status: 'sandbox', breaker: 'closed' });
      const method = soliq.methods.find((m: { id: string }) => m.id === 'yuridik-info');
      expect(method.title).toBe('Сведения о юридическом лице (по ИНН)');
      expect(method.params.properties.inn).toEqual({ type: 'string', format: 'stir', title: 'ИНН' });
      expect(body.agencies.length).toBe(app.definitions.integrations.size);
    });

    it('refuses bad parameters at their field and changes nothing; a second call comes from the cache', async () => {
      const bad = await admin('POST', '/api/integrations/soliq/yuridik-info', { params: { inn: '12', extra: 1 } });
      expect(bad.status).toBe(400);
      expect(bad.body.fieldErrors).toEqual({
        '/params/inn': 'Enter a real tax ID (9 digits)',
        '/params/extra': 'This field is not allowed',
      });
      const first = await admin('POST', '/api/integrations/soliq/yuridik-info', { params: { inn: '301234567' } });
      const second = await admin('POST', '/api/integrations/soliq/yuridik-info', { params: { inn: '301234567' } });
      expect(second.body).toMatchObject({ found: true, cached: true });
      expect(second.body.result).toEqual(first.body.result);
      // A query by any of several fields needs one of them; a barcode is needed without an MXIK code.
      const none = await admin('POST', '/api/integrations/davlat-active/get-info-by-inn', {
        params: {},
        purpose: PURPOSE,
      });
      expect(none.body.fieldErrors).toEqual({ '/params': 'Fill in at least one of these fields' });
      const langOnly = await admin('POST', '/api/integrations/soliq/get-info', { params: { lang: 'ru' } });
      expect(langOnly.body.fieldErrors).toEqual({ '/params/international_code': 'Mandatory field' });
      const unknown = await admin('POST', '/api/integrations/soliq/no-such-method', { params: {} });
      expect(unknown.status).toBe(404);
    });

    it('asks a purpose of a personal-data call, audits it masked, and lets auditors search and export it', async () => {
      const personal = methodsOf(app).find((m) => m.method.personalData);
      expect(personal, 'a personal-data method exists').toBeDefined();
      const { agency, method } = personal!;
      const params = app.definitions.integrations.get(agency)!.fixtures.get(method.id)!.cases[0]!.params;
      const url = `/api/integrations/${agency}/${method.id}`;
      const missing = await admin('POST', url, { params });
      expect(missing.status).toBe(400);
      expect(Object.keys(missing.body.fieldErrors)).toEqual(['/purpose']);
      const short = await admin('POST', url, { params, purpose: 'check' });
      expect(short.body.fieldErrors['/purpose']).toBe('Describe the purpose in at least 10 characters');
      const ok = await admin('POST', url, { params, purpose: PURPOSE });
      expect(ok.status).toBe(200);
      expect(ok.body.cached).toBe(false);

      const auditor = await createStaffUser(app, `auditor-${backend.name}`, ['auditor'], 14);
      const search = await auditor.call('POST', '/api/integrations/audit/list-search', {
        agency,
        method: method.id,
        page: 0,
        size: 10,
      });
      expect(search.status).toBe(200);
      const row = search.body.list.find((r: { id: number }) => r.id === ok.body.callId);
      expect(row).toMatchObject({
        userName: 'admin',
        personalData: true,
        purpose: PURPOSE,
        outcome: 'ok',
        cached: false,
      });
      for (const [name, value] of Object.entries(params)) {
        const text = String(value);
        expect(row.params[name]).not.toBe(text);
        if (text.length > 4)
          expect(row.params[name]).toBe(`${text.slice(0, 2)}${'•'.repeat(text.length - 4)}${text.slice(-2)}`);
      }
      // Nothing in the audit holds the answer.
      expect(JSON.stringify(search.body)).not.toContain(JSON.stringify(ok.body.result).slice(1, 30));

      const exported = await app.inject({
        method: 'GET',
        url: `/api/integrations/audit/export.xlsx?agency=${agency}&personalData=true`,
        headers: { authorization: `Bearer ${auditor.token}`, 'accept-language': 'en' },
      });
      expect(exported.statusCode).toBe(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(exported.rawPayload as never);
      const sheet = book.worksheets[0]!;
      expect(sheet.getRow(1).getCell(7).value).toBe('Purpose');
      const purposes = [];
      for (let r = 2; r <= sheet.rowCount; r++) purposes.push(sheet.getRow(r).getCell(7).value);
      expect(purposes).toContain(PURPOSE);

      // Auditors read the audit but query nothing; staff without `audit Integration` cannot read it.
      expect((await auditor.call('GET', '/api/integrations')).status).toBe(403);
      const clerk = await createStaffUser(app, `clerk-${backend.name}`, ['employee'], 14);
      expect((await clerk.call('POST', '/api/integrations/audit/list-search', {})).status).toBe(403);
    });

    it('gives 403 to a role outside the method roles and audits the refusal; the catalogue shows only what one may call', async () => {
      const curator = await createStaffUser(app, `curator-${backend.name}`, ['curator'], 14);
      expect((await curator.call('GET', '/api/integrations')).status).toBe(403);
      expect(
        (await curator.call('POST', '/api/integrations/soliq/yuridik-info', { params: { inn: '301234567' } })).status,
      ).toBe(403);
      const outside = methodsOf(app).find((m) => !m.method.roles.includes('employee'));
      const employee = await createStaffUser(app, `employee-${backend.name}`, ['employee'], 14);
      const catalogue = await employee.call('GET', '/api/integrations');
      const listed = catalogue.body.agencies.flatMap((a: { id: string; methods: Array<{ id: string }> }) =>
        a.methods.map((m) => `${a.id}/${m.id}`),
      );
      expect(listed.sort()).toEqual(
        methodsOf(app)
          .filter((m) => m.method.roles.includes('employee'))
          .map((m) => `${m.agency}/${m.method.id}`)
          .sort(),
      );
      if (outside) {
        const params = app.definitions.integrations.get(outside.agency)!.fixtures.get(outside.method.id)!
          .cases[0]!.params;
        const refused = await employee.call('POST', `/api/integrations/${outside.agency}/${outside.method.id}`, {
          params,
          purpose: PURPOSE,
        });
        expect(refused.status).toBe(403);
        const audit = await admin('POST', '/api/integrations/audit/list-search', {
          outcome: 'refused',
          user: `employee-${backend.name}`,
        });
        expect(audit.body.list[0]).toMatchObject({
          agency: outside.agency,
          method: outside.method.id,
          httpStatus: 403,
        });
      }
      expect(
        (await app.inject({ method: 'GET', url: '/api/integrations', headers: { authorization: '' } })).statusCode,
      ).toBe(401);
    });

    it('fills the contractor registry from the tax committee when a STIR lookup finds nothing (remoteSource)', async () => {
      const clerk = await createStaffUser(app, `stir-${backend.name}`, ['employee'], 14);
      const before = await clerk.call('POST', '/api/contractor/list-search?stir=207654321', {});
      expect(before.status).toBe(200);
      expect(before.body.total).toBe(1);
      expect(before.body.list[0]).toMatchObject({
        stir: '207654321',
        name: '"SAMARQAND NON" AJ',
        ownershipForm: 'STATE',
        regionId: 9,
      });
      const audit = await admin('POST', '/api/integrations/audit/list-search', {
        agency: 'soliq',
        method: 'inner-or-from-soliq',
      });
      expect(audit.body.list[0]).toMatchObject({
        userName: 'system',
        purpose: `contractor lookup by stir-${backend.name}`,
        outcome: 'ok',
      });
      // The next lookup is the registry's own: the agency is not asked again.
      const hits = app.integrationSandbox!.hits('soliq');
      expect((await clerk.call('POST', '/api/contractor/list-search?stir=207654321', {})).body.total).toBe(1);
      expect(app.integrationSandbox!.hits('soliq')).toBe(hits);
      // A STIR the tax committee does not know: nothing stored, an empty answer.
      expect((await clerk.call('POST', '/api/contractor/list-search?stir=399999998', {})).body.total).toBe(0);
    });

    it('keeps the audit append-only and limits a user to the method’s calls a minute', async () => {
      await expect(app.db.query('UPDATE integration_call SET purpose = $1', ['changed'])).rejects.toThrow(
        /append-only/,
      );
      await expect(app.db.query('DELETE FROM integration_call')).rejects.toThrow(/append-only/);
      const limited = await createStaffUser(app, `busy-${backend.name}`, ['jurist'], 14);
      const perMinute = app.definitions.integrations.get('soliq')!.methods.get('yuridik-info')!.perUserPerMinute ?? 30;
      const statuses = [];
      for (let i = 0; i <= perMinute; i++)
        statuses.push(
          (await limited.call('POST', '/api/integrations/soliq/yuridik-info', { params: { inn: '301234567' } })).status,
        );
      expect(statuses.slice(0, perMinute).every((s) => s === 200)).toBe(true);
      expect(statuses.at(-1)).toBe(429);
    });
  });
}

describe('integration platform resilience (PGlite)', () => {
  let app: FastifyInstance;
  let close: () => Promise<void>;
  let admin: Caller;
  beforeAll(async () => {
    ({ app, close } = await startTestApp('pglite', {
      integrationSandbox: true,
      integrationOverrides: { halfOpenAfterMs: 300, retryDelayMs: 1, timeoutMs: 300 },
    }));
    admin = createCaller(app);
  }, 120_000);
  afterAll(async () => close?.());

  const breaker = async () =>
    (await admin('GET', '/api/integrations/health')).body.list.find((a: { agency: string }) => a.agency === 'soliq');
  // Each call asks another STIR, so no answer comes from the cache.
  let n = 0;
  const ask = () =>
    admin('POST', '/api/integrations/soliq/yuridik-info', { params: { inn: `3${String(++n).padStart(8, '0')}` } });

  it('opens the circuit after failures, refuses without reaching the agency, and closes after recovery', async () => {
    const sandbox = app.integrationSandbox!;
    const failures = app.definitions.integrations.get('soliq')!.agency.breaker?.failures ?? 5;
    sandbox.setFault('soliq', { status: 500 });
    const statuses: number[] = [];
    while ((await breaker()).breaker === 'closed' && statuses.length < failures) statuses.push((await ask()).status);
    expect(statuses.every((s) => s === 503)).toBe(true);
    expect((await breaker()).breaker).toBe('open');
    const health = await breaker();
    expect(health.failures).toBeGreaterThanOrEqual(failures);
    expect(health.errorRate).toBeGreaterThan(0);
    const hits = sandbox.hits('soliq');
    const refused = await ask();
    expect(refused.status).toBe(503);
    expect(refused.body.message).toContain('Tax Committee is not answering');
    expect(sandbox.hits('soliq')).toBe(hits);

    sandbox.setFault('soliq', null);
    await new Promise((r) => setTimeout(r, 400));
    const recovered = await ask();
    expect(recovered.status).toBe(200);
    expect((await breaker()).breaker).toBe('closed');
    const audit = await admin('POST', '/api/integrations/audit/list-search', {
      agency: 'soliq',
      outcome: 'unavailable',
    });
    expect(audit.body.total).toBeGreaterThan(0);
  });

  it('counts a slow agency as failed after its timeout, and retries an idempotent call once', async () => {
    const sandbox = app.integrationSandbox!;
    sandbox.setFault('soliq', { delayMs: 1000 });
    const hits = sandbox.hits('soliq');
    const slow = await ask();
    sandbox.setFault('soliq', null);
    expect(slow.status).toBe(503);
    expect(slow.body.message).toBe('Tax Committee did not answer. Try again later');
    expect(sandbox.hits('soliq') - hits).toBe(1 + (app.definitions.integrations.get('soliq')!.agency.retries ?? 1));
  });
});

describe('integration platform without upstreams', () => {
  it('shows every agency as not connected and answers 503 in plain words', async () => {
    const { app, close } = await startTestApp('pglite');
    try {
      const admin = createCaller(app);
      const list = await admin('GET', '/api/integrations');
      expect(list.body.sandbox).toBe(false);
      expect(new Set(list.body.agencies.map((a: { status: string }) => a.status))).toEqual(new Set(['notConnected']));
      const res = await admin('POST', '/api/integrations/soliq/yuridik-info', { params: { inn: '301234567' } });
      expect(res.status).toBe(503);
      expect(res.body.message).toBe('This agency is not connected to the portal yet');
    } finally {
      await close();
    }
  }, 120_000);
});
