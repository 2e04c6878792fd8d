import type { JSONSchema7 } from 'json-schema';
import type { Question, QuestionScore } from '../../shared/questionnaire.ts';
import { manifests } from '../../definitions/client.ts';

/** Options of a `questionnaire` screen. */
export interface QuestionnaireOptions {
  mode: 'list' | 'take' | 'results';
  /** list: the take screen's route, `:id` replaced by the questionnaire's id. */
  takeRoute?: string;
  /** take: the route back to the list. */
  listRoute?: string;
}

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
  questions: Array<{ key: string; text: string; type: Question['type']; answered: number; average?: number | null; options?: Array<{ text: string; count: number }> }>;
}

/** The API root of an entity's questionnaire routes. */
export const questionnaireApi = (entity: string | undefined): string => `/api${manifests.get(entity ?? '')?.base ?? ''}/questionnaire`;
