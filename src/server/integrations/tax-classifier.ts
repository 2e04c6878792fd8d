import type { Locale } from '../../shared/locales.ts';
import { RemoteSourceUnavailable, type RemoteSource, type RemoteSourceFactory } from './remote-source.ts';

/** The tax committee's service knows three languages; both Uzbek scripts ask for Uzbek. */
const LANG: Record<Locale, 'uz' | 'ru' | 'en'> = { uz: 'uz', uzCyrillic: 'uz', ru: 'ru', en: 'en' };

/** One GET: 404 → null, 2xx → the JSON object, anything else → unavailable. */
async function getOnce(url: URL, timeoutMs: number): Promise<Record<string, unknown> | null> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new RemoteSourceUnavailable(`tax classifier: ${(error as Error).message}`, { cause: error });
  }
  if (res.status === 404) {
    await res.body?.cancel();
    return null;
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new RemoteSourceUnavailable(`tax classifier answered ${res.status}`);
  }
  const body: unknown = await res.json().catch(() => undefined);
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new RemoteSourceUnavailable('tax classifier answered something that is not a product');
  return body as Record<string, unknown>;
}

/**
 * The tax committee's product classifier (spec §7 `soliq/getInfo`):
 * `GET {url}?international_code=…&mxik_code=…&lang=uz|ru|en` → `{name, brand, group, class,
 * position, subposition, units, mxikCode, tnvedCode, barcode}`, or 404 for a product it does
 * not know. A failed or slow call (over `timeoutMs`) is tried once more, since a lookup
 * should not fail on one lost packet; a second failure is {@link RemoteSourceUnavailable}.
 * @example createTaxClassifierAdapter({ url: 'https://soliq.example/getInfo', timeoutMs: 5000 }).fetchOne({ mxik_code: '10601001001000000' }, 'ru')
 */
export const createTaxClassifierAdapter: RemoteSourceFactory = ({ url, timeoutMs }): RemoteSource => ({
  async fetchOne(params, locale) {
    const target = new URL(url);
    for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
    target.searchParams.set('lang', LANG[locale]);
    try {
      return await getOnce(target, timeoutMs);
    } catch (error) {
      if (!(error instanceof RemoteSourceUnavailable)) throw error;
      return getOnce(target, timeoutMs);
    }
  },
});
