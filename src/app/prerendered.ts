/**
 * What a prerendered page (scripts/prerender.ts) and the browser entry (main.tsx) agree on.
 */

/** The id of the `<script type="application/json">` holding the query data a page was rendered from. */
export const PRERENDER_DATA_ID = 'prerender-data';
