import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ValidateFunction } from 'ajv';
import { systemActor } from '../../auth/access.ts';
import { ApiError, badInput, errorBodySchema, notFound } from '../../errors.ts';
import { BUSINESS_TIME_ZONE } from '../../../shared/time-zone.ts';
import { createServerAjv } from '../../validation.ts';
import { toFieldProblems } from '../../../shared/validation/field-errors.ts';
import {
  answerSchema,
  answerUiSchema,
  isScored,
  passes,
  publicQuestions,
  questionsOf,
  RATING_MAX,
  RATING_MIN,
  scoreAnswers,
  storedAnswers,
  type Answers,
} from '../../../shared/questionnaire.ts';
import type { EntityDefinition } from '../../../definitions/registry.ts';
import { mustBeSameRequest, requestHash } from '../../public/request-hash.ts';
import { QUESTIONNAIRE_ANSWER_TABLES } from '../../public/tables.ts';
import type { CapabilityOptions } from '../registry.ts';
import { getAtPointer, pointerSegments, setAt, sqlText } from '../../../shared/pointer.ts';

/** The answers (idempotency keys, addresses, replies). */
export const migrations = [QUESTIONNAIRE_ANSWER_TABLES];

/** Answers one address may send in a minute unless the manifest says otherwise. */
export const DEFAULT_ANSWERS_PER_MINUTE = 10;
/** Open questionnaires listed at most. */
const LIST_LIMIT = 100;
const KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;

type Data = Record<string, unknown>;

/** Thrown inside the transaction when another request with the same key won the race. */
class DuplicateKey extends Error {}

/** The value at a JSON pointer of a record's data (top-level or nested); none without a pointer. */
const at = (data: Data, pointer: string | undefined): unknown => (pointer ? getAtPointer(data, pointer) : undefined);

/** A response's data: the questionnaire's id at the responses' parent field first, then the rest. */
const withParent = (parentField: string, id: number, rest: Data): Data => {
  const data: Data = {};
  setAt(data, parentField, id);
  return Object.assign(data, rest);
};

/** Today in Tashkent as YYYY-MM-DD: the open dates are days there. */
const todayOf = (now: Date): string =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: BUSINESS_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;
const looseObject = { type: 'object', additionalProperties: true } as const;

/**
 * Questionnaires — opinion polls and knowledge tests — answered without an account (manifest
 * `questionnaire`). The record's question array is the form: its JSON Schema and uiSchema are
 * built by `src/shared/questionnaire.ts` and sent without any `correct` mark; an answer is
 * validated against the same schema, refused outside the open dates, scored where options are
 * marked correct and stored as a record of the responses entity (through the store, as the
 * system actor: validated and audited) together with its `questionnaire_answer` row — the
 * browser's idempotency key (one response per browser; a repeat answers the first reply, the key
 * with other answers is refused with 422) and
 * the address (a per-address limit that holds across instances). Per-question counts are
 * public where the record allows it, and always for staff who may read the responses.
 */
const questionnaires: FastifyPluginAsync<CapabilityOptions> = async (app, { entities }) => {
  for (const def of entities) {
    const q = def.manifest.questionnaire!;
    const entity = def.id;
    const table = app.tables.get(entity)!.table;
    const responsesDef = app.definitions.entities.get(q.responses.entity) as EntityDefinition;
    const responseTable = app.tables.get(q.responses.entity)!.table;
    const perMinute = q.perMinute ?? DEFAULT_ANSWERS_PER_MINUTE;
    const base = `/api${def.manifest.base}/questionnaire`;
    const tags = [def.manifest.subject];
    // Compiled answer schemas by record id and version: a record's questions change only with its version.
    const validators = new Map<string, ValidateFunction>();
    const ajv = createServerAjv();

    const load = async (id: number): Promise<{ id: number; version: number; data: Data }> => {
      const { rows } = await app.db.query<{ id: number; version: number; data: Data }>(
        `SELECT id, version, data FROM ${table} WHERE id = $1`,
        [id],
      );
      if (!rows[0]) throw notFound();
      return rows[0];
    };
    const isOpen = (data: Data): boolean => {
      const today = todayOf(app.config.clock());
      const from = at(data, q.openFromField);
      const to = at(data, q.openToField);
      return typeof from === 'string' && typeof to === 'string' && from <= today && today <= to;
    };
    const showsResults = (data: Data): boolean => at(data, q.showResultsField) === true;
    /** What the public sees of a record: its public fields, whether it is open, its questions without marks. */
    const publicView = (row: { id: number; data: Data }) => {
      const questions = questionsOf(at(row.data, q.questionsField));
      const fields = Object.fromEntries(
        q.publicFields.map((p) => [pointerSegments(p).at(-1)!, at(row.data, p)]).filter(([, v]) => v !== undefined),
      );
      return {
        id: row.id,
        ...fields,
        open: isOpen(row.data),
        scored: questions.some(isScored),
        showResults: showsResults(row.data),
        questionCount: questions.length,
      };
    };
    const mayReadResponses = (request: FastifyRequest): boolean =>
      request.actor.ability.can('read', responsesDef.manifest.subject);

    app.get(
      base,
      {
        config: { publicRateLimit: true },
        schema: {
          tags,
          summary: 'The questionnaires open today (public fields only)',
          response: { 200: { type: 'object', properties: { list: { type: 'array', items: looseObject } } } },
        },
      },
      async () => {
        const today = todayOf(app.config.clock());
        const { rows } = await app.db.query<{ id: number; data: Data }>(
          `SELECT id, data FROM ${table} WHERE ${sqlText(q.openFromField)} <= $1 AND ${sqlText(q.openToField)} >= $1 ORDER BY id DESC LIMIT ${LIST_LIMIT}`,
          [today],
        );
        return { list: rows.map(publicView) };
      },
    );

    app.get<{ Params: { id: number } }>(
      `${base}/:id`,
      {
        config: { publicRateLimit: true },
        schema: {
          tags,
          summary: 'One questionnaire with its answer form (no correct answers)',
          params: idParams,
          response: { 200: looseObject, 404: errorBodySchema },
        },
      },
      async (request) => {
        const row = await load(request.params.id);
        const questions = publicQuestions(questionsOf(at(row.data, q.questionsField)));
        return { ...publicView(row), questions, schema: answerSchema(questions), uiSchema: answerUiSchema(questions) };
      },
    );

    /** The committed answer under `key`, if the content it was sent with (`hash`) is this one's (else 422). */
    const earlier = async (id: number, key: string, hash: string): Promise<Data | undefined> => {
      const { rows } = await app.db.query<{ reply: Data | null; request_hash: string | null }>(
        'SELECT reply, request_hash FROM questionnaire_answer WHERE entity = $1 AND questionnaire_id = $2 AND idempotency_key = $3',
        [entity, id, key],
      );
      if (!rows[0]?.reply) return undefined;
      mustBeSameRequest(rows[0].request_hash, hash);
      return rows[0].reply;
    };

    app.post<{ Params: { id: number }; Body: { answers?: unknown } }>(
      `${base}/:id/answer`,
      {
        schema: {
          tags,
          summary:
            'Answer a questionnaire (Idempotency-Key: one response per browser); a scored one answers the score and the right options',
          params: idParams,
          headers: { type: 'object', properties: { 'idempotency-key': { type: 'string' } } },
          body: looseObject,
          response: {
            200: looseObject,
            400: errorBodySchema,
            404: errorBodySchema,
            409: errorBodySchema,
            422: errorBodySchema,
            429: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const id = request.params.id;
        const key = request.headers['idempotency-key'];
        if (typeof key !== 'string' || !KEY_PATTERN.test(key)) throw new ApiError(400, 'errors.badIdempotencyKey');
        const row = await load(id);
        // What the key stands for: the body as JSON, whatever the order of its keys.
        const hash = requestHash(request.body ?? null);
        const done = await earlier(id, key, hash);
        if (done) return done;
        const recent = await app.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM questionnaire_answer WHERE ip = $1 AND at > now() - interval '1 minute'`,
          [request.ip],
        );
        if (recent.rows[0]!.n >= perMinute) {
          reply.header('retry-after', '60');
          throw new ApiError(429, 'errors.tooManyRequests', { params: { seconds: 60 } });
        }
        if (!isOpen(row.data)) throw new ApiError(409, 'errors.questionnaireClosed');

        const questions = questionsOf(at(row.data, q.questionsField));
        const cacheKey = `${row.id}:${row.version}`;
        let validate = validators.get(cacheKey);
        if (!validate) {
          validate = ajv.compile(answerSchema(questions));
          validators.set(cacheKey, validate);
        }
        const answers = request.body?.answers ?? {};
        if (!validate(answers))
          throw badInput(toFieldProblems(validate.errors).map((p) => ({ ...p, pointer: `/answers${p.pointer}` })));

        const scored = questions.some(isScored);
        const outcome = scored ? scoreAnswers(questions, answers as Answers) : undefined;
        const passMark = Number(at(row.data, q.passMarkField) ?? 0);
        const passed = outcome ? passes(outcome.score, outcome.maxScore, passMark) : undefined;
        try {
          return await app.db.transaction(async (tx) => {
            const claimed = await tx.query<{ id: number }>(
              `INSERT INTO questionnaire_answer (entity, questionnaire_id, idempotency_key, request_hash, ip) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (entity, questionnaire_id, idempotency_key) DO NOTHING RETURNING id`,
              [entity, id, key, hash, request.ip],
            );
            if (!claimed.rows[0]) throw new DuplicateKey();
            const response = await app.store.create(
              q.responses.entity,
              withParent(q.responses.parentField, id, {
                answers: storedAnswers(questions, answers as Answers),
                ...(outcome ? { score: outcome.score, maxScore: outcome.maxScore, passed } : {}),
              }),
              systemActor(),
              { tx },
            );
            const answer: Data = {
              id,
              responseId: response.id,
              scored,
              showResults: showsResults(row.data),
              ...(outcome
                ? { score: outcome.score, maxScore: outcome.maxScore, passMark, passed, results: outcome.results }
                : {}),
            };
            await tx.query('UPDATE questionnaire_answer SET response_id = $2, reply = $3::jsonb WHERE id = $1', [
              claimed.rows[0].id,
              response.id,
              JSON.stringify(answer),
            ]);
            return answer;
          });
        } catch (error) {
          if (error instanceof DuplicateKey) {
            const first = await earlier(id, key, hash);
            if (first) return first;
            throw new ApiError(409, 'errors.duplicateSubmit');
          }
          throw error;
        }
      },
    );

    app.get<{ Params: { id: number } }>(
      `${base}/:id/results`,
      {
        config: { publicRateLimit: true },
        schema: {
          tags,
          summary: 'Per-question counts of the responses (public where the questionnaire shows its results)',
          params: idParams,
          response: { 200: looseObject, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request) => {
        const row = await load(request.params.id);
        if (!showsResults(row.data) && !mayReadResponses(request))
          throw request.actor.id === null
            ? new ApiError(401, 'errors.unauthorized')
            : new ApiError(403, 'errors.forbidden');
        const parent = sqlText(q.responses.parentField);
        const parentOfR = sqlText(q.responses.parentField, 'r.data');
        const idText = String(row.id);
        const total = await app.db.query<{ n: number; passed: number }>(
          `SELECT count(*)::int AS n, count(*) FILTER (WHERE data ->> 'passed' = 'true')::int AS passed FROM ${responseTable} WHERE ${parent} = $1`,
          [idText],
        );
        const perQuestion = await app.db.query<{ key: string; answered: number; average: string | null }>(
          `SELECT a ->> 'key' AS key, count(*)::int AS answered, round(avg((a ->> 'rating')::numeric), 2)::text AS average
         FROM ${responseTable} r, jsonb_array_elements(r.data -> 'answers') a WHERE ${parentOfR} = $1 GROUP BY 1`,
          [idText],
        );
        const perChoice = await app.db.query<{ key: string; choice: number; n: number }>(
          `SELECT a ->> 'key' AS key, c::int AS choice, count(*)::int AS n
         FROM ${responseTable} r, jsonb_array_elements(r.data -> 'answers') a, jsonb_array_elements_text(COALESCE(a -> 'choices', '[]'::jsonb)) c
         WHERE ${parentOfR} = $1 GROUP BY 1, 2`,
          [idText],
        );
        const perRating = await app.db.query<{ key: string; rating: number; n: number }>(
          `SELECT a ->> 'key' AS key, (a ->> 'rating')::int AS rating, count(*)::int AS n
         FROM ${responseTable} r, jsonb_array_elements(r.data -> 'answers') a
         WHERE ${parentOfR} = $1 AND a ? 'rating' GROUP BY 1, 2`,
          [idText],
        );
        const questions = questionsOf(at(row.data, q.questionsField));
        const scored = questions.some(isScored);
        const ratings = (key: string) =>
          Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => RATING_MIN + i).map((r) => ({
            text: String(r),
            count: perRating.rows.find((x) => x.key === key && x.rating === r)?.n ?? 0,
          }));
        return {
          ...publicView(row),
          total: total.rows[0]!.n,
          ...(scored ? { passedCount: total.rows[0]!.passed } : {}),
          questions: publicQuestions(questions).map((question) => {
            const stats = perQuestion.rows.find((r) => r.key === question.key);
            return {
              key: question.key,
              text: question.text,
              type: question.type,
              answered: stats?.answered ?? 0,
              ...(question.type === 'rating'
                ? { average: stats?.average ? Number(stats.average) : null, options: ratings(question.key) }
                : {}),
              ...(question.options
                ? {
                    options: question.options.map((o, i) => ({
                      text: o.text,
                      count: perChoice.rows.find((r) => r.key === question.key && r.choice === i)?.n ?? 0,
                    })),
                  }
                : {}),
            };
          }),
        };
      },
    );
  }
};

export default questionnaires;
