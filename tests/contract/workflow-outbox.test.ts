/**
 * The transition outbox: a transition's `notify` entries (workflows/*.machine.json) become
 * outbox rows in the transition's own transaction, and the outbox worker delivers them with
 * retries. On both backends, with real local servers (an SMS gateway, a stand-in for the
 * state-service system), no mocks:
 *  - the rows are there exactly when the status change is: a refused transition writes none,
 *    and a transition whose write fails after its notices were queued leaves none behind;
 *  - texts are in the recipient's language (the record's locale, else the default);
 *  - a system message (FOR_*_DXA) reaches the state service as JSON, and is retried after
 *    the service failed; without a URL for the system it stays `undeliverable`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { REPO_ROOT } from '../../src/server/app.ts';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { tableName } from '../../src/server/db/entity-table.ts';
import { backends } from '../support/databases.ts';
import { createCaller, startTestApp } from '../support/app.ts';
import { createSampler } from '../support/sample-data.ts';
import { startSmsGateway, waitFor } from '../support/mailboxes.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const ajv = createServerAjv();
const sampleOf = (entity: string) => createSampler(registry.entities.get(entity)!.schema, registry.references, ajv);
const sampleAppeal = sampleOf('appeal');
const samplePassport = sampleOf('advertising-passport');

/** A local HTTP server standing in for the state-service system: keeps what it is sent; answers 500 while `failures` > 0. */
async function startStateService() {
  const received: Array<{ headers: IncomingHttpHeaders; body: Record<string, unknown> }> = [];
  const state = { failures: 0, attempts: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.attempts += 1;
      if (state.failures > 0) {
        state.failures -= 1;
        res.writeHead(500).end('temporarily down');
        return;
      }
      received.push({
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
      });
      res.writeHead(202, { 'content-type': 'application/json' }).end('{"accepted":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/decisions`,
    received,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface OutboxRow {
  id: number;
  channel: string;
  recipient: string;
  template_key: string;
  locale: string;
  subject: string;
  body: string;
  status: string;
  attempts: number;
  last_error: string | null;
}
const outboxSince = async (app: FastifyInstance, after: number): Promise<OutboxRow[]> =>
  (
    await app.db.query<OutboxRow>(
      'SELECT id::int AS id, channel, recipient, template_key, locale, subject, body, status, attempts, last_error FROM outbox WHERE id > $1 ORDER BY id',
      [after],
    )
  ).rows;
const lastOutboxId = async (app: FastifyInstance): Promise<number> =>
  (await app.db.query<{ id: number }>('SELECT coalesce(max(id), 0)::int AS id FROM outbox')).rows[0]!.id;

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`transition notices on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let call: ReturnType<typeof createCaller>;
    let stateService: Awaited<ReturnType<typeof startStateService>>;
    let sms: Awaited<ReturnType<typeof startSmsGateway>>;
    beforeAll(async () => {
      stateService = await startStateService();
      sms = await startSmsGateway();
      ({ app, close } = await startTestApp(backend.name, {
        systemUrls: { 'state-service': stateService.url },
        smsGatewayUrl: sms.url,
        clock: () => new Date('2026-04-01T09:00:00Z'),
      }));
      call = createCaller(app);
    });
    afterAll(async () => {
      await close?.();
      await stateService?.close();
      await sms?.close();
    });

    const newAppeal = async (seed: number, contact: Record<string, unknown>) => {
      const data = { ...sampleAppeal(seed, { full: true }), ...contact };
      for (const k of Object.keys(contact)) if (contact[k] === undefined) delete data[k];
      const created = await call('POST', '/api/appeal/create', data);
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      return created.body as { id: number; version: number };
    };

    it("names the state entered in the notice by the machine's label (one label per state)", async () => {
      const appeal = await newAppeal(12, { phone: '+99890-123-45-68', email: undefined, locale: 'ru' });
      let version = appeal.version;
      for (const event of ['TAKE_FOR_REVIEW', 'MARK_SEEN']) {
        const step = await call('POST', `/api/appeal/transition/${appeal.id}`, { event, version });
        expect(step.status, JSON.stringify(step.body)).toBe(200);
        version = (step.body as { version: number }).version;
      }
      const before = await lastOutboxId(app);
      const answered = await call('POST', `/api/appeal/transition/${appeal.id}`, { event: 'TAKE_MEASURES', version });
      expect(answered.status, JSON.stringify(answered.body)).toBe(200);
      const [sms] = await outboxSince(app, before);
      const label = app.translator.t('ru', 'workflow.appeal.states.MEASURES_TAKEN');
      expect(sms!.template_key).toBe('workflow.notice.appealAnswered');
      expect(sms!.body).toBe(
        app.translator.t('ru', 'workflow.notice.appealAnswered.text', { id: appeal.id, status: label }),
      );
      expect(sms!.body).toContain(label);
    });

    it('writes the notices with the transition, in the recipient language; a refused transition writes none', async () => {
      const appeal = await newAppeal(11, { phone: '+99890-123-45-67', email: 'citizen@example.uz', locale: 'ru' });
      const before = await lastOutboxId(app);
      // Not allowed in CREATED: 409, and no notice.
      const refused = await call('POST', `/api/appeal/transition/${appeal.id}`, {
        event: 'TAKE_MEASURES',
        version: appeal.version,
      });
      expect(refused.status).toBe(409);
      expect(await outboxSince(app, before)).toEqual([]);

      const taken = await call('POST', `/api/appeal/transition/${appeal.id}`, {
        event: 'TAKE_FOR_REVIEW',
        version: appeal.version,
      });
      expect(taken.status, JSON.stringify(taken.body)).toBe(200);
      const rows = await outboxSince(app, before);
      expect(rows.map((r) => [r.channel, r.recipient, r.locale, r.template_key])).toEqual([
        ['sms', '998901234567', 'ru', 'workflow.notice.appealAccepted'],
        ['email', 'citizen@example.uz', 'ru', 'workflow.notice.appealAccepted'],
      ]);
      const params = { id: appeal.id, deadline: '2026-04-16' };
      expect(rows[0]!.body).toBe(app.translator.t('ru', 'workflow.notice.appealAccepted.text', params));
      expect(rows[1]!.subject).toBe(app.translator.t('ru', 'workflow.notice.appealAccepted.subject', params));
      expect(rows[0]!.body).toContain(`№ ${appeal.id}`);
      expect(rows[0]!.body).toContain('2026-04-16');
      // The SMS reaches the gateway (no SMTP configured: the e-mail waits as undeliverable).
      const delivered = await waitFor(() =>
        sms.received.find((m) => m.to === '998901234567' && m.text === rows[0]!.body),
      );
      expect(delivered.text).toMatch(/принято/);
      expect(rows[1]!.status).toBe('undeliverable');
    });

    it('takes the filer’s language when the record names none, else the default; no contact, no notice', async () => {
      // Filed in Russian without a locale: the record keeps the filer's language (the manifest's localeField).
      const data: Record<string, unknown> = { ...sampleAppeal(15, { full: true }), phone: '+99890-765-43-21' };
      delete data.locale;
      delete data.email;
      const filed = await app.inject({
        method: 'POST',
        url: '/api/appeal/create',
        payload: data,
        headers: { 'accept-language': 'ru-RU,ru;q=0.9' },
      });
      expect(filed.statusCode, filed.body).toBe(200);
      expect(filed.json().locale).toBe('ru');
      const first = await lastOutboxId(app);
      expect(
        (
          await call('POST', `/api/appeal/transition/${filed.json().id}`, {
            event: 'TAKE_FOR_REVIEW',
            version: filed.json().version,
          })
        ).status,
      ).toBe(200);
      expect((await outboxSince(app, first)).map((r) => [r.recipient, r.locale])).toEqual([['998907654321', 'ru']]);

      // A record with no language (one stored before, or cleared): the default language.
      const created = await newAppeal(12, { phone: '+99891-222-33-44', email: undefined, locale: 'uz' });
      const cleared = { ...(await call('GET', `/api/appeal/get/${created.id}`)).body };
      for (const f of ['id', 'status', 'owner', 'createdAt', 'updatedAt', 'locale']) delete cleared[f];
      const updated = await call('PUT', `/api/appeal/update/${created.id}`, cleared);
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
      expect(updated.body.locale).toBeUndefined();
      const plain = { id: created.id, version: updated.body.version as number };
      const english = await newAppeal(13, { phone: '+99894-888-77-66', email: 'someone@example.uz', locale: 'en' });
      const before = await lastOutboxId(app);
      for (const a of [plain, english])
        expect(
          (await call('POST', `/api/appeal/transition/${a.id}`, { event: 'TAKE_FOR_REVIEW', version: a.version }))
            .status,
        ).toBe(200);
      const rows = await outboxSince(app, before);
      // The first has no e-mail address: no e-mail notice.
      expect(rows.map((r) => [r.channel, r.recipient, r.locale])).toEqual([
        ['sms', '998912223344', 'uzCyrillic'],
        ['sms', '998948887766', 'en'],
        ['email', 'someone@example.uz', 'en'],
      ]);
      expect(rows[0]!.body).toBe(
        app.translator.t('uzCyrillic', 'workflow.notice.appealAccepted.text', { id: plain.id, deadline: '2026-04-16' }),
      );
      expect(rows[0]!.body).toContain('кўриб чиқишга қабул қилинди');
      expect(rows[2]!.body).toBe(
        `Your appeal No. ${english.id} has been taken for review by the Committee. The answer is due by 2026-04-16.`,
      );
    });

    it('leaves no notice behind when the transition fails after queueing it (one transaction)', async () => {
      const appeal = await newAppeal(14, { phone: '+99893-555-66-77', email: undefined, locale: 'uz' });
      const table = tableName('appeal');
      // A failure at the very last write of the transition (the status update), after the notices were queued.
      await app.db.query(`CREATE OR REPLACE FUNCTION test_refuse_review() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.status = 'UNDER_REVIEW' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$`);
      await app.db.query(
        `CREATE TRIGGER test_refuse_review BEFORE UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION test_refuse_review()`,
      );
      const before = await lastOutboxId(app);
      try {
        const res = await call('POST', `/api/appeal/transition/${appeal.id}`, {
          event: 'TAKE_FOR_REVIEW',
          version: appeal.version,
        });
        expect(res.status).toBe(500);
      } finally {
        await app.db.query(`DROP TRIGGER test_refuse_review ON ${table}`);
      }
      expect(await outboxSince(app, before)).toEqual([]);
      expect((await call('GET', `/api/appeal/history/${appeal.id}`)).body.list).toEqual([]);
      // Without the failure the same transition queues its notice.
      expect(
        (
          await call('POST', `/api/appeal/transition/${appeal.id}`, {
            event: 'TAKE_FOR_REVIEW',
            version: appeal.version,
          })
        ).status,
      ).toBe(200);
      expect((await outboxSince(app, before)).map((r) => [r.recipient, r.locale])).toEqual([['998935556677', 'uz']]);
    });

    it('sends the decision request to the state service as JSON, retrying after a failure', async () => {
      const created = await call('POST', '/api/advertising-passport/create', {
        ...samplePassport(21, { full: true }),
        ownerPhone: '+99897-111-22-33',
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const seen = await call('POST', `/api/advertising-passport/transition/${created.body.id}`, {
        event: 'MARK_SEEN',
        version: created.body.version,
      });
      expect(seen.status).toBe(200);
      stateService.state.failures = 1;
      const attemptsBefore = stateService.state.attempts;
      const before = await lastOutboxId(app);
      const approved = await call('POST', `/api/advertising-passport/transition/${created.body.id}`, {
        event: 'APPROVE',
        version: seen.body.version,
      });
      expect(approved.status).toBe(200);
      const rows = await outboxSince(app, before);
      expect(rows.map((r) => [r.channel, r.recipient, r.template_key])).toEqual([
        ['sms', '998971112233', 'workflow.notice.advertisingPassportApproved'],
        ['system', 'state-service', 'FOR_ACCEPTED_DXA'],
      ]);
      const system = rows[1]!;
      // The first delivery fails (500): the row stays pending with the error, for a later retry.
      const failed = await waitFor(async () => {
        const row = (await outboxSince(app, system.id - 1))[0]!;
        return row.attempts === 1 ? row : undefined;
      });
      expect(failed.status).toBe('pending');
      expect(failed.last_error).toMatch(/state-service answered 500/);
      expect(stateService.state.attempts).toBe(attemptsBefore + 1);
      expect(stateService.received).toEqual([]);
      // The retry is due after its wait; make it due now instead of sleeping.
      await app.db.query('UPDATE outbox SET next_attempt_at = now() WHERE id = $1', [system.id]);
      await app.notify.worker.runOnce();
      const sent = (await outboxSince(app, system.id - 1))[0]!;
      expect(sent).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
      expect(stateService.received).toHaveLength(1);
      const message = stateService.received[0]!;
      expect(message.headers['x-message-type']).toBe('FOR_ACCEPTED_DXA');
      expect(message.body).toMatchObject({
        type: 'FOR_ACCEPTED_DXA',
        entity: 'advertising-passport',
        recordId: created.body.id,
        event: 'APPROVE',
        from: 'SEEN',
        status: 'APPROVED',
      });
      expect((message.body.record as Record<string, unknown>).ownerPhone).toBe('+99897-111-22-33');
    });
  });

  describe.skipIf(!backend.available)(`transition notices without a state-service URL on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
    });
    afterAll(async () => close?.());

    it('keeps the system message queued as undeliverable, with the rejection grounds in the SMS', async () => {
      const call = createCaller(app);
      const created = await call('POST', '/api/advertising-passport/create', {
        ...samplePassport(31, { full: true }),
        ownerPhone: '+99899-000-11-22',
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const seen = await call('POST', `/api/advertising-passport/transition/${created.body.id}`, {
        event: 'MARK_SEEN',
        version: created.body.version,
      });
      const before = await lastOutboxId(app);
      const rejected = await call('POST', `/api/advertising-passport/transition/${created.body.id}`, {
        event: 'REJECT',
        version: seen.body.version,
        payload: { grounds: 'The site is within a protected zone' },
      });
      expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
      const rows = await outboxSince(app, before);
      expect(rows.map((r) => [r.channel, r.template_key, r.status])).toEqual([
        ['sms', 'workflow.notice.advertisingPassportRejected', 'undeliverable'],
        ['system', 'FOR_REJECTED_DXA', 'undeliverable'],
      ]);
      expect(rows[0]!.body).toContain('The site is within a protected zone');
      expect(JSON.parse(rows[1]!.body)).toMatchObject({
        type: 'FOR_REJECTED_DXA',
        status: 'REJECTED',
        payload: { grounds: 'The site is within a protected zone' },
      });
      await app.notify.worker.runOnce();
      expect((await outboxSince(app, before)).map((r) => r.status)).toEqual(['undeliverable', 'undeliverable']);
    });
  });
}
