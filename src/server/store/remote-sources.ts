import type { DefinitionRegistry } from '../../definitions/registry.ts';
import { DEFAULT_LOCALE } from '../../shared/locales.ts';
import { ApiError } from '../errors.ts';
import { systemActor } from '../auth/access.ts';
import type { ConfiguredRemoteSource } from '../integrations/adapters.ts';
import { RemoteSourceUnavailable } from '../integrations/remote-source.ts';
import type { EntityStore, StoreLog } from './entity-store.ts';

const IGNORED = new Set(['lang']);

/**
 * Wraps the store so that a list-search of an entity with a remote source (manifest
 * `remoteSource`, built by integrations/adapters.ts `remoteSourcesOf`) that finds nothing by
 * exactly its declared filters asks the other system: its record is stored through the store
 * (validated and audited as the system actor, in the caller's language) and the search runs
 * again, so every later lookup is served locally. Any other search — or one the other system
 * does not know — is answered as the store answers it. A failing other system is a 503
 * (`errors.remoteUnavailable`), nothing stored. Put it outermost: the record it stores goes
 * through every other wrapper.
 * @example withRemoteSources(store, remoteSourcesOf(registry, config.integrationUrls), registry, app.log)
 */
export function withRemoteSources(
  store: EntityStore,
  sources: ReadonlyMap<string, ConfiguredRemoteSource>,
  registry: DefinitionRegistry,
  log: StoreLog,
): EntityStore {
  if (!sources.size) return store;
  return {
    ...store,
    async listSearch(entity, filters, payload, actor, context) {
      const answer = await store.listSearch(entity, filters, payload, actor, context);
      const remote = sources.get(entity);
      if (!remote || answer.total > 0) return answer;
      const given = Object.entries(filters).filter(([name, v]) => !IGNORED.has(name) && v !== undefined && v !== '');
      if (!given.length || given.some(([name]) => !(name in remote.params))) return answer;
      const params = Object.fromEntries(given.map(([name, v]) => [remote.params[name]!, String(v)]));
      const locale = context?.locale ?? DEFAULT_LOCALE;
      const logger = context?.log ?? log;
      let found: Record<string, unknown> | null;
      try {
        found = await remote.source.fetchOne(params, locale);
      } catch (error) {
        if (!(error instanceof RemoteSourceUnavailable)) throw error;
        logger.warn({ err: error, entity }, 'remote source unavailable');
        throw new ApiError(503, 'errors.remoteUnavailable');
      }
      if (!found) return answer;
      // Only the record's own fields are kept; the store validates them like any input.
      const properties = Object.keys((registry.entities.get(entity)!.schema.properties ?? {}) as object);
      const data = Object.fromEntries(
        properties
          .filter((k) => found[k] !== undefined && found[k] !== null && found[k] !== '')
          .map((k) => [k, found[k]]),
      );
      try {
        await store.create(entity, data, systemActor(), { locale });
      } catch (error) {
        if (!(error instanceof ApiError) || error.statusCode !== 400) throw error;
        // Either another request stored it a moment ago (unique fields), or the other
        // system's answer is not a valid record: the search below tells which.
        const again = await store.listSearch(entity, filters, payload, actor, context);
        if (again.total > 0) return again;
        logger.warn({ entity, fieldErrors: error.fieldErrors }, 'remote source answered an invalid record');
        throw new ApiError(503, 'errors.remoteUnavailable');
      }
      return store.listSearch(entity, filters, payload, actor, context);
    },
  };
}
