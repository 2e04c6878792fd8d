import type { Locale } from '../../shared/locales.ts';

/**
 * Another system holding records our table keeps a local copy of (manifest `remoteSource`).
 * An adapter speaks that system's protocol; the store wrapper (store/remote-sources.ts)
 * decides when to ask it and stores what it answers.
 */
export interface RemoteSource {
  /**
   * The one record the other system has for `params` (its own parameter names → values), in
   * our field names; `null` when it has none (its "not found"). Throws
   * {@link RemoteSourceUnavailable} when it fails, answers nonsense or is too slow.
   */
  fetchOne(params: Readonly<Record<string, string>>, locale: Locale): Promise<Record<string, unknown> | null>;
}

/** How long one call to another system may take unless the manifest says otherwise. */
export const DEFAULT_REMOTE_TIMEOUT_MS = 5000;

/** Builds an adapter for one configured URL. */
export type RemoteSourceFactory = (options: { url: string; timeoutMs: number }) => RemoteSource;

/** The other system could not answer (down, an error status, a timeout, a body that is not a record). */
export class RemoteSourceUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RemoteSourceUnavailable';
  }
}
