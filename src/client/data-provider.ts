/**
 * The one data path of the web app (STYLE rule 4): every screen reads and writes through
 * this object, shaped like react-admin's DataProvider — its record verbs plus a named, typed
 * method for everything else a screen asks the API — and the TanStack Query hooks named
 * after its methods (react/hooks.ts). Plain TypeScript over an {@link HttpClient}: no React.
 *
 * Each group of methods lives in its own file under provider/ and is composed here; a new
 * concern adds a file and one line below, and a test double overrides single methods.
 */
import type { HttpClient } from './http.ts';
import { createAccountMethods, type AccountMethods } from './provider/account.ts';
import { createCommentMethods, type CommentMethods } from './provider/comments.ts';
import { createEndpointMethods, type EndpointMethods } from './provider/endpoints.ts';
import { createIntegrationMethods, type IntegrationMethods } from './provider/integrations.ts';
import { createMessengerMethods, type MessengerMethods } from './provider/messenger.ts';
import { createOrderMethods, type OrderMethods } from './provider/order.ts';
import { createNotificationMethods, type NotificationMethods } from './provider/notifications.ts';
import { createPlaygroundMethods, type PlaygroundMethods } from './provider/playground.ts';
import { createQuestionnaireMethods, type QuestionnaireMethods } from './provider/questionnaires.ts';
import { createRecordMethods, type RecordMethods } from './provider/records.ts';
import { createViewMethods, type ViewMethods } from './provider/views.ts';
import { createWorkflowMethods, type WorkflowMethods } from './provider/workflow.ts';

export type * from './provider/account.ts';
export type * from './provider/comments.ts';
export type * from './provider/endpoints.ts';
export type * from './provider/integrations.ts';
export type * from './provider/messenger.ts';
export type * from './provider/order.ts';
export type * from './provider/notifications.ts';
export type * from './provider/playground.ts';
export type * from './provider/questionnaires.ts';
export type * from './provider/records.ts';
export type * from './provider/views.ts';
export type * from './provider/workflow.ts';

/** Every method a screen may call; see the files under provider/ for each group. */
export interface DataProvider
  extends RecordMethods,
    WorkflowMethods,
    MessengerMethods,
    QuestionnaireMethods,
    AccountMethods,
    EndpointMethods,
    PlaygroundMethods,
    ViewMethods,
    CommentMethods,
    OrderMethods,
    NotificationMethods,
    IntegrationMethods {}

/**
 * Creates the data provider over an HTTP client (the app's is bound to the session:
 * session.ts `createSessionHttpClient`).
 * @example const dp = createDataProvider(createSessionHttpClient({ getLocale: () => i18next.language }));
 */
export function createDataProvider(http: HttpClient): DataProvider {
  return {
    ...createRecordMethods(http),
    ...createWorkflowMethods(http),
    ...createMessengerMethods(http),
    ...createQuestionnaireMethods(http),
    ...createAccountMethods(http),
    ...createEndpointMethods(http),
    ...createPlaygroundMethods(http),
    ...createNotificationMethods(http),
    ...createViewMethods(http),
    ...createCommentMethods(http),
    ...createOrderMethods(http),
    ...createIntegrationMethods(http),
  };
}
