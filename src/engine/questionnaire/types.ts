/** Options of a `questionnaire` screen. */
export interface QuestionnaireOptions {
  mode: 'list' | 'take' | 'results';
  /** list: the take screen's route, `:id` replaced by the questionnaire's id. */
  takeRoute?: string;
  /** take: the route back to the list. */
  listRoute?: string;
}

/* The questionnaire routes' replies (PublicQuestionnaire, QuestionnaireForm, AnswerReply,
   QuestionnaireResults) are the data provider's: src/client/provider/questionnaires.ts. */
