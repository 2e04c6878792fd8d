import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { matchPath } from 'react-router-dom';
import i18next from 'i18next';
import { changeLocale, initI18n, initialLocale } from './i18n.ts';
import { getSetting } from '../client/settings.ts';
import { countVisitOnce } from '../client/visits.ts';
import { PRERENDER_DATA_ID } from './prerendered.ts';
import { yieldToMain } from '../shared/yield.ts';
import './global.css';

// Fetched now, evaluated in a task of its own (see boot.tsx).
const boot = import('./boot.tsx');
await initI18n();
countVisitOnce();
// Each step of the start below is a task of its own (see yield.ts).
await yieldToMain();

const container = document.getElementById('root')!;
// A prerendered page (scripts/prerender.ts) of this route in this language is hydrated: React
// adopts its DOM instead of drawing it again. Any other page is rendered afresh over it.
const [pageLocale, pageRoute] = container.dataset.prerendered?.split(' ') ?? [];
// A language the visitor chose on the prerendered page while this script loaded is in the
// settings by now (the page's guard script, scripts/prerender.ts): the app starts in it, and the
// page, in another language, is rendered afresh.
if (getSetting('locale') && initialLocale() !== i18next.language) await changeLocale(initialLocale());
// A query string may change what the route shows (a draft's private link, a form's initial
// values), and the page was rendered without one: then the app draws its own page over it.
const adopt =
  pageRoute !== undefined &&
  pageLocale === i18next.language &&
  matchPath(pageRoute, window.location.pathname) !== null &&
  window.location.search === '';
// The query data the page was rendered from (its definition, blank record, lists…).
const data = adopt ? document.getElementById(PRERENDER_DATA_ID)?.textContent : undefined;
const app = await (await boot).prepareApp(data ? JSON.parse(data) : undefined);
await yieldToMain();
// Either way inside a transition: React then renders (or hydrates) in ~5 ms slices and yields
// between them, so the first render of a large screen is not one long task blocking input
// (Lighthouse TBT). A prerendered page stays visible meanwhile.
if (adopt) {
  startTransition(() => {
    hydrateRoot(container, app);
  });
} else {
  container.removeAttribute('data-prerendered');
  startTransition(() => createRoot(container).render(app));
}
