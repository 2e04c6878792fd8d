/**
 * Questionnaires (opinion polls and knowledge tests) as data: a record holds an array of questions,
 * and this module — shared by the server, which validates and scores answers, and the
 * browser, which renders the form — turns that array into the answer form's JSON Schema and
 * uiSchema, strips the correct answers for the public, and scores an answer. It knows no
 * entity: a manifest's `questionnaire` names the fields.
 */
import type { JSONSchema7 } from 'json-schema';

export type QuestionType = 'single' | 'multiple' | 'text' | 'rating';

/** One answer option; `correct` marks the right one(s) of a test question. */
export interface QuestionOption {
  text: string;
  correct?: boolean;
}

/**
 * One question of a questionnaire record. Its `key` — the answer's property name — is its
 * position (`q1`, `q2`, …), given by `questionsOf`, so staff never type one: reordering the
 * questions of a questionnaire that already has answers would mix its results (make a new one).
 */
export interface Question {
  key: string;
  text: string;
  type: QuestionType;
  required?: boolean;
  options?: QuestionOption[];
}

/** Answers by question key: an option index, option indexes, a text or a rating 1–5. */
export type Answers = Record<string, number | number[] | string>;

/** Per-question outcome of a scored questionnaire. */
export interface QuestionScore {
  key: string;
  correct: boolean;
  /** The indexes of the right options (told only after answering). */
  correctOptions: number[];
}

/** Longest free-text answer kept. */
export const MAX_TEXT_ANSWER = 2000;
export const RATING_MIN = 1;
export const RATING_MAX = 5;

const isChoice = (q: Pick<Question, 'type'>): boolean => q.type === 'single' || q.type === 'multiple';

/**
 * The questions of a record's field, keyed by position (`q1`, `q2`, …); a choice question
 * without options cannot be answered and is left out. None when the field is not an array.
 */
export const questionsOf = (value: unknown): Question[] =>
  (Array.isArray(value) ? (value as Array<Omit<Question, 'key'>>) : [])
    .map((q, i) => ({ ...q, key: `q${i + 1}` }))
    .filter((q) => !isChoice(q) || (q.options?.length ?? 0) > 0);

/** The questions without any `correct` mark: what may leave the server before an answer. */
export const publicQuestions = (questions: Question[]): Question[] =>
  questions.map((q) => ({
    key: q.key,
    text: q.text,
    type: q.type,
    required: q.required === true,
    ...(q.options ? { options: q.options.map((o) => ({ text: o.text })) } : {}),
  }));

/** A question counts towards the score when one of its options is marked correct. */
export const isScored = (q: Question): boolean => isChoice(q) && (q.options ?? []).some((o) => o.correct === true);

const choices = (q: Question) => (q.options ?? []).map((o, i) => ({ const: i, title: o.text }));

/**
 * The JSON Schema of an answer: one property per question (titled by its text), closed, the
 * required questions required. Used by the server's validation and by the form alike.
 * @example answerSchema([{ key: 'q1', text: 'Rate us', type: 'rating', required: true }])
 */
export function answerSchema(questions: Question[], title?: string): JSONSchema7 {
  const properties: Record<string, JSONSchema7> = {};
  const required: string[] = [];
  for (const q of questions) {
    if (q.required) required.push(q.key);
    switch (q.type) {
      case 'single':
        properties[q.key] = { type: 'integer', title: q.text, oneOf: choices(q) };
        break;
      case 'multiple':
        properties[q.key] = {
          type: 'array',
          title: q.text,
          uniqueItems: true,
          ...(q.required ? { minItems: 1 } : {}),
          items: { type: 'integer', oneOf: choices(q) },
        };
        break;
      case 'rating':
        properties[q.key] = {
          type: 'integer',
          title: q.text,
          oneOf: Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => ({
            const: RATING_MIN + i,
            title: String(RATING_MIN + i),
          })),
        };
        break;
      default:
        properties[q.key] = {
          type: 'string',
          title: q.text,
          maxLength: MAX_TEXT_ANSWER,
          ...(q.required ? { minLength: 1 } : {}),
        };
    }
  }
  return { type: 'object', ...(title ? { title } : {}), additionalProperties: false, required, properties };
}

/** The uiSchema of the answer form: radios, checkboxes, a text area, a 1–5 row. */
export function answerUiSchema(questions: Question[]): Record<string, unknown> {
  const ui: Record<string, unknown> = { 'ui:order': questions.map((q) => q.key) };
  for (const q of questions) {
    ui[q.key] =
      q.type === 'single'
        ? { 'ui:widget': 'radio' }
        : q.type === 'multiple'
          ? { 'ui:widget': 'checkboxes' }
          : q.type === 'rating'
            ? { 'ui:widget': 'radio', 'ui:options': { inline: true } }
            : { 'ui:widget': 'textarea' };
  }
  return ui;
}

/**
 * Scores valid answers: a question is right when exactly its correct options were chosen.
 * Unscored questions (no option marked correct) count for nothing.
 */
export function scoreAnswers(
  questions: Question[],
  answers: Answers,
): { score: number; maxScore: number; results: QuestionScore[] } {
  const results: QuestionScore[] = [];
  for (const q of questions.filter(isScored)) {
    const correctOptions = (q.options ?? []).flatMap((o, i) => (o.correct ? [i] : []));
    const given = answers[q.key];
    const chosen = Array.isArray(given) ? [...given].sort((a, b) => a - b) : typeof given === 'number' ? [given] : [];
    results.push({
      key: q.key,
      correct: chosen.length === correctOptions.length && chosen.every((c, i) => c === correctOptions[i]),
      correctOptions,
    });
  }
  return { score: results.filter((r) => r.correct).length, maxScore: results.length, results };
}

/** Whether `score` of `maxScore` reaches a pass mark in percent. */
export const passes = (score: number, maxScore: number, passMark: number): boolean =>
  maxScore > 0 && (score * 100) / maxScore >= passMark;

/** One stored answer: the question's text and a readable value beside the raw choices. */
export interface StoredAnswer {
  key: string;
  question: string;
  value: string;
  choices?: number[];
  rating?: number;
}

/** The answers as the response record keeps them (readable for staff, countable by SQL). */
export function storedAnswers(questions: Question[], answers: Answers): StoredAnswer[] {
  return questions.flatMap((q): StoredAnswer[] => {
    const given = answers[q.key];
    if (given === undefined || given === '' || (Array.isArray(given) && given.length === 0)) return [];
    const options = q.options ?? [];
    if (q.type === 'rating') return [{ key: q.key, question: q.text, value: String(given), rating: Number(given) }];
    if (q.type === 'text') return [{ key: q.key, question: q.text, value: String(given) }];
    const picked = Array.isArray(given) ? given : [given as number];
    return [
      {
        key: q.key,
        question: q.text,
        value: picked.map((i) => options[i]?.text ?? String(i)).join('; '),
        choices: picked,
      },
    ];
  });
}
