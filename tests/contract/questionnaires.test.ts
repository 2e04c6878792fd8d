/**
 * Tests and surveys (manifest `questionnaire`) on both backends: the public list and form
 * never carry the correct answers; answers are validated against the form built from the
 * questions (400 with localized field errors, nothing stored), refused outside the open
 * dates, scored, stored once per idempotency key and limited per address; results are
 * public only where the questionnaire allows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';

const BASE = '/api/survey/questionnaire';
const dayOffset = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const quiz = {
  kind: 'TEST',
  title: 'Quiz on consumer rights',
  openFrom: dayOffset(-2),
  openTo: dayOffset(30),
  passMark: 60,
  showResults: false,
  questions: [
    {
      text: 'How long is ordinary mail kept?',
      type: 'single',
      required: true,
      options: [{ text: '7 days' }, { text: 'One month', correct: true }, { text: 'A year' }],
    },
    {
      text: 'Which gas payments are lawful?',
      type: 'multiple',
      required: true,
      options: [
        { text: 'Two months in advance', correct: true },
        { text: 'Six months in advance' },
        { text: 'Within 10 days after the month', correct: true },
      ],
    },
    {
      text: 'Can medicines be returned?',
      type: 'single',
      required: false,
      options: [{ text: 'Yes' }, { text: 'No', correct: true }],
    },
  ],
};
const survey = {
  kind: 'SURVEY',
  title: 'How do you like the portal?',
  openFrom: dayOffset(-1),
  openTo: dayOffset(10),
  passMark: 0,
  showResults: true,
  questions: [
    { text: 'Rate the portal', type: 'rating', required: true },
    {
      text: 'Did you find what you needed?',
      type: 'single',
      required: true,
      options: [{ text: 'Yes' }, { text: 'No' }],
    },
    { text: 'Your suggestions', type: 'text', required: false },
  ],
};

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`tests and surveys on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let quizId: number;
    let surveyId: number;
    let address = 0;
    /** Each test answers from addresses of its own, so the per-address limit is met only where meant. */
    const nextAddress = () => `10.1.0.${++address}`;
    const answer = (id: number, answers: unknown, options: { key?: string; ip?: string; lang?: string } = {}) =>
      app.inject({
        method: 'POST',
        url: `${BASE}/${id}/answer`,
        payload: { answers },
        headers: {
          authorization: '',
          'idempotency-key': options.key ?? randomUUID(),
          'accept-language': options.lang ?? 'en',
        },
        remoteAddress: options.ip ?? nextAddress(),
      });
    const counts = async () => ({
      responses: (
        await app.inject({ method: 'POST', url: '/api/survey-response/list-search', payload: { itemsPerPage: 1 } })
      ).json().total as number,
      claims: (await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM questionnaire_answer')).rows[0]!.n,
    });
    const create = async (record: Record<string, unknown>) => {
      const res = await app.inject({ method: 'POST', url: '/api/survey/create', payload: record });
      expect(res.statusCode).toBe(200);
      return res.json().id as number;
    };

    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name, { seedSamples: true, publicRateLimit: 1000 }));
      quizId = await create(quiz);
      surveyId = await create(survey);
    }, 120_000);
    afterAll(async () => close?.());

    it('lists the open questionnaires to anyone, without the correct answers', async () => {
      const closedId = await create({
        ...survey,
        title: 'Closed last week',
        openFrom: dayOffset(-30),
        openTo: dayOffset(-7),
      });
      const res = await app.inject({ method: 'GET', url: BASE, headers: { authorization: '' } });
      expect(res.statusCode).toBe(200);
      const list = res.json().list as Array<{
        id: number;
        title: string;
        scored: boolean;
        questionCount: number;
        open: boolean;
      }>;
      const ids = list.map((r) => r.id);
      expect(ids).toContain(quizId);
      expect(ids).toContain(surveyId);
      expect(ids).not.toContain(closedId);
      expect(list.length).toBeGreaterThanOrEqual(5); // the three samples as well
      expect(list.find((r) => r.id === quizId)).toMatchObject({
        title: quiz.title,
        scored: true,
        questionCount: 3,
        open: true,
      });
      expect(list.find((r) => r.id === surveyId)).toMatchObject({ scored: false });
      expect(res.body).not.toContain('correct');
    });

    it('gives one questionnaire with its answer form and no trace of the correct answers', async () => {
      const res = await app.inject({ method: 'GET', url: `${BASE}/${quizId}`, headers: { authorization: '' } });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('correct');
      const body = res.json();
      expect(body.questions.map((q: { key: string }) => q.key)).toEqual(['q1', 'q2', 'q3']);
      expect(body.schema.required).toEqual(['q1', 'q2']);
      expect(body.schema.properties.q1.oneOf).toEqual([
        { const: 0, title: '7 days' },
        { const: 1, title: 'One month' },
        { const: 2, title: 'A year' },
      ]);
      expect(body.uiSchema.q2['ui:widget']).toBe('checkboxes');
      expect(
        (await app.inject({ method: 'GET', url: `${BASE}/999999`, headers: { authorization: '' } })).statusCode,
      ).toBe(404);
      // The record itself is staff data: the generic read is closed to visitors.
      expect(
        (await app.inject({ method: 'GET', url: `/api/survey/get/${quizId}`, headers: { authorization: '' } }))
          .statusCode,
      ).toBe(401);
    });

    it('refuses missing, out-of-range and unknown answers with localized field errors, storing nothing', async () => {
      const before = await counts();
      const missing = await answer(quizId, { q3: 1 });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().fieldErrors).toMatchObject({
        '/answers/q1': expect.any(String),
        '/answers/q2': expect.any(String),
      });
      const outOfRange = await answer(quizId, { q1: 7, q2: [0, 9] }, { lang: 'ru' });
      expect(outOfRange.statusCode).toBe(400);
      const errors = outOfRange.json().fieldErrors as Record<string, string>;
      expect(Object.keys(errors).sort()).toEqual(['/answers/q1', '/answers/q2/1']);
      expect(errors['/answers/q1']).toMatch(/[А-Яа-я]/);
      expect(outOfRange.json().message).toMatch(/[А-Яа-я]/);
      const unknown = await answer(quizId, { q1: 1, q2: [0], q9: 'extra' });
      expect(unknown.statusCode).toBe(400);
      expect(Object.keys(unknown.json().fieldErrors)).toEqual(['/answers/q9']);
      const noneChosen = await answer(quizId, { q1: 1, q2: [] });
      expect(Object.keys(noneChosen.json().fieldErrors)).toEqual(['/answers/q2']);
      const twice = await answer(quizId, { q1: 1, q2: [0, 0] });
      expect(twice.statusCode).toBe(400);
      const rating = await answer(surveyId, { q1: 6, q2: 0 });
      expect(Object.keys(rating.json().fieldErrors)).toEqual(['/answers/q1']);
      const tooLong = await answer(surveyId, { q1: 4, q2: 0, q3: 'x'.repeat(2001) });
      expect(Object.keys(tooLong.json().fieldErrors)).toEqual(['/answers/q3']);
      const noKey = await app.inject({
        method: 'POST',
        url: `${BASE}/${quizId}/answer`,
        payload: { answers: { q1: 1, q2: [0, 2] } },
        headers: { authorization: '' },
        remoteAddress: nextAddress(),
      });
      expect(noKey.statusCode).toBe(400);
      expect(await counts()).toEqual(before);
    });

    it('scores a test: exactly the correct options are right; the reply tells which', async () => {
      const all = await answer(quizId, { q1: 1, q2: [2, 0], q3: 1 });
      expect(all.statusCode).toBe(200);
      expect(all.json()).toMatchObject({ scored: true, score: 3, maxScore: 3, passed: true, passMark: 60 });
      const partly = await answer(quizId, { q1: 0, q2: [0] });
      expect(partly.json()).toMatchObject({ score: 0, maxScore: 3, passed: false });
      expect(partly.json().results).toEqual([
        { key: 'q1', correct: false, correctOptions: [1] },
        { key: 'q2', correct: false, correctOptions: [0, 2] },
        { key: 'q3', correct: false, correctOptions: [1] },
      ]);
      const two = await answer(quizId, { q1: 1, q2: [0, 2] });
      expect(two.json()).toMatchObject({ score: 2, passed: true }); // 2 of 3 = 67% ≥ 60%
      const stored = await app.inject({ method: 'GET', url: `/api/survey-response/get/${two.json().responseId}` });
      expect(stored.json()).toMatchObject({ surveyId: quizId, score: 2, maxScore: 3, passed: true });
      expect(stored.json().answers[0]).toEqual({
        key: 'q1',
        question: quiz.questions[0]!.text,
        value: 'One month',
        choices: [1],
      });
    });

    it('keeps one response per idempotency key: a repeat answers the first reply, other answers under the same key 422', async () => {
      const key = randomUUID();
      const before = await counts();
      const first = await answer(surveyId, { q1: 5, q2: 0, q3: 'Good' }, { key });
      // The same answers, also with their keys in another order and two at once.
      const [again, concurrent] = await Promise.all([
        answer(surveyId, { q1: 5, q2: 0, q3: 'Good' }, { key }),
        answer(surveyId, { q3: 'Good', q2: 0, q1: 5 }, { key }),
      ]);
      expect(first.statusCode).toBe(200);
      expect(again.json()).toEqual(first.json());
      expect(concurrent.json()).toEqual(first.json());
      const other = await answer(surveyId, { q1: 1, q2: 1 }, { key });
      expect(other.statusCode, other.body).toBe(422);
      expect(other.json().message).toBe(
        'This Idempotency-Key was already used with different content; the first request stands. Use a new key for a new one',
      );
      expect(await counts()).toEqual({ responses: before.responses + 1, claims: before.claims + 1 });
      // A first answer sent twice at once is one response too.
      const twice = randomUUID();
      const both = await Promise.all([
        answer(surveyId, { q1: 4, q2: 1 }, { key: twice }),
        answer(surveyId, { q1: 4, q2: 1 }, { key: twice }),
      ]);
      expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
      expect(both[1]!.json()).toEqual(both[0]!.json());
      expect(await counts()).toEqual({ responses: before.responses + 2, claims: before.claims + 2 });
      expect(first.json()).toMatchObject({ scored: false, showResults: true });
      expect(first.json()).not.toHaveProperty('score');
    });

    it('refuses answers outside the open dates with a localized error, storing nothing', async () => {
      const ended = await create({ ...survey, openFrom: dayOffset(-10), openTo: dayOffset(-1) });
      const future = await create({ ...survey, openFrom: dayOffset(2), openTo: dayOffset(9) });
      const before = await counts();
      for (const id of [ended, future]) {
        const res = await answer(id, { q1: 3, q2: 0 }, { lang: 'uz' });
        expect(res.statusCode).toBe(409);
        expect(res.json().message).toBe('Bu test yoki soʻrovnoma yopilgan: javoblar qabul qilinmaydi');
        expect(
          (await app.inject({ method: 'GET', url: `${BASE}/${id}`, headers: { authorization: '' } })).json().open,
        ).toBe(false);
      }
      expect(await counts()).toEqual(before);
    });

    it('shows per-question results to anyone where allowed, otherwise only to staff', async () => {
      const id = await create({ ...survey, title: 'Counted survey' });
      await answer(id, { q1: 5, q2: 0, q3: 'Fine' });
      await answer(id, { q1: 4, q2: 0 });
      await answer(id, { q1: 4, q2: 1 });
      const res = await app.inject({ method: 'GET', url: `${BASE}/${id}/results`, headers: { authorization: '' } });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.total).toBe(3);
      expect(body.questions[0]).toMatchObject({ key: 'q1', type: 'rating', answered: 3, average: 4.33 });
      expect(body.questions[0].options.map((o: { count: number }) => o.count)).toEqual([0, 0, 0, 2, 1]);
      expect(body.questions[1].options).toEqual([
        { text: 'Yes', count: 2 },
        { text: 'No', count: 1 },
      ]);
      expect(body.questions[2]).toMatchObject({ type: 'text', answered: 1 });
      expect(res.body).not.toContain('Fine'); // free texts stay with staff

      const hidden = await app.inject({
        method: 'GET',
        url: `${BASE}/${quizId}/results`,
        headers: { authorization: '' },
      });
      expect(hidden.statusCode).toBe(401);
      const staff = await app.inject({ method: 'GET', url: `${BASE}/${quizId}/results` });
      expect(staff.statusCode).toBe(200);
      expect(staff.json().total).toBe(3);
      expect(staff.json().passedCount).toBe(2);
      expect(staff.json().questions[0].options).toEqual([
        { text: '7 days', count: 1 },
        { text: 'One month', count: 2 },
        { text: 'A year', count: 0 },
      ]);
      expect(staff.body).not.toContain('correct');
    });

    it('limits answers per address: past 10 a minute the answer is 429 and nothing is stored', async () => {
      const ip = nextAddress();
      for (let i = 0; i < 10; i++) expect((await answer(surveyId, { q1: 3, q2: 1 }, { ip })).statusCode).toBe(200);
      const before = await counts();
      const refused = await answer(surveyId, { q1: 3, q2: 1 }, { ip });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('60');
      expect(refused.json().message).toBe('Too many requests, please wait and try again');
      expect(await counts()).toEqual(before);
      expect((await answer(surveyId, { q1: 3, q2: 1 })).statusCode).toBe(200); // another address is not held up
    });

    it('responses are written only by the questionnaire route', async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/survey-response/create',
        payload: { surveyId, answers: [] },
        headers: { authorization: '' },
      });
      expect(res.statusCode).toBe(401);
    });
  });
}
