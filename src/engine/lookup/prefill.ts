/**
 * A lookup opened from a link (e.g. the confirmation page's "track it"): `?tab=<id>` opens
 * that tab and the other parameters that are fields of its query fill the form; with `run=1`
 * (the link carries everything the lookup needs) it then runs once by itself.
 */
import type { JSONSchema7 } from 'json-schema';

/** What a link pre-fills: the tab to open, the query values (empty when the link carries none) and whether to run it. */
export function prefillOf(
  search: URLSearchParams,
  tabs: ReadonlyArray<{ id: string; query?: JSONSchema7 }> | undefined,
  defaultTab: string,
  defaultQuery: JSONSchema7,
): { tabId: string; query: Record<string, string>; run: boolean } {
  const asked = search.get('tab');
  const tab = tabs?.find((x) => x.id === asked);
  const tabId = tab?.id ?? defaultTab;
  const schema = tab?.query ?? tabs?.find((x) => x.id === tabId)?.query ?? defaultQuery;
  const fields = Object.keys(schema.properties ?? {});
  const query: Record<string, string> = {};
  for (const name of fields) {
    const value = search.get(name);
    if (value) query[name] = value;
  }
  return { tabId, query, run: search.get('run') === '1' && Object.keys(query).length > 0 };
}
