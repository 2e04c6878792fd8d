/**
 * The key React Router's ScrollRestoration files a page's scroll position under.
 *
 * A page opened afresh (typed, bookmarked, reloaded before any in-app navigation, or the
 * full reload that follows signing in) has no history state, and React Router gives every
 * such page the same key, `default`. Its saved positions live in sessionStorage, so a fresh
 * page was "restored" to where another fresh page of the tab had been left — and the restore
 * lands when the router next commits, which can be after the person has begun to scroll
 * (it yanked a scrolled record page back to the top: found-on-the-way.e2e). Here a fresh page's
 * key is its own load's, so only this document's own visits to it restore (back to the first
 * page), and every page entered by in-app navigation keeps its history key (reload and back
 * still restore those).
 */
const LOAD = `${Date.now().toString(36)}.${Math.random().toString(36).slice(2, 8)}`;

export const scrollKey = (location: { key: string }): string =>
  location.key === 'default' ? `load.${LOAD}` : location.key;
