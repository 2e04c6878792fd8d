/**
 * Every TanStack Query key of the web app, in one factory. A key says what the data is, and
 * its prefix is what a write invalidates: everything about an entity's records starts with
 * `['entity', entity]` (a save refreshes its lists, records, rights, events and history at
 * once), everything of the messenger's lists with `['messenger']`. Plain data, no React: the
 * hooks (react/hooks.ts) read through these keys, and components that patch or invalidate
 * the cache name them here too.
 */
import type { ListParams } from './data-provider.ts';

/** The query keys, by concern. */
export const queryKeys = {
  /** An entity's records and what belongs to one (`all` is the prefix a write invalidates). */
  entity: {
    all: (entity: string) => ['entity', entity] as const,
    list: (entity: string, params: ListParams) => ['entity', entity, 'list', params] as const,
    one: (entity: string, id: number) => ['entity', entity, 'one', id] as const,
    empty: (entity: string) => ['entity', entity, 'empty'] as const,
    /** The audit trail (`getAudit`). */
    audit: (entity: string, id: number) => ['entity', entity, 'history', id] as const,
    /** The chain the record belongs to (`getChain`). */
    chain: (entity: string, id: number) => ['entity', entity, 'chain', id] as const,
    rights: (entity: string, id: number) => ['entity', entity, 'rights', id] as const,
    /** The events allowed now: per version, so a changed record asks again. */
    events: (entity: string, id: number, version: number) => ['entity', entity, 'events', id, version] as const,
    /** The status changes; per version where a view must follow each change at once. */
    transitions: (entity: string, id: number, version?: number) =>
      version === undefined
        ? (['entity', entity, 'transitions', id] as const)
        : (['entity', entity, 'transitions', id, version] as const),
    keyword: (entity: string, typed: string) => ['entity', entity, 'keyword', typed] as const,
    /** Every value of one field over all records (a choices widget's catalogue). */
    catalogue: (entity: string, valueField: string) => ['entity', entity, 'catalogue', valueField] as const,
    tree: (entity: string) => ['entity', entity, 'tree'] as const,
    /** A record's comment threads (manifest `comments`). */
    comments: (entity: string, id: number) => ['entity', entity, 'comments', id] as const,
    /** Every record matching `filters`, in `sortBy` order (a board's columns or cards). */
    every: (entity: string, filters: Record<string, string | number>, sortBy: readonly string[]) =>
      ['entity', entity, 'every', filters, sortBy] as const,
  },
  /** Definitions loaded on demand (they never change while the page lives). */
  definition: {
    entity: (entity: string | undefined) => ['definition', entity] as const,
    ui: (entity: string | undefined, view: string | undefined) => ['definition', entity, 'ui', view ?? ''] as const,
    machine: (workflow: string | undefined) => ['machine', workflow ?? ''] as const,
    machineOrNull: (workflow: string | undefined) => ['definition', 'machine-or-null', workflow ?? null] as const,
    counters: () => ['definition', '_counters'] as const,
  },
  /** A reference list (the children of `parent` when given); shared by forms, grids, filters and history. */
  reference: (kind: string | undefined, parent?: number | null) => ['reference', kind, parent ?? null] as const,
  draft: (entity: string, id: string | undefined) => ['draft', entity, id] as const,
  fileInfo: (ids: string[]) => ['file-info', ids] as const,
  staffUsers: {
    one: (id: number) => ['staff-users', 'ids', id] as const,
    many: (ids: readonly number[]) => ['staff-users', 'many', ...ids] as const,
    search: (typed: string) => ['staff-users', 'search', typed] as const,
  },
  /** The signed-in user's saved views of a list screen. */
  views: (screen: string) => ['views', screen] as const,
  profile: () => ['profile'] as const,
  counters: () => ['letter', 'get-all-count'] as const,
  /** In-app notifications: every key starts with `notifications` (a push refreshes them all). */
  notifications: {
    all: () => ['notifications'] as const,
    list: (box: string, pages: number) => ['notifications', 'list', box, pages] as const,
    latest: () => ['notifications', 'latest'] as const,
    unread: () => ['notifications', 'unread'] as const,
  },
  myWork: () => ['my-work'] as const,
  /** The integration platform: every key starts with `integrations` (a call refreshes the health and the audit). */
  integrations: {
    all: () => ['integrations'] as const,
    /** Titles come in the reader's language: each locale is its own entry. */
    catalogue: (locale: string) => ['integrations', 'catalogue', locale] as const,
    health: (locale: string) => ['integrations', 'health', locale] as const,
    titles: (locale: string) => ['integrations', 'titles', locale] as const,
    audit: (filters: Record<string, unknown>, page: number, size: number) =>
      ['integrations', 'audit', filters, page, size] as const,
    /** A registry's import runs (by its API base), their errors in the reader's language. */
    imports: (base: string, locale: string) => ['integrations', 'imports', base, locale] as const,
  },
  lookupStats: (path: string | undefined) => ['lookup-stats', path] as const,
  dashboardPanel: (screen: string, panel: string, query: Record<string, unknown>) =>
    ['dashboard', screen, panel, query] as const,
  questionnaire: {
    list: (entity: string) => ['questionnaire', entity, 'list'] as const,
    one: (entity: string, id: string) => ['questionnaire', entity, 'one', id] as const,
    /** Per response where the applicant's own answer should show in the counts. */
    results: (entity: string, id: string, responseId?: number) =>
      responseId === undefined
        ? (['questionnaire', entity, 'results', id] as const)
        : (['questionnaire', entity, 'results', id, responseId] as const),
    /** The questionnaires staff choose from (the entity's newest records). */
    choices: (entity: string) => ['questionnaire', entity, 'choices'] as const,
  },
  /**
   * The messenger. Its lists share the `['messenger']` prefix that live events invalidate;
   * an open chat's pages and search do not, so an event patches them instead of reloading
   * every page.
   */
  messenger: {
    all: () => ['messenger'] as const,
    list: (tab: string, search: string) => ['messenger', tab, search] as const,
    contacts: () => ['messenger', 'contacts-all'] as const,
    group: (id: number) => ['messenger', 'group', id] as const,
    members: (id: number) => ['messenger', 'members', id] as const,
    forwardGroups: (search: string) => ['messenger', 'forward-groups', search] as const,
    forwardPeople: (search: string) => ['messenger', 'forward-people', search] as const,
    messages: (kind: string, id: number) => ['messenger-messages', kind, id] as const,
    search: (kind: string, id: number, term: string) => ['messenger-search', kind, id, term] as const,
  },
};
