import type { DefinitionRegistry } from '../../definitions/registry.ts';
import { DEFAULT_LOCALE } from '../../shared/locales.ts';
import { ApiError } from '../errors.ts';
import { systemActor } from '../auth/access.ts';
import type { IntegrationPlatform } from '../integrations/platform.ts';
import type { EntityStore, StoreLog } from './entity-store.ts';

const IGNORED = new Set(['lang']);

/**
 * Wraps the store so that a list-search of an entity with a remote source (manifest
 * `remoteSource`: an agency's method of the integration platform) that finds nothing by
 * exactly its declared filters asks that agency, when it is connected: the call goes through
 * the platform as the system (breaker, timeout, retries, the call audit — its purpose names the
 * asker), the record it answers is stored through the store (validated and audited as the
 * system actor, in the caller's language) and the search runs again, so every later lookup is
 * served locally. Any other search — or one the agency does not know, or a value it would not
 * take — is answered as the store answers it. A failing agency is a 503
 * (`errors.remoteUnavailable`), nothing stored. Put it outermost: the record it stores goes
 * through every other wrapper.
 * @example withRemoteSources(store, app.integrations, registry, app.log)
 */
export function withRemoteSources(
  store: EntityStore,
  platform: IntegrationPlatform,
  registry: DefinitionRegistry,
  log: StoreLog,
): EntityStore {
  if (![...registry.entities.values()].some((def) => def.manifest.remoteSource)) return store;
  return {
    ...store,
    async listSearch(entity, filters, payload, actor, context) {
      const answer = await store.listSearch(entity, filters, payload, actor, context);
      const remote = registry.entities.get(entity)?.manifest.remoteSource;
      if (!remote || answer.total > 0) return answer;
      const [agency = '', method = ''] = remote.integration.split('/');
      if (platform.statusOf(agency) === 'notConnected') return answer;
      const given = Object.entries(filters).filter(([name, v]) => !IGNORED.has(name) && v !== undefined && v !== '');
      if (!given.length || given.some(([name]) => !(name in remote.params))) return answer;
      const params: Record<string, string> = Object.fromEntries(
        given.map(([name, v]) => [remote.params[name]!, String(v)]),
      );
      const locale = context?.locale ?? DEFAULT_LOCALE;
      if (remote.localeParam) params[remote.localeParam.name] = remote.localeParam.values[locale];
      const logger = context?.log ?? log;
      let found: Record<string, unknown> | null;
      try {
        found = (
          await platform.call({
            agency,
            method,
            params,
            purpose: `${entity} lookup by ${actor.username ?? 'a visitor'}`,
            actor: systemActor(),
            locale,
          })
        ).result;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        // A value the agency's method would not take is one it cannot know.
        if (error.statusCode === 400) return answer;
        logger.warn({ entity, integration: remote.integration, status: error.statusCode }, 'remote source unavailable');
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
