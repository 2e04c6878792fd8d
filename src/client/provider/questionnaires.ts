/**
 * The questionnaire methods of the data provider (an entity whose manifest declares
 * `questionnaire`: polls and knowledge tests), under `{base}/questionnaire`.
 */
import type { JSONSchema7 } from 'json-schema';
import type { HttpClient } from '../http.ts';
import type { Question, QuestionScore } from '../../shared/questionnaire.ts';
import { apiBase } from './records.ts';

/** A questionnaire as the public routes answer it (its public fields are open-ended). */
export interface PublicQuestionnaire {
  id: number;
  open: boolean;
  scored: boolean;
  showResults: boolean;
  questionCount: number;
  title?: string;
  description?: string;
  openTo?: string;
  passMark?: number;
  [field: string]: unknown;
}

/** One questionnaire with its answer form. */
export interface QuestionnaireForm extends PublicQuestionnaire {
  questions: Question[];
  schema: JSONSchema7;
  uiSchema: Record<string, unknown>;
}

/** The answer route's reply. */
export interface AnswerReply {
  id: number;
  responseId: number;
  scored: boolean;
  showResults: boolean;
  score?: number;
  maxScore?: number;
  passMark?: number;
  passed?: boolean;
  results?: QuestionScore[];
}

/** Per-question counts. */
export interface QuestionnaireResults extends PublicQuestionnaire {
  total: number;
  passedCount?: number;
  questions: Array<{
    key: string;
    text: string;
    type: Question['type'];
    answered: number;
    average?: number | null;
    options?: Array<{ text: string; count: number }>;
  }>;
}

export interface QuestionnaireMethods {
  /** The open questionnaires of an entity. */
  getQuestionnaires(entity: string): Promise<PublicQuestionnaire[]>;
  /** One questionnaire with its answer form (no correct marks). */
  getQuestionnaire(entity: string, id: number | string): Promise<QuestionnaireForm>;
  /** Per-question counts: public where the questionnaire shows them, any for staff who may read the responses. */
  getQuestionnaireResults(entity: string, id: number | string): Promise<QuestionnaireResults>;
  /**
   * Answers a questionnaire; the browser's `idempotencyKey` makes a repeat answer the first
   * reply (one response per browser).
   */
  answerQuestionnaire(
    entity: string,
    id: number | string,
    answers: Record<string, unknown>,
    idempotencyKey: string,
  ): Promise<AnswerReply>;
}

/** Creates the questionnaire methods over an HTTP client. */
export function createQuestionnaireMethods(http: HttpClient): QuestionnaireMethods {
  const root = (entity: string) => `${apiBase(entity)}/questionnaire`;
  return {
    getQuestionnaires: async (entity) =>
      (await http.request<{ list: PublicQuestionnaire[] }>('GET', root(entity))).list,
    getQuestionnaire: (entity, id) => http.request('GET', `${root(entity)}/${id}`),
    getQuestionnaireResults: (entity, id) => http.request('GET', `${root(entity)}/${id}/results`),
    answerQuestionnaire: (entity, id, answers, idempotencyKey) =>
      http.request('POST', `${root(entity)}/${id}/answer`, {
        body: { answers },
        headers: { 'idempotency-key': idempotencyKey },
      }),
  };
}
