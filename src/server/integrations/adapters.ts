import type { DefinitionRegistry } from '../../definitions/registry.ts';
import { DEFAULT_REMOTE_TIMEOUT_MS, type RemoteSource, type RemoteSourceFactory } from './remote-source.ts';
import { createTaxClassifierAdapter } from './tax-classifier.ts';

/**
 * The integration registry: a manifest's `remoteSource.adapter` names one of these. A new
 * outside system is a new entry here, never a branch in a plugin.
 */
export const remoteSourceAdapters: Readonly<Record<string, RemoteSourceFactory>> = {
  'tax-classifier': createTaxClassifierAdapter,
};

/** An entity's configured remote source and its filter → parameter names (manifest `remoteSource.params`). */
export interface ConfiguredRemoteSource {
  source: RemoteSource;
  params: Readonly<Record<string, string>>;
}

/**
 * The remote sources of the entities whose manifest names one (`remoteSource`) and whose
 * environment variable holds a URL (`urls`, the config's `integrationUrls`); an entity whose
 * variable is unset has none.
 * @example remoteSourcesOf(registry, { TAX_CLASSIFIER_URL: 'https://soliq.example/getInfo' })
 */
export function remoteSourcesOf(
  registry: DefinitionRegistry,
  urls: Readonly<Record<string, string>> = {},
): Map<string, ConfiguredRemoteSource> {
  const sources = new Map<string, ConfiguredRemoteSource>();
  for (const def of registry.entities.values()) {
    const remote = def.manifest.remoteSource;
    const url = remote ? urls[remote.env] : undefined;
    if (!remote || !url) continue;
    const factory = remoteSourceAdapters[remote.adapter];
    // `npm run check` refuses unknown adapters; this guards a definition loaded some other way.
    if (!factory) throw new Error(`${def.id}: no adapter "${remote.adapter}" in the integration registry`);
    sources.set(def.id, {
      source: factory({ url, timeoutMs: remote.timeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS }),
      params: remote.params,
    });
  }
  return sources;
}
