import type { RemoteSourceFactory } from './remote-source.ts';
import { createTaxClassifierAdapter } from './tax-classifier.ts';

/**
 * The integration registry: a manifest's `remoteSource.adapter` names one of these. A new
 * outside system is a new entry here, never a branch in a plugin.
 */
export const remoteSourceAdapters: Readonly<Record<string, RemoteSourceFactory>> = {
  'tax-classifier': createTaxClassifierAdapter,
};
