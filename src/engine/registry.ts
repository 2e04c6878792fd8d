import type { ComponentType } from 'react';
import type { ScreenKind, ScreenProps } from './types.ts';
import { yieldToMain } from '../shared/yield.ts';

type ScreenModule = { default: ComponentType<ScreenProps> };

/** What a kind's loader is told of the screen it loads for. */
export interface ScreenToLoad {
  id?: string;
  entity?: string;
}

type KindLoader = (screen?: ScreenToLoad) => Promise<ScreenModule>;

/**
 * A loader that evaluates the libraries first, one per task, then the kind: the browser
 * evaluates a dynamic import's whole module graph in one go, and the form libraries (rjsf)
 * with a form screen are one long task on a phone (Lighthouse TBT) — medium ones in a row
 * are not. Modules are evaluated once; a later import finds them ready. Meanwhile the screen's
 * form validators (generated at build time, src/engine/form/generated-validators.ts) load, so
 * its forms validate from their first render.
 */
function inStages(libraries: ReadonlyArray<() => Promise<unknown>>, kind: () => Promise<ScreenModule>): KindLoader {
  return async (screen) => {
    // Imported here, not at the top: the loaders' map is not part of the first visit's graph.
    const validators = screen
      ? import('./form/generated-validators.ts').then(({ loadFormValidators }) => loadFormValidators(screen))
      : undefined;
    for (const library of libraries) {
      await library();
      await yieldToMain();
    }
    const [module] = await Promise.all([kind(), validators]);
    return module;
  };
}

/** What every screen with an rjsf form loads (EntityForm), heaviest first. */
const formLibraries = [() => import('@rjsf/utils'), () => import('./form/form-library.ts')];

/**
 * The one registry of screen kinds (STYLE rule 2): a kind name → the lazily loaded
 * component that renders it. Each kind is its own chunk, so ag-grid and rjsf load only with
 * the screens that use them.
 */
export const screenKinds: Record<ScreenKind, KindLoader> = {
  list: () => import('./list/ListScreen.tsx'),
  form: inStages(formLibraries, () => import('./form/FormScreen.tsx')),
  wizard: inStages(formLibraries, () => import('./wizard/WizardScreen.tsx')),
  // A record's page draws a form only in a dialog (LazyEntityForm) and a form's widget only for a
  // self-reading field (ReadValue): rjsf and the validator load when one is shown, not with the route.
  detail: () => import('./detail/DetailScreen.tsx'),
  lookup: inStages(formLibraries, () => import('./lookup/LookupScreen.tsx')),
  page: () => import('./page/PageScreen.tsx'),
  // Tables and apexcharts charts over API answers (the aggregates); apexcharts is a chunk of its own.
  dashboard: () => import('./dashboard/DashboardScreen.tsx'),
  signin: inStages(formLibraries, () => import('./signin/SignInScreen.tsx')),
  flow: inStages(formLibraries, () => import('./flow/FlowScreen.tsx')),
  tree: () => import('./tree/TreeScreen.tsx'),
  profile: () => import('./profile/ProfileScreen.tsx'),
  // A subsystem screen: the staff messenger (entity-free; REST and the live socket).
  messenger: () => import('./messenger/MessengerScreen.tsx'),
  // Polls and knowledge tests of an entity with a manifest `questionnaire`: the open list, answering one, staff results.
  questionnaire: () => import('./questionnaire/QuestionnaireScreen.tsx'),
  // The admin playground: a pasted record schema and form, tried live and checked by the server.
  playground: inStages(formLibraries, () => import('./playground/PlaygroundScreen.tsx')),
  // The staff home: my work from the machines, counters, recently opened records, quick create.
  workspace: () => import('./workspace/WorkspaceScreen.tsx'),
  // The admins' document templates: versions per entity and kind, uploads (manifest `documents`).
  'document-templates': () => import('./documents/DocumentTemplatesScreen.tsx'),
  // A board of a parent record: columns and cards of two ordered entities, dragged or moved by keyboard.
  board: inStages(formLibraries, () => import('./board/BoardScreen.tsx')),
  // In-app notifications: a box (all, incoming, outgoing), live (entity-free).
  notifications: () => import('./notifications/NotificationsScreen.tsx'),
  // A record registered from one uploaded file (manifest `registerFromFile`): the letter upload.
  upload: inStages(formLibraries, () => import('./upload/RegisterUploadScreen.tsx')),
  // The messages sent about an entity's records (a channel's outbox rows), within the reader's scope.
  outbox: () => import('./outbox/OutboxScreen.tsx'),
  // The chat bot's unanswered questions, for staff to improve its knowledge base (entity-free).
  chatbot: () => import('./chatbot/ChatbotScreen.tsx'),
  // The integration platform's pages: the agencies, one agency's query forms (rjsf), the call audit, the health.
  integration: inStages(formLibraries, () => import('./integration/IntegrationScreen.tsx')),
};

/**
 * The loader of a kind (with what the screen's forms need when it is given); an unknown kind
 * renders a notice instead of crashing.
 */
export function loadScreenKind(kind: string, screen?: ScreenToLoad): Promise<ScreenModule> {
  const load = (screenKinds as Record<string, KindLoader | undefined>)[kind];
  return load ? load(screen) : import('./UnknownScreen.tsx');
}

/** Limit for a chunk to arrive (spec §9: 120 s), after which the route shows an error with a retry. */
export const CHUNK_TIMEOUT_MS = 120_000;

/** Rejects when `promise` takes longer than `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms = CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`chunk load timed out after ${ms} ms`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
