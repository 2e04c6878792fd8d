import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { PDF, PNG, EXE } from '../support/multipart.ts';
import { appealInput, caseInput, noticeInput, REFERENCE_PATTERN, submission } from '../support/public-samples.ts';

const SEND = '/api/outer-cabinet/send-appeal';
let address = 0;
/** Every test its own client address, so the per-address limits of one do not touch another. */
const nextIp = () => `10.9.${Math.floor(++address / 250)}.${address % 250}`;

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`public services on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
    });
    afterAll(async () => close?.());

    /** A visitor without an account, from `ip`, reading answers in `lang`. */
    const send = (
      body: { payload: Buffer; headers: Record<string, string> },
      opts: { ip: string; key?: string; lang?: string },
    ) =>
      app.inject({
        method: 'POST',
        url: SEND,
        payload: body.payload,
        remoteAddress: opts.ip,
        headers: {
          ...body.headers,
          authorization: '',
          'accept-language': opts.lang ?? 'en',
          ...(opts.key ? { 'idempotency-key': opts.key } : {}),
        },
      });
    const lookup = (url: string, ip: string, lang = 'en') =>
      app.inject({ method: 'GET', url, remoteAddress: ip, headers: { authorization: '', 'accept-language': lang } });
    const count = async (sql: string, params: unknown[] = []) =>
      (await app.db.query<{ n: number }>(sql, params)).rows[0]!.n;

    describe('send-appeal', () => {
      it('takes a multipart appeal with attachments from a visitor and answers a reference number; the appeal and its files are stored', async () => {
        const res = await send(
          submission(appealInput(1), [
            { name: 'receipt.png', type: 'image/png', content: PNG },
            { name: 'photo.pdf', type: 'application/pdf', content: PDF },
          ]),
          { ip: nextIp(), key: 'key-attachments-0001' },
        );
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body.referenceNumber).toMatch(REFERENCE_PATTERN);
        const stored = await app.inject({ method: 'GET', url: `/api/appeal/get/${body.id}` });
        expect(stored.statusCode).toBe(200);
        expect(stored.json().files).toHaveLength(2);
        expect(stored.json().phone).toBe(appealInput(1).phone);
        expect(
          await count('SELECT count(*)::int AS n FROM file_entity WHERE kind = $1 AND record_id = $2', [
            'appeal',
            body.id,
          ]),
        ).toBe(2);
        const download = await app.inject({ method: 'GET', url: `/api/file-entity/get/${stored.json().files[0]}` });
        expect(download.rawPayload.equals(PNG)).toBe(true);
      });

      it('the same idempotency key makes a double submit one appeal, also when both arrive at once', async () => {
        const before = await count('SELECT count(*)::int AS n FROM e_appeal');
        const ip = nextIp();
        const first = await send(submission(appealInput(2)), { ip, key: 'double-submit-0001' });
        const again = await send(submission(appealInput(2)), { ip, key: 'double-submit-0001' });
        expect(again.json()).toEqual(first.json());
        const together = await Promise.all(
          [1, 2, 3].map(() =>
            send(submission(appealInput(3), [{ name: 'a.png', type: 'image/png', content: PNG }]), {
              ip,
              key: 'double-submit-0002',
            }),
          ),
        );
        expect(together.map((r) => r.statusCode)).toEqual([200, 200, 200]);
        expect(new Set(together.map((r) => r.json().referenceNumber)).size).toBe(1);
        expect(await count('SELECT count(*)::int AS n FROM e_appeal')).toBe(before + 2);
        // The files of the repeats were not kept.
        expect(
          await count('SELECT count(*)::int AS n FROM file_entity WHERE record_id = $1', [together[0]!.json().id]),
        ).toBe(1);
        expect(
          await count('SELECT count(*)::int AS n FROM file_entity WHERE record_id IS NULL AND kind = $1', ['appeal']),
        ).toBe(0);
      });

      it('refuses invalid input with localized field errors and stores nothing', async () => {
        const before = await count('SELECT count(*)::int AS n FROM e_appeal');
        const bad = appealInput(4, {
          phone: '12345',
          postIndex: '12',
          customer: { surname: 'Karimov', name: 'Jasur', pnfl: '123' },
        });
        delete bad.content;
        const en = await send(submission(bad, [{ name: 'a.png', type: 'image/png', content: PNG }]), { ip: nextIp() });
        expect(en.statusCode).toBe(400);
        expect(en.json().fieldErrors).toMatchObject({
          '/phone': 'Enter the phone number as +998 90-123-45-67',
          '/postIndex': 'Enter a valid post index (6 digits)',
          '/customer/pnfl': 'Enter a valid personal ID (14 digits)',
          '/content': 'Mandatory field',
        });
        const ru = await send(submission(bad), { ip: nextIp(), lang: 'ru' });
        expect(ru.statusCode).toBe(400);
        expect(ru.json().fieldErrors['/content']).not.toBe('Mandatory field');
        expect(ru.json().fieldErrors['/content']).toMatch(/[А-Яа-я]/);
        const legal = await send(submission(appealInput(5, { applicantType: 'LEGAL' })), { ip: nextIp() });
        expect(Object.keys(legal.json().fieldErrors)).toEqual(expect.arrayContaining(['/stir', '/organizationName']));
        expect((await send(submission('not an object'), { ip: nextIp() })).statusCode).toBe(400);
        expect(
          (
            await send(
              submission(appealInput(6), [{ name: 'x.exe', type: 'application/octet-stream', content: EXE }]),
              { ip: nextIp() },
            )
          ).statusCode,
        ).toBe(415);
        const six = Array.from({ length: 6 }, (_, i) => ({ name: `${i}.png`, type: 'image/png', content: PNG }));
        expect((await send(submission(appealInput(7), six), { ip: nextIp() })).statusCode).toBe(413);
        expect((await send(submission(appealInput(8)), { ip: nextIp(), key: 'bad key!' })).statusCode).toBe(400);
        expect(await count('SELECT count(*)::int AS n FROM e_appeal')).toBe(before);
        expect(
          await count('SELECT count(*)::int AS n FROM file_entity WHERE record_id IS NULL AND kind = $1', ['appeal']),
        ).toBe(0);
      });

      it('numbers submissions without gaps: a refused one uses no number, concurrent ones get consecutive numbers', async () => {
        const numberOf = (res: { json(): { referenceNumber: string } }) => Number(res.json().referenceNumber.slice(-6));
        const first = await send(submission(appealInput(60)), { ip: nextIp(), key: 'gapless-000001' });
        expect(first.statusCode, first.body).toBe(200);
        const n = numberOf(first);
        // Refused in the store, inside the submission's transaction: a field, an attachment id not uploaded.
        expect(
          (await send(submission(appealInput(61, { phone: '12345' })), { ip: nextIp(), key: 'gapless-000002' }))
            .statusCode,
        ).toBe(400);
        expect(
          (
            await send(submission(appealInput(62, { files: ['00000000-0000-4000-8000-000000000000'] })), {
              ip: nextIp(),
            })
          ).statusCode,
        ).toBe(400);
        // Refused before it: a file of a type not allowed, too many files.
        expect(
          (
            await send(
              submission(appealInput(63), [{ name: 'x.exe', type: 'application/octet-stream', content: EXE }]),
              { ip: nextIp() },
            )
          ).statusCode,
        ).toBe(415);
        const six = Array.from({ length: 6 }, (_, i) => ({ name: `${i}.png`, type: 'image/png', content: PNG }));
        expect((await send(submission(appealInput(64), six), { ip: nextIp() })).statusCode).toBe(413);
        const next = await send(submission(appealInput(65)), { ip: nextIp() });
        expect(next.statusCode, next.body).toBe(200);
        expect(numberOf(next)).toBe(n + 1);
        expect(next.json().referenceNumber).toBe(
          first.json().referenceNumber.replace(/\d{6}$/, String(n + 1).padStart(6, '0')),
        );

        const together = await Promise.all(
          [66, 67, 68, 69, 70].map((i) =>
            send(submission(appealInput(i), [{ name: 'a.png', type: 'image/png', content: PNG }]), {
              ip: nextIp(),
              key: `gapless-concurrent-${i}`,
            }),
          ),
        );
        expect(together.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
        expect(together.map(numberOf).sort((a, b) => a - b)).toEqual([n + 2, n + 3, n + 4, n + 5, n + 6]);
      });

      it('continues from the numbers already given when the counter is new to a database', async () => {
        const given = await send(submission(appealInput(71)), { ip: nextIp() });
        expect(given.statusCode).toBe(200);
        const year = given.json().referenceNumber.split('-')[1];
        // A database from before the counter: numbers came from a sequence, one of them high.
        await app.db.query(`INSERT INTO public_submission (entity, reference, ip) VALUES ('appeal', $1, '10.0.0.1')`, [
          `M-${year}-000900`,
        ]);
        await app.db.query('DROP TABLE reference_counter');
        await migrate(app.db, app.definitions, app.migrations.list());
        await migrate(app.db, app.definitions, app.migrations.list());
        const next = await send(submission(appealInput(72)), { ip: nextIp() });
        expect(next.statusCode, next.body).toBe(200);
        expect(next.json().referenceNumber).toBe(`M-${year}-000901`);
      });

      it('answers 422 to an Idempotency-Key reused with another body, storing nothing; the same body again answers the first reply', async () => {
        const ip = nextIp();
        const input = appealInput(80);
        const first = await send(submission(input, [{ name: 'a.png', type: 'image/png', content: PNG }]), {
          ip,
          key: 'reused-key-0001',
        });
        expect(first.statusCode, first.body).toBe(200);
        const before = await count('SELECT count(*)::int AS n FROM e_appeal');
        // The same data (its keys in another order) and the same file: the first reply.
        const reordered = Object.fromEntries(Object.entries(input).reverse());
        const again = await send(submission(reordered, [{ name: 'a.png', type: 'image/png', content: PNG }]), {
          ip,
          key: 'reused-key-0001',
        });
        expect(again.statusCode).toBe(200);
        expect(again.json()).toEqual(first.json());
        for (const [what, body] of [
          [
            'other data',
            submission({ ...input, content: 'Boshqa matn' }, [{ name: 'a.png', type: 'image/png', content: PNG }]),
          ],
          ['another file', submission(input, [{ name: 'a.png', type: 'application/pdf', content: PDF }])],
          ['no file', submission(input)],
        ] as const) {
          const res = await send(body, { ip, key: 'reused-key-0001' });
          expect(res.statusCode, `${what}: ${res.body}`).toBe(422);
          expect(res.json().message).toBe(
            'This Idempotency-Key was already used with different content; the first request stands. Use a new key for a new one',
          );
        }
        const ru = await send(submission({ ...input, content: 'Boshqa matn' }), {
          ip,
          key: 'reused-key-0001',
          lang: 'ru',
        });
        expect(ru.statusCode).toBe(422);
        expect(ru.json().message).toMatch(/[А-Яа-я]/);
        expect(await count('SELECT count(*)::int AS n FROM e_appeal')).toBe(before);
        expect(
          await count('SELECT count(*)::int AS n FROM file_entity WHERE record_id IS NULL AND kind = $1', ['appeal']),
        ).toBe(0);
      });

      it('submits a draft kept by its private link and removes the draft', async () => {
        const draft = await app.inject({
          method: 'POST',
          url: '/api/appeal/draft',
          payload: { shortDescription: 'Muddati o‘tgan mahsulot' },
          headers: { authorization: '' },
        });
        expect(draft.statusCode).toBe(200);
        const res = await send(submission(appealInput(9), [], draft.json().id), {
          ip: nextIp(),
          key: 'from-draft-000001',
        });
        expect(res.statusCode).toBe(200);
        expect(
          (
            await app.inject({
              method: 'GET',
              url: `/api/appeal/draft/${draft.json().id}`,
              headers: { authorization: '' },
            })
          ).statusCode,
        ).toBe(404);
      });

      it('limits submissions per address (429 with retry-after)', async () => {
        const ip = nextIp();
        for (let i = 0; i < 10; i++) expect((await send(submission(appealInput(20 + i)), { ip })).statusCode).toBe(200);
        const refused = await send(submission(appealInput(40)), { ip });
        expect(refused.statusCode).toBe(429);
        expect(refused.headers['retry-after']).toBeDefined();
        expect((await send(submission(appealInput(41)), { ip: nextIp() })).statusCode).toBe(200);
      });
    });

    describe('appeal tracking', () => {
      it('by phone or PINFL: masked full name, count, last date, the reference number of a single appeal — nothing else', async () => {
        const input = appealInput(50, {
          phone: '+99891-777-12-34',
          customer: { surname: 'Karimov', name: 'Jasur', middle_name: 'Olimovich', pnfl: '31205890000050' },
        });
        const sent = (await send(submission(input), { ip: nextIp() })).json();
        const one = await lookup('/api/public-lookup/appeal/track?phone=%2B99891-777-12-34', nextIp());
        expect(one.statusCode).toBe(200);
        expect(one.json()).toEqual({
          count: 1,
          lastAt: expect.any(String),
          fullName: 'K****** J**** O********',
          referenceNumber: sent.referenceNumber,
        });
        await send(submission({ ...input, shortDescription: 'Ikkinchi murojaat' }), { ip: nextIp() });
        const two = (await lookup('/api/public-lookup/appeal/track?pinfl=31205890000050', nextIp())).json();
        expect(two).toEqual({ count: 2, lastAt: expect.any(String), fullName: 'K****** J**** O********' });
        expect(JSON.stringify(two)).not.toContain('Karimov');
        expect((await lookup('/api/public-lookup/appeal/track?pinfl=31205890009999', nextIp())).json()).toEqual({
          count: 0,
          lastAt: null,
        });
      });

      it('validates with localized messages: a malformed value, none or both parameters', async () => {
        const ip = nextIp();
        const badPhone = await lookup('/api/public-lookup/appeal/track?phone=123', ip);
        expect(badPhone.statusCode).toBe(400);
        expect(badPhone.json().fieldErrors).toEqual({ '/phone': 'Enter the phone number as +998 90-123-45-67' });
        expect((await lookup('/api/public-lookup/appeal/track?pinfl=12', ip, 'uz')).json().fieldErrors['/pinfl']).toBe(
          'Toʻgʻri JSHSHIRni kiriting (14 raqam)',
        );
        expect((await lookup('/api/public-lookup/appeal/track', ip)).json().fieldErrors).toEqual({
          '/phone': 'Mandatory field',
          '/pinfl': 'Mandatory field',
        });
        expect(
          (await lookup('/api/public-lookup/appeal/track?phone=%2B99891-777-12-34&pinfl=31205890000050', ip)).json()
            .fieldErrors,
        ).toEqual({ '/phone': 'Fill in only one of these fields', '/pinfl': 'Fill in only one of these fields' });
        expect((await lookup('/api/public-lookup/appeal/track?owner=x&phone=%2B99891-777-12-34', ip)).statusCode).toBe(
          400,
        );
      });

      it('is rate-limited per address (429) and every answered call is logged with hashed values', async () => {
        const ip = nextIp();
        for (let i = 0; i < 30; i++)
          expect((await lookup('/api/public-lookup/appeal/track?pinfl=31205890000050', ip)).statusCode).toBe(200);
        const refused = await lookup('/api/public-lookup/appeal/track?pinfl=31205890000050', ip);
        expect(refused.statusCode).toBe(429);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
        expect(refused.json().message).toBe('Too many requests, please wait and try again');
        expect((await lookup('/api/public-lookup/appeal/track?pinfl=31205890000050', nextIp())).statusCode).toBe(200);
        const { rows } = await app.db.query<{ n: number; clear: number }>(
          `SELECT count(*)::int AS n, count(*) FILTER (WHERE params_hash LIKE '%31205890000050%')::int AS clear FROM public_lookup_log WHERE ip = $1 AND entity = 'appeal' AND lookup = 'track'`,
          [ip],
        );
        expect(rows[0]).toEqual({ n: 30, clear: 0 });
      });
    });

    describe('case tracking and hearing schedule', () => {
      beforeAll(async () => {
        for (let i = 0; i < 3; i++) {
          const res = await app.inject({
            method: 'POST',
            url: '/api/compliance-case/create',
            payload: caseInput(
              i,
              i === 2
                ? { pinfl: '40101850120034', name: 'Rahimov Bekzod Anvarovich', hearingAt: '2026-12-15T09:30:00.000Z' }
                : {},
            ),
          });
          expect(res.statusCode, res.body).toBe(200);
        }
        // A case outside the schedule's dates.
        expect(
          (
            await app.inject({
              method: 'POST',
              url: '/api/compliance-case/create',
              payload: caseInput(7, { hearingAt: '2027-03-01T09:00:00.000Z' }),
            })
          ).statusCode,
        ).toBe(200);
      });

      it('finds a case by number, STIR or JSHSHIR with the declared fields only', async () => {
        const byNumber = await lookup('/api/public-lookup/compliance-case/track?caseNumber=14-05%2F100', nextIp());
        expect(byNumber.statusCode).toBe(200);
        const [row] = byNumber.json().list;
        expect(row).toMatchObject({
          caseNumber: '14-05/100',
          subject: '“Savdo Market 0” MChJ',
          basis: 'Iste’molchi murojaati',
          decisionContent: 'Narx yorliqlarini o‘rnatish to‘g‘risida ko‘rsatma',
          decisionDate: '2026-10-20',
          caseDate: '2026-10-01',
          status: expect.any(String),
        });
        expect(Object.keys(row).sort()).toEqual([
          'basis',
          'caseDate',
          'caseNumber',
          'chairman',
          'decisionContent',
          'decisionDate',
          'finding',
          'hearingAt',
          'reviewResult',
          'sector',
          'status',
          'subject',
          'summary',
          'violatedLaw',
        ]);
        expect(
          (await lookup(`/api/public-lookup/compliance-case/track?stir=${String(caseInput(1).stir)}`, nextIp())).json()
            .list,
        ).toHaveLength(1);
        expect(
          (await lookup('/api/public-lookup/compliance-case/track?pinfl=40101850120034', nextIp())).json().list[0]
            .caseNumber,
        ).toBe('14-05/102');
        expect(
          (await lookup('/api/public-lookup/compliance-case/track?caseNumber=99-99%2F999', nextIp())).json(),
        ).toEqual({ list: [] });
      });

      it('refuses a case number without "-" or "/" in the caller’s language', async () => {
        const en = await lookup('/api/public-lookup/compliance-case/track?caseNumber=1405123', nextIp());
        expect(en.statusCode).toBe(400);
        expect(en.json().fieldErrors).toEqual({ '/caseNumber': 'Enter the case number correctly (e.g. 14-05/123)' });
        const ru = await lookup('/api/public-lookup/compliance-case/track?caseNumber=1405123', nextIp(), 'ru');
        expect(ru.json().fieldErrors['/caseNumber']).toBe('Введите номер дела правильно (например, 14-05/123)');
      });

      it('lists hearings between two dates (both required), of one region or of all, in time order', async () => {
        const all = (
          await lookup('/api/public-lookup/compliance-case/hearings?from=2026-11-01&to=2026-12-31', nextIp())
        ).json().list;
        expect(all.map((r: { caseNumber: string }) => r.caseNumber)).toEqual(['14-05/100', '14-05/101', '14-05/102']);
        expect(Object.keys(all[0]).sort()).toEqual([
          'caseNumber',
          'chairman',
          'hearingAt',
          'regionId',
          'sector',
          'status',
          'subject',
          'violatedLaw',
        ]);
        const region2 = (
          await lookup('/api/public-lookup/compliance-case/hearings?from=2026-11-24&to=2026-11-24&regionId=2', nextIp())
        ).json().list;
        expect(region2.map((r: { caseNumber: string }) => r.caseNumber)).toEqual(['14-05/101']);
        expect(
          (await lookup('/api/public-lookup/compliance-case/hearings?from=2026-11-25&to=2026-11-30', nextIp())).json(),
        ).toEqual({ list: [] });
        const missing = await lookup('/api/public-lookup/compliance-case/hearings?from=2026-11-01', nextIp());
        expect(missing.statusCode).toBe(400);
        expect(missing.json().fieldErrors).toEqual({ '/to': 'Mandatory field' });
        expect(
          (await lookup('/api/public-lookup/compliance-case/hearings?from=2026-13-01&to=2026-12-01', nextIp())).json()
            .fieldErrors,
        ).toEqual({ '/from': 'Enter a valid date' });
      });

      it('refuses a reversed date range on the "to" field, in the caller’s language, and queries nothing', async () => {
        const logged = async () =>
          (await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM public_lookup_log')).rows[0]!.n;
        const before = await logged();
        const url = '/api/public-lookup/compliance-case/hearings?from=2026-12-31&to=2026-11-01';
        const en = await lookup(url, nextIp());
        expect(en.statusCode).toBe(400);
        expect(en.json().fieldErrors).toEqual({ '/to': 'The end date must not be before the start date' });
        const ru = await lookup(url, nextIp(), 'ru');
        expect(ru.json().fieldErrors).toEqual({ '/to': 'Дата окончания не может быть раньше даты начала' });
        expect(await logged()).toBe(before);
        // One day (from = to) is a range.
        expect((await lookup(url.replace('2026-11-01', '2026-12-31'), nextIp())).statusCode).toBe(200);
      });
    });

    describe('contractor name by STIR (the appeal form of a legal entity fills it in)', () => {
      it('answers only the name, to a visitor', async () => {
        const made = await app.inject({
          method: 'POST',
          url: '/api/contractor/create',
          payload: { stir: '207654321', name: '“Toshkent Savdo” MChJ', regionId: 14, director: 'Aliyev Vali' },
        });
        expect(made.statusCode, made.body).toBe(200);
        expect((await lookup('/api/public-lookup/contractor/by-stir?stir=207654321', nextIp())).json()).toEqual({
          list: [{ name: '“Toshkent Savdo” MChJ' }],
        });
        expect((await lookup('/api/public-lookup/contractor/by-stir?stir=207654322', nextIp())).json()).toEqual({
          list: [],
        });
        // The generic find-by stays closed to a visitor.
        expect(
          (
            await app.inject({
              method: 'GET',
              url: '/api/contractor/find-by?field=/stir&value=207654321',
              headers: { authorization: '' },
            })
          ).json(),
        ).toEqual({ record: null });
      });
    });

    describe('court notices', () => {
      beforeAll(async () => {
        for (const n of [
          noticeInput(),
          noticeInput({
            kind: 'DECISION',
            recipientPinfl: undefined,
            recipientStir: '301234567',
            recipientName: '“Savdo Market” MChJ',
          }),
          noticeInput({ kind: 'DECISION', recipientPinfl: '31205891111111', electronic: false }),
          noticeInput({ recipientPinfl: '31205892222222', downloadedAt: new Date().toISOString() }),
        ]) {
          const res = await app.inject({
            method: 'POST',
            url: '/api/court-notice/create',
            payload: JSON.parse(JSON.stringify(n)),
          });
          expect(res.statusCode, res.body).toBe(200);
        }
      });

      it('answers only whether something was sent electronically', async () => {
        expect((await lookup('/api/public-lookup/court-notice/summons?pinfl=31205891234567', nextIp())).json()).toEqual(
          { count: 1, lastAt: expect.any(String) },
        );
        expect(
          (await lookup('/api/public-lookup/court-notice/decision?pinfl=31205891234567', nextIp())).json(),
        ).toEqual({ count: 0, lastAt: null });
        expect((await lookup('/api/public-lookup/court-notice/decision?stir=301234567', nextIp())).json().count).toBe(
          1,
        );
        // A decision posted on paper only is not reported.
        expect(
          (await lookup('/api/public-lookup/court-notice/decision?pinfl=31205891111111', nextIp())).json().count,
        ).toBe(0);
        expect((await lookup('/api/public-lookup/court-notice/decision?stir=12', nextIp())).json().fieldErrors).toEqual(
          { '/stir': 'Enter a real tax ID (9 digits)' },
        );
      });

      it('counts checks and downloads, in total and today', async () => {
        const before = (
          await app.inject({
            method: 'GET',
            url: '/api/public-lookup/court-notice/summons/stats',
            headers: { authorization: '' },
          })
        ).json();
        await lookup('/api/public-lookup/court-notice/summons?stir=301234567', nextIp());
        await lookup('/api/public-lookup/court-notice/summons?pinfl=31205899999999', nextIp());
        const after = (
          await app.inject({
            method: 'GET',
            url: '/api/public-lookup/court-notice/summons/stats',
            headers: { authorization: '' },
          })
        ).json();
        expect(after.checked).toBe(before.checked + 2);
        expect(after.checkedToday).toBe(before.checkedToday + 2);
        expect(after).toMatchObject({ downloaded: 1, downloadedToday: 1 });
      });
    });
  });
}
