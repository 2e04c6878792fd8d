import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import { systemActor } from '../auth/access.ts';
import { remoteSourceAdapters } from '../integrations/adapters.ts';
import { RemoteSourceUnavailable, type RemoteSource } from '../integrations/remote-source.ts';
import type { SearchPayload } from '../store/list-query.ts';

/** How long one call to another system may take unless the manifest says otherwise. */
export const DEFAULT_REMOTE_TIMEOUT_MS = 5000;

type ListAnswer = Awaited<ReturnType<import('../store/entity-store.ts').EntityStore['listSearch']>>;

/** Asks other systems for what a local search did not find (manifest `remoteSource`). */
export interface RemoteSources {
  /**
   * For an entity with a configured remote source and a search that found nothing by exactly
   * its declared filters: asks the other system, stores its record through the store and
   * searches again. Any other search — or one the other system does not know — is `answer`.
   * Throws a 503 ApiError when the other system cannot answer.
   */
  fillMiss(entity: string, filters: Record<string, unknown>, payload: SearchPayload, request: FastifyRequest, answer: ListAnswer): Promise<ListAnswer>;
}

declare module 'fastify' {
  interface FastifyInstance {
    remoteSources: RemoteSources;
  }
}

const IGNORED = new Set(['lang']);

/**
 * Remote sources of entities (`remoteSource` in the manifest): each is built from the adapter
 * registry when its environment variable holds a URL (`integrationUrls` of the config), and is
 * asked only on a miss — the local table answers every later lookup of the same record.
 */
export default fp(
  async (app) => {
    const sources = new Map<string, { source: RemoteSource; params: Record<string, string> }>();
    for (const def of app.definitions.entities.values()) {
      const remote = def.manifest.remoteSource;
      const url = remote ? app.config.integrationUrls?.[remote.env] : undefined;
      if (!remote || !url) continue;
      const factory = remoteSourceAdapters[remote.adapter];
      // `npm run check` refuses unknown adapters; this guards a definition loaded some other way.
      if (!factory) throw new Error(`${def.id}: no adapter "${remote.adapter}" in the integration registry`);
      sources.set(def.id, { source: factory({ url, timeoutMs: remote.timeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS }), params: remote.params });
    }

    app.decorate('remoteSources', {
      async fillMiss(entity, filters, payload, request, answer) {
        const remote = sources.get(entity);
        if (!remote || answer.total > 0) return answer;
        const given = Object.entries(filters).filter(([name, v]) => !IGNORED.has(name) && v !== undefined && v !== '');
        if (!given.length || given.some(([name]) => !(name in remote.params))) return answer;
        const params = Object.fromEntries(given.map(([name, v]) => [remote.params[name]!, String(v)]));
        let found: Record<string, unknown> | null;
        try {
          found = await remote.source.fetchOne(params, request.locale);
        } catch (error) {
          if (!(error instanceof RemoteSourceUnavailable)) throw error;
          request.log.warn({ err: error, entity }, 'remote source unavailable');
          throw new ApiError(503, 'errors.remoteUnavailable');
        }
        if (!found) return answer;
        // Only the record's own fields are kept; the store validates them like any input.
        const properties = Object.keys((app.definitions.entities.get(entity)!.schema.properties ?? {}) as object);
        const data = Object.fromEntries(properties.filter((k) => found[k] !== undefined && found[k] !== null && found[k] !== '').map((k) => [k, found[k]]));
        try {
          await app.store.create(entity, data, systemActor(), { locale: request.locale });
        } catch (error) {
          if (!(error instanceof ApiError) || error.statusCode !== 400) throw error;
          // Either another request stored it a moment ago (unique fields), or the other
          // system's answer is not a valid record: the search below tells which.
          const again = await app.store.listSearch(entity, filters, payload, request.actor);
          if (again.total > 0) return again;
          request.log.warn({ entity, fieldErrors: error.fieldErrors }, 'remote source answered an invalid record');
          throw new ApiError(503, 'errors.remoteUnavailable');
        }
        return app.store.listSearch(entity, filters, payload, request.actor);
      },
    } satisfies RemoteSources);
  },
  { name: 'remote-sources', dependencies: ['store'] },
);
