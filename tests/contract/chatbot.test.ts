/**
 * The chat bot's API (issue #20 item 6): `POST /api/chatbot/ask` answers from the knowledge
 * base in the asker's language (Uzbek in either script), and below the threshold says so,
 * offers the appeal form with the question filled in and logs the question — language, text,
 * time, no address; the question is length-limited and asking is rate-limited per address.
 * Staff with the screen's permission list the unanswered questions, most asked first, and mark
 * one handled; a visitor is asked to sign in, an employee without the right is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { REPO_ROOT } from '../../src/server/app.ts';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { CHATBOT_QUESTION_MAX } from '../../src/server/routes/chatbot.ts';
import { backends } from '../support/databases.ts';
import { createCaller, signIn, startTestApp } from '../support/app.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const userBase = `/api${registry.entities.get(registry.access!.userEntity)!.manifest.base}`;
const PASSWORD = 'correct horse battery';
/** The public budget in this file: enough for the tests, small enough to reach. */
const LIMIT = 12;

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`chat bot on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let call: ReturnType<typeof createCaller>;
    let employeeToken: string;
    /** A visitor's request (no token) from an address of their own. */
    const visitor = async (url: string, payload?: unknown, remoteAddress = '203.0.113.10') => {
      const res = await app.inject({
        method: payload === undefined ? 'GET' : 'POST',
        url,
        payload: payload as never,
        remoteAddress,
        headers: { authorization: '', 'accept-language': 'en' },
      });
      return { status: res.statusCode, body: res.json() as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name, { publicRateLimit: LIMIT }));
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
      employeeToken = (await signIn(app, 'executor1', PASSWORD)).token;
    }, 120_000);
    afterAll(async () => close?.());

    it('answers from the base in the asker’s language, a Latin question finding the Uzbek entry', async () => {
      const ru = await visitor('/api/chatbot/ask', { question: 'Можно ли вернуть лекарство в аптеку?', lang: 'ru' });
      expect(ru.status).toBe(200);
      expect(ru.body.matched).toBe(true);
      expect(ru.body.answers[0]).toEqual({
        id: 'faq:q3',
        title: 'Можно ли вернуть лекарство, купленное в аптеке?',
        text: expect.stringMatching(/^Нет: лекарственные средства/),
        link: '/faq#faq-q3',
      });
      expect(ru.body.appealLink).toBeUndefined();
      const latin = await visitor('/api/chatbot/ask', { question: "Gaz uchun oldindan to'lov", lang: 'uzCyrillic' });
      expect(latin.body.answers[0].id).toBe('faq:q4');
      expect(latin.body.answers[0].title).toBe('Табиий газ учун олдиндан қанча тўлаш талаб қилиниши мумкин?');
      const service = await visitor('/api/chatbot/ask', { question: 'petrol prices', lang: 'en' });
      expect(service.body.answers[0]).toMatchObject({
        id: 'service:/fair-price-stations',
        link: '/fair-price-stations',
      });
      // Answered questions are not logged.
      expect((await app.db.query('SELECT 1 FROM chatbot_question')).rows).toEqual([]);
    });

    it('does not answer nonsense: offers the appeal form with the question and logs it without the address', async () => {
      const asked = await visitor('/api/chatbot/ask', { question: '  purple   elephant quantum ', lang: 'en' });
      expect(asked.status).toBe(200);
      expect(asked.body).toEqual({
        answers: [],
        matched: false,
        appealLink: '/murojaat?content=purple+elephant+quantum',
      });
      await visitor('/api/chatbot/ask', { question: 'Purple elephant quantum', lang: 'en' });
      await visitor('/api/chatbot/ask', { question: 'ҳаво ранги қандай', lang: 'uzCyrillic' });
      const { rows } = await app.db.query<Record<string, unknown>>('SELECT * FROM chatbot_question ORDER BY id');
      expect(rows.map((r) => [r.lang, r.question])).toEqual([
        ['en', 'purple elephant quantum'],
        ['en', 'Purple elephant quantum'],
        ['uzCyrillic', 'ҳаво ранги қандай'],
      ]);
      expect(Object.keys(rows[0]!).sort()).toEqual(['at', 'handled_at', 'id', 'lang', 'question']);
      expect(JSON.stringify(rows)).not.toContain('203.0.113.10');
    });

    it('lists the unanswered questions most asked first and marks one handled; visitors 401, others 403', async () => {
      expect((await visitor('/api/chatbot/unanswered')).status).toBe(401);
      const refused = await app.inject({
        method: 'GET',
        url: '/api/chatbot/unanswered',
        headers: { authorization: `Bearer ${employeeToken}` },
      });
      expect(refused.statusCode).toBe(403);
      const open = await call('GET', '/api/chatbot/unanswered');
      expect(open.status).toBe(200);
      expect(open.body.list.map((q: Record<string, unknown>) => [q.question, q.lang, q.count, q.handled])).toEqual([
        ['Purple elephant quantum', 'en', 2, false],
        ['ҳаво ранги қандай', 'uzCyrillic', 1, false],
      ]);
      const marked = await call('POST', '/api/chatbot/unanswered/handled', {
        question: 'purple elephant quantum',
        lang: 'en',
      });
      expect(marked.body).toEqual({ handled: 2 });
      expect((await call('GET', '/api/chatbot/unanswered')).body.list).toHaveLength(1);
      const handled = await call('GET', '/api/chatbot/unanswered?handled=true');
      expect(handled.body.list).toEqual([
        expect.objectContaining({ question: 'Purple elephant quantum', count: 2, handled: true }),
      ]);
      const notAllowed = await app.inject({
        method: 'POST',
        url: '/api/chatbot/unanswered/handled',
        payload: { question: 'ҳаво ранги қандай', lang: 'uzCyrillic' },
        headers: { authorization: `Bearer ${employeeToken}` },
      });
      expect(notAllowed.statusCode).toBe(403);
    });

    it('refuses an empty or too long question and an unknown language; limits asking per address', async () => {
      const ask = (body: unknown, address?: string) => visitor('/api/chatbot/ask', body, address);
      expect((await ask({ question: '   ', lang: 'en' }, '203.0.113.50')).status).toBe(400);
      expect((await ask({ question: 'x'.repeat(CHATBOT_QUESTION_MAX + 1), lang: 'en' }, '203.0.113.50')).status).toBe(
        400,
      );
      expect((await ask({ question: 'gas', lang: 'de' }, '203.0.113.50')).status).toBe(400);
      const codes: number[] = [];
      for (let i = 0; i <= LIMIT; i++) codes.push((await ask({ question: 'gas', lang: 'en' }, '203.0.113.60')).status);
      expect(codes.slice(0, LIMIT).every((c) => c === 200)).toBe(true);
      expect(codes.at(-1)).toBe(429);
      // Another address still has its budget.
      expect((await ask({ question: 'gas', lang: 'en' }, '203.0.113.61')).status).toBe(200);
    });
  });
}
