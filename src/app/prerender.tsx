/**
 * The build-time prerender entry (bundled by vite's SSR build, run by scripts/prerender.ts):
 * renders a public route with react-dom/server through the SAME providers, router and screen
 * components the browser renders, so the page's HTML — header, menu, language switch, title
 * and static text, data-bound parts in their loading state — paints before any JavaScript
 * has run. Fluent's styles come from a Griffel renderer of its own, written as <style>
 * elements into the page's head.
 */
import { renderToString } from 'react-dom/server';
import { dehydrate, type Query } from '@tanstack/react-query';
import { createDOMRenderer, RendererProvider, renderToStyleElements, SSRProvider } from '@fluentui/react-components';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, type Locale } from '../shared/locales.ts';
import { screens } from '../definitions/client.ts';
import { publicRoutes } from '../definitions/public-routes.ts';
import access from '../../schemas/_access/access.json';
import { AppProviders, createQueryClient } from './App.tsx';
import { appRoutes } from './router.tsx';
import { htmlLang } from './i18n.ts';

// Whole locales: the shell files merged with the entities' and machines' texts (vite.config.ts).
const messages = import.meta.glob<Record<string, unknown>>('../i18n/locales/*.json', { import: 'default' });

/** What a prerendered page adds to index.html. */
export interface PrerenderedPage {
  /** `<html lang>` of the locale. */
  lang: string;
  /** The document title the route's screen sets. */
  title: string;
  /** Fluent's (Griffel's) style elements for the head. */
  styles: string;
  /** The markup inside `<div id="root">`. */
  html: string;
  /**
   * The query cache the markup was rendered from (TanStack Query's dehydrated state: a
   * screen's definition, blank record, reference lists…), for the browser to start from, so
   * that it renders the same markup and adopts it.
   */
  data: unknown;
}

/** How many render → fetch rounds a page may take (a list whose parent comes from another). */
const DATA_ROUNDS = 4;

const enabledNow = (query: Query): boolean => {
  const enabled = (query.options as { enabled?: boolean | ((q: Query) => boolean) }).enabled;
  return typeof enabled === 'function' ? enabled(query) : enabled !== false;
};

/**
 * The routes worth prerendering: the screens a signed-out visitor may open whose route has
 * no parameters (a first visit from a search engine or a link lands there).
 */
export function prerenderRoutes(): string[] {
  return publicRoutes(screens, access.guest.permissions);
}

/** The screen kind of a route (its chunks are preloaded by the page). */
export const screenKindOf = (route: string): string | undefined => screens.find((s) => s.route === route)?.kind;
/** The id of a route's screen (its whole definition is a chunk of its own, preloaded by the page). */
export const screenIdOf = (route: string): string | undefined => screens.find((s) => s.route === route)?.id;

/** An API answer `{list: []}` (the portal's list answers). */
const isEmptyList = (data: unknown): boolean =>
  typeof data === 'object' && data !== null && Array.isArray((data as { list?: unknown }).list)
    ? (data as { list: unknown[] }).list.length === 0
    : false;

let ready: Promise<unknown> | undefined;

/**
 * Renders one route in one locale as a signed-out visitor on a first visit sees it. The
 * screen's own queries are answered through `apiFetch` (the build's server) and the page
 * rendered again with their data, until it asks for nothing new; a query that fails stays in
 * its loading state (the browser asks again).
 */
export async function prerender(route: string, locale: Locale, apiFetch?: typeof fetch): Promise<PrerenderedPage> {
  ready ??= i18next.use(initReactI18next).init({
    lng: locale,
    fallbackLng: DEFAULT_LOCALE,
    resources: Object.fromEntries(
      await Promise.all(
        Object.entries(messages).map(async ([file, load]) => [
          file.replace(/^.*\/(\w+)\.json$/, '$1'),
          { translation: await load() },
        ]),
      ),
    ),
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  await ready;
  await i18next.changeLanguage(locale);

  const handler = createStaticHandler(appRoutes());
  const context = await handler.query(new Request(`http://localhost${route}`));
  if (context instanceof Response) throw new Error(`${route} answered a redirect (${context.status})`);
  const queryClient = createQueryClient();
  const tried = new Set<string>();
  let renderer = createDOMRenderer();
  let html = '';
  for (let round = 0; round < DATA_ROUNDS; round++) {
    const router = createStaticRouter(handler.dataRoutes, context);
    renderer = createDOMRenderer();
    html = renderToString(
      <RendererProvider renderer={renderer}>
        <SSRProvider>
          <AppProviders queryClient={queryClient} apiFetch={apiFetch}>
            <StaticRouterProvider router={router} context={context} hydrate={false} />
          </AppProviders>
        </SSRProvider>
      </RendererProvider>,
    );
    // On a server useQuery only registers its query; what this render asked for is fetched now.
    const asked = queryClient
      .getQueryCache()
      .getAll()
      .filter(
        (q) =>
          q.state.status === 'pending' &&
          !tried.has(q.queryHash) &&
          typeof q.options.queryFn === 'function' &&
          enabledNow(q),
      );
    if (!apiFetch || asked.length === 0) break;
    for (const q of asked) tried.add(q.queryHash);
    await Promise.allSettled(asked.map((q) => q.fetch()));
    // A query that failed is rendered as not loaded yet, as the browser will first see it; so is
    // an empty list where the build's empty database is not the answer (`meta.prerenderEmpty`
    // false: a dashboard's figures): the page would say "no data" until the app had asked again.
    for (const q of asked)
      if (q.state.status === 'error' || (q.meta?.prerenderEmpty === false && isEmptyList(q.state.data)))
        queryClient.getQueryCache().remove(q);
  }
  const styles = renderToString(<>{renderToStyleElements(renderer)}</>);
  const screen = screens.find((s) => s.route === route);
  const title = screen ? `${i18next.t(screen.titleKey)} — ${i18next.t('app.shortTitle')}` : i18next.t('app.shortTitle');
  const data = dehydrate(queryClient);
  queryClient.clear();
  return { lang: htmlLang(locale), title, styles, html, data };
}
