/**
 * The pharmacy desk (issue #19 item 4), on both databases, one app each:
 *  - the desk's lists are status slices of the pharmacy appeals: each list screen's fixedFilters,
 *    sent to list-search as the browser sends them, answer exactly the appeals in those states,
 *    and a regional employee sees only their region's;
 *  - the pharmacy registry: create, read, update, list; POST /api/pharm/confirm-pharmacy {mNumber}
 *    confirms the pharmacy found by its licence number (who and when stamped), an unknown number
 *    is a 404 with a plain message, a second confirmation changes nothing, a pharmacy of another
 *    region is not found by a regional employee, and a role without CONFIRM is refused;
 *  - an appeal may link to a registry pharmacy and keeps its own pharmacy fields;
 *  - SMS templates: finishing an appeal sends the stored template filled from the appeal (outbox
 *    row naming the appeal, delivered by the local SMS gateway stand-in, status sent); an inactive
 *    template falls back to the machine's i18n text; a placeholder the entity lacks is refused on
 *    save, naming the text and the placeholder;
 *  - the sent-SMS log (GET /api/outbox/pharmacy-appeal?channel=sms): masked recipient, text,
 *    template, the appeal, delivery status and attempts, filtered by status and day, and scoped
 *    as the appeals are (a regional employee sees their region's SMS only; outer users 403).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';
import { createStaff } from '../support/stomp.ts';
import { createSampler } from '../support/sample-data.ts';
import { withField } from '../support/records.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { startSmsGateway, waitFor } from '../support/mailboxes.ts';
import { DEFAULT_LOCALE } from '../../src/shared/locales.ts';

const APPEALS = '/api/pharm-appeal';
const PHARMACIES = '/api/pharmacy';
const CONFIRM = '/api/pharm/confirm-pharmacy';
const TEMPLATES = '/api/sms-template';
const REGION = 2;
const OTHER_REGION = 3;

// biome-ignore lint/suspicious/noExplicitAny: replies are read as plain JSON here
type Row = Record<string, any> & { id: number; version: number; status: string };

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`the pharmacy desk on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let adminId: number;
    let regional: { id: string; token: string };
    let reader: { id: string; token: string };
    let sample: (entity: string, seed: number) => Record<string, unknown>;
    let sms: Awaited<ReturnType<typeof startSmsGateway>>;

    beforeAll(async () => {
      sms = await startSmsGateway();
      ({ app, close, adminId } = await startTestApp(backend.name, { smsGatewayUrl: sms.url }));
      const ajv = createServerAjv();
      sample = (entity, seed) =>
        createSampler(
          app.definitions.entities.get(entity)!.schema,
          app.definitions.references,
          ajv,
        )(seed, {
          full: true,
        });
      regional = await createStaff(app, 'regional1', ['employee'], { regionId: REGION });
      reader = await createStaff(app, 'curator1', ['curator'], { regionId: REGION });
    }, 120_000);
    afterAll(async () => {
      await close?.();
      await sms?.close();
    });

    const as = async (
      who: { token: string } | null,
      method: 'GET' | 'POST' | 'PUT',
      url: string,
      payload?: unknown,
    ): Promise<{ status: number; body: Record<string, any> }> => {
      const res = await app.inject({
        method,
        url,
        payload: payload as never,
        headers: { 'accept-language': 'en', ...(who ? { authorization: `Bearer ${who.token}` } : {}) },
      });
      return { status: res.statusCode, body: res.json() };
    };
    const ok = async (p: Promise<{ status: number; body: Record<string, any> }>): Promise<Row> => {
      const res = await p;
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as Row;
    };
    const step = (id: number, version: number, event: string, payload?: Record<string, unknown>) =>
      ok(as(null, 'POST', `${APPEALS}/transition/${id}`, { event, version, ...(payload ? { payload } : {}) }));
    /** An appeal of `region` moved along the machine to `to`. */
    const appealIn = async (seed: number, region: number, to: string): Promise<Row> => {
      let data = withField(sample('pharmacy-appeal', seed), '/regionId', region);
      delete data.districtId;
      data = withField(data, '/consumer/phone', '+99890-123-45-67');
      let row = await ok(as(null, 'POST', `${APPEALS}/create`, data));
      const path: Array<[string, string, Record<string, unknown>?]> = [
        ['SEND_TO_REGION', 'ASSIGN_TO_REGION'],
        ['BEING_SEEN', 'CONFIRM'],
        ['PROCCESS', 'ASSIGN_EXECUTOR', { executorId: adminId }],
        ['FINISHED', 'FINISH'],
      ];
      for (const [state, event, payload] of path) {
        if (row.status === to) break;
        row = await step(row.id, row.version, event, payload);
        expect(row.status).toBe(state);
      }
      return row;
    };
    const deskQuery = (screen: string) =>
      new URLSearchParams(app.definitions.screens.get(screen)!.options!.fixedFilters as Record<string, string>);
    const listIds = async (who: { token: string } | null, query: URLSearchParams) =>
      (await ok(as(who, 'POST', `${APPEALS}/list-search?${query}`, { page: 0, itemsPerPage: 100 }))).list.map(
        (r: Row) => r.id,
      ) as number[];

    it('lists the received, in-execution and finished appeals by their states, a region its own', async () => {
      const created = await appealIn(1, REGION, 'CREATED');
      const seen = await appealIn(2, REGION, 'BEING_SEEN');
      const working = await appealIn(3, REGION, 'PROCCESS');
      const finished = await appealIn(4, REGION, 'FINISHED');
      const elsewhere = await appealIn(5, OTHER_REGION, 'PROCCESS');
      const received = await listIds(null, deskQuery('pharmacy-desk-received'));
      const execution = await listIds(null, deskQuery('pharmacy-desk-in-execution'));
      const done = await listIds(null, deskQuery('pharmacy-desk-finished'));
      expect(received).toEqual(expect.arrayContaining([created.id, seen.id]));
      expect(received).not.toContain(working.id);
      expect(execution).toEqual(expect.arrayContaining([working.id, elsewhere.id]));
      expect(execution).not.toEqual(expect.arrayContaining([created.id]));
      expect(done).toEqual([finished.id]);
      // The status filter narrows a slice further (the spec's "in progress" within "in execution").
      const narrowed = deskQuery('pharmacy-desk-in-execution');
      narrowed.set('statusId', 'TIME_EXTENDED');
      expect(await listIds(null, narrowed)).toEqual([]);
      // A regional employee: the same slice, their region only.
      const mine = await listIds(regional, deskQuery('pharmacy-desk-in-execution'));
      expect(mine).toContain(working.id);
      expect(mine).not.toContain(elsewhere.id);
    });

    it('keeps a registry of pharmacies and confirms one by its licence number, once', async () => {
      const data = {
        ...sample('pharmacy', 7),
        name: 'Dorixona Shifo',
        stir: '301234567',
        mNumber: 'L-2026-0001',
        regionId: REGION,
      };
      delete (data as Record<string, unknown>).districtId;
      for (const f of ['confirmed', 'confirmedBy', 'confirmedAt']) delete (data as Record<string, unknown>)[f];
      const created = await ok(as(regional, 'POST', `${PHARMACIES}/create`, data));
      expect(created.status).toBe('UNCONFIRMED');
      const read = await ok(as(reader, 'GET', `${PHARMACIES}/get/${created.id}`));
      expect(read.name).toBe('Dorixona Shifo');
      const updated = await ok(
        as(regional, 'PUT', `${PHARMACIES}/update/${created.id}`, { ...read, address: 'Tashkent, Chilonzor 1' }),
      );
      expect(updated.address).toBe('Tashkent, Chilonzor 1');
      // The confirmation is CONFIRM's to write, not a form's.
      const forged = await as(regional, 'PUT', `${PHARMACIES}/update/${created.id}`, { ...updated, confirmed: true });
      expect(forged.status).toBe(403);
      const found = await ok(as(reader, 'POST', `${PHARMACIES}/list-search?mNumber=L-2026-0001`, { page: 0 }));
      expect(found.list.map((r: Row) => r.id)).toEqual([created.id]);

      const missing = await as(regional, 'POST', CONFIRM, { mNumber: 'L-0000-NONE' });
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe('No pharmacy with the licence number L-0000-NONE was found.');
      const refused = await as(reader, 'POST', CONFIRM, { mNumber: 'L-2026-0001' });
      expect(refused.status).toBe(403);
      const blank = await as(regional, 'POST', CONFIRM, {});
      expect(blank.status).toBe(400);

      const confirmed = await ok(as(regional, 'POST', CONFIRM, { mNumber: ' L-2026-0001 ' }));
      expect(confirmed).toMatchObject({ id: created.id, status: 'CONFIRMED', confirmed: true });
      expect(String(confirmed.confirmedBy)).toBe(regional.id);
      expect(typeof confirmed.confirmedAt).toBe('string');
      const again = await ok(as(regional, 'POST', CONFIRM, { mNumber: 'L-2026-0001' }));
      expect(again).toMatchObject({ version: confirmed.version, confirmedAt: confirmed.confirmedAt });
      const history = await ok(as(null, 'GET', `${PHARMACIES}/history/${created.id}`));
      expect(history.list.map((h: { event: string }) => h.event)).toEqual(['CONFIRM']);

      // A pharmacy of another region is not the regional employee's to find.
      const far = await ok(
        as(null, 'POST', `${PHARMACIES}/create`, { ...data, mNumber: 'L-2026-0002', regionId: OTHER_REGION }),
      );
      expect((await as(regional, 'POST', CONFIRM, { mNumber: 'L-2026-0002' })).status).toBe(404);
      expect((await ok(as(null, 'POST', CONFIRM, { mNumber: 'L-2026-0002' }))).id).toBe(far.id);
    });

    it('links an appeal to a registry pharmacy, keeping its own pharmacy fields', async () => {
      const pharmacy = await ok(
        as(null, 'POST', `${PHARMACIES}/create`, {
          name: 'Apteka 36.6',
          stir: '302345678',
          mNumber: 'L-2026-0003',
          regionId: REGION,
        }),
      );
      const data = { ...withField(sample('pharmacy-appeal', 9), '/pharmacyId', pharmacy.id) };
      const appeal = await ok(as(null, 'POST', `${APPEALS}/create`, data));
      expect(appeal.pharmacyId).toBe(pharmacy.id);
      expect(appeal.pharmacy).toEqual(data.pharmacy);
      const dangling = await as(null, 'POST', `${APPEALS}/create`, withField(data, '/pharmacyId', 99_999));
      expect(dangling.status).toBe(400);
    });
    const outboxOf = async (recordId: number) =>
      (
        await app.db.query<{
          template_key: string;
          body: string;
          recipient: string;
          status: string;
          entity: string;
          attempts: number;
        }>(
          `SELECT template_key, body, recipient, status, entity, attempts FROM outbox
           WHERE channel = 'sms' AND entity = 'pharmacy-appeal' AND record_id = $1 ORDER BY id`,
          [recordId],
        )
      ).rows;
    const templateRow = async () =>
      (await ok(as(null, 'POST', `${TEMPLATES}/list-search?code=pharmacy-appeal-finished`, { page: 0 })))
        .list[0] as Row;

    it('sends the stored SMS template filled from the appeal when it is finished, and logs its delivery', async () => {
      const finished = await appealIn(11, REGION, 'FINISHED');
      const [row] = await outboxOf(finished.id);
      const template = await templateRow();
      const status = app.translator.t(DEFAULT_LOCALE, 'workflow.pharmacy-appeal.states.FINISHED');
      const expected = String(template.text[DEFAULT_LOCALE])
        .replace('{{consumer.firstName}}', String(finished.consumer.firstName))
        .replace('{{pharmacy.name}}', String(finished.pharmacy.name))
        .replace('{{number}}', String(finished.number))
        .replace('{{status}}', status);
      expect(row).toMatchObject({
        template_key: 'pharmacy-appeal-finished',
        recipient: '998901234567',
        body: expected,
      });
      expect(expected).not.toContain('{{');
      await waitFor(() => sms.received.find((m) => m.text === expected));
      await waitFor(async () => ((await outboxOf(finished.id))[0]?.status === 'sent' ? true : undefined));
    });

    it('falls back to the i18n text while the template is inactive', async () => {
      const template = await templateRow();
      const off = await ok(as(null, 'PUT', `${TEMPLATES}/update/${template.id}`, { ...template, active: false }));
      const finished = await appealIn(12, REGION, 'FINISHED');
      const [row] = await outboxOf(finished.id);
      expect(row!.template_key).toBe('workflow.notice.pharmacyAppealFinished');
      expect(row!.body).toBe(
        app.translator.t(DEFAULT_LOCALE, 'workflow.notice.pharmacyAppealFinished.text', {
          id: finished.id,
          label: finished.number,
          status: app.translator.t(DEFAULT_LOCALE, 'workflow.pharmacy-appeal.states.FINISHED'),
          event: app.translator.t(DEFAULT_LOCALE, 'workflow.pharmacy-appeal.events.FINISH'),
        }),
      );
      await ok(as(null, 'PUT', `${TEMPLATES}/update/${off.id}`, { ...off, active: true }));
    });

    it('refuses a template whose placeholder is not a field of its entity, and lists the names', async () => {
      const template = await templateRow();
      const bad = { ...template, text: { ...template.text, ru: 'Обращение {{number}}: {{consumer.nickname}}' } };
      const refused = await as(null, 'PUT', `${TEMPLATES}/update/${template.id}`, bad);
      expect(refused.status).toBe(400);
      expect(refused.body.fieldErrors['/text/ru']).toMatch(/«consumer\.nickname»/);
      expect((await templateRow()).version).toBe(template.version);
      const created = await as(null, 'POST', `${TEMPLATES}/create`, {
        code: 'pharmacy-appeal-court',
        entity: 'pharmacy-appeal',
        active: true,
        text: {
          uz: '{{medication.name}}',
          uzCyrillic: '{{medication.name}}',
          ru: '{{medication.name}}',
          en: '{{label}} {{x}}',
        },
      });
      expect(created.status).toBe(400);
      expect(Object.keys(created.body.fieldErrors)).toEqual(['/text/en']);
      const names = await ok(as(null, 'GET', `${TEMPLATES}/placeholders?entity=pharmacy-appeal`));
      expect(names.list).toEqual(expect.arrayContaining(['number', 'consumer.firstName', 'medication.name', 'status']));
      expect(names.list).not.toContain('pharmacyFiles');
    });
    it('logs the SMS sent about appeals, masked, filtered by status and day, within the reader’s scope', async () => {
      const mine = await appealIn(21, REGION, 'FINISHED');
      const far = await appealIn(22, OTHER_REGION, 'FINISHED');
      await waitFor(async () =>
        (await outboxOf(far.id))[0]?.status === 'sent' && (await outboxOf(mine.id))[0]?.status === 'sent'
          ? true
          : undefined,
      );
      const LOG = '/api/outbox/pharmacy-appeal?channel=sms';
      const all = await ok(as(null, 'GET', `${LOG}&itemsPerPage=100`));
      const entry = all.list.find((e: Row) => e.recordId === mine.id);
      expect(entry).toMatchObject({
        recipient: '+998 90 *** ** 67',
        template: 'pharmacy-appeal-finished',
        status: 'sent',
        attempts: 1,
        lastError: null,
        recordLabel: mine.number,
      });
      expect(entry.text).toContain(String(mine.number));
      expect(JSON.stringify(all)).not.toContain('998901234567');
      expect(all.list.map((e: Row) => e.recordId)).toContain(far.id);

      const regionalLog = await ok(as(regional, 'GET', `${LOG}&itemsPerPage=100`));
      const seen = regionalLog.list.map((e: Row) => e.recordId);
      expect(seen).toContain(mine.id);
      expect(seen).not.toContain(far.id);
      expect(regionalLog.total).toBe(regionalLog.list.length);

      const pending = await ok(as(null, 'GET', `${LOG}&status=pending`));
      expect(pending.list.map((e: Row) => e.recordId)).not.toContain(mine.id);
      const sent = await ok(as(null, 'GET', `${LOG}&status=sent&itemsPerPage=100`));
      expect(sent.list.map((e: Row) => e.recordId)).toContain(mine.id);
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tashkent' }).format(new Date());
      const onDay = await ok(as(null, 'GET', `${LOG}&from=${today}&to=${today}&itemsPerPage=100`));
      expect(onDay.list.map((e: Row) => e.recordId)).toContain(mine.id);
      const longAgo = await ok(as(null, 'GET', `${LOG}&from=2020-01-01&to=2020-01-31`));
      expect(longAgo).toEqual({ list: [], total: 0 });

      const outer = await createStaff(app, 'owner1', ['business', 'pharmacy-owner'], { isOuter: true });
      expect((await as(outer, 'GET', LOG)).status).toBe(403);
      expect((await app.inject({ method: 'GET', url: LOG, headers: { authorization: '' } })).statusCode).toBe(401);
      expect((await as(null, 'GET', '/api/outbox/no-such-entity?channel=sms')).status).toBe(404);
    });
  });
}
