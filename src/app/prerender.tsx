/**
 * The build-time prerender entry (bundled by vite's SSR build, run by scripts/prerender.ts):
 * renders a public route with react-dom/server through the SAME providers, router and screen
 * components the browser renders, so the page's HTML — header, menu, language switch, title
 * and static text, data-bound parts in their loading state — paints before any JavaScript
 * has run. Fluent's styles come from a Griffel renderer of its own, written as <style>
 * elements into the page's head.
 */
import { renderToString } from 'react-dom/server';
import { createDOMRenderer, RendererProvider, renderToStyleElements, SSRProvider } from '@fluentui/react-components';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, type Locale } from '../shared/locales.ts';
import { screens } from '../definitions/client.ts';
import { canOpen, createAbility, rulesFromPermissions } from '../shared/ability.ts';
import access from '../../schemas/_access/access.json';
import { AppProviders, createQueryClient } from './App.tsx';
import { appRoutes } from './router.tsx';
import { htmlLang } from './i18n.ts';

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
}

/**
 * The routes worth prerendering: the screens a signed-out visitor may open whose route has
 * no parameters (a first visit from a search engine or a link lands there).
 */
export function prerenderRoutes(): string[] {
  const guest = createAbility(rulesFromPermissions(access.guest.permissions));
  return screens.filter((s) => !s.route.includes(':') && !s.route.includes('*') && canOpen(guest, s.permission, false)).map((s) => s.route);
}

let ready: Promise<unknown> | undefined;

/** Renders one route in one locale as a signed-out visitor on a first visit sees it. */
export async function prerender(route: string, locale: Locale): Promise<PrerenderedPage> {
  ready ??= i18next.use(initReactI18next).init({
    lng: locale,
    fallbackLng: DEFAULT_LOCALE,
    resources: Object.fromEntries(await Promise.all(Object.entries(messages).map(async ([file, load]) => [file.replace(/^.*\/(\w+)\.json$/, '$1'), { translation: await load() }]))),
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  await ready;
  await i18next.changeLanguage(locale);

  const handler = createStaticHandler(appRoutes());
  const context = await handler.query(new Request(`http://localhost${route}`));
  if (context instanceof Response) throw new Error(`${route} answered a redirect (${context.status})`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const renderer = createDOMRenderer();
  const html = renderToString(
    <RendererProvider renderer={renderer}>
      <SSRProvider>
        <AppProviders queryClient={createQueryClient()}>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </AppProviders>
      </SSRProvider>
    </RendererProvider>,
  );
  const styles = renderToString(<>{renderToStyleElements(renderer)}</>);
  const screen = screens.find((s) => s.route === route);
  const title = screen ? `${i18next.t(screen.titleKey)} — ${i18next.t('app.shortTitle')}` : i18next.t('app.shortTitle');
  return { lang: htmlLang(locale), title, styles, html };
}
