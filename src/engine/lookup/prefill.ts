/**
 * A lookup opened from a link (e.g. the confirmation page's "track it"): `?tab=<id>` opens
 * that tab and the other parameters that are fields of its query fill the form, which then
 * runs once by itself.
 */
import type { JSONSchema7 } from 'json-schema';

/** What a link pre-fills: the tab to open and the query values (empty when the link carries none). */
export function prefillOf(
  search: URLSearchParams,
  tabs: ReadonlyArray<{ id: string; query?: JSONSchema7 }> | undefined,
  defaultTab: string,
  defaultQuery: JSONSchema7,
): { tabId: string; query: Record<string, string> } {
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
  return { tabId, query };
}
