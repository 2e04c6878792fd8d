/**
 * The app's second module graph (router, Fluent, definitions, the shell), imported by
 * main.tsx at once but evaluated as its own task: a phone then runs two medium tasks instead
 * of one long one before the first render (Lighthouse TBT).
 */
import { matchRoutes, RouterProvider } from 'react-router-dom';
import { hydrate } from '@tanstack/react-query';
import { createDOMRenderer, RendererProvider } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { AppProviders, createQueryClient } from './App.tsx';
import { createRouter } from './router.tsx';
import { loadScreen, screens } from '../definitions/client.ts';
import { loadScreenKind } from '../engine/registry.ts';
import { yieldToMain } from '../shared/yield.ts';

// The current route's screen-kind chunk and its screen's whole definition start loading now,
// beside the locale file: the router asks for them only once i18n is ready, and then finds
// them in the module cache — one round trip less before the first paint on a slow mobile link.
// A prerendered page announced these chunks itself (scripts/prerender.ts), a few at a
// time; asking now would announce the rest in one long task.
if (!document.getElementById('root')?.hasAttribute('data-prerendered')) {
  const screen = matchRoutes(
    screens.map((s) => ({ path: s.route, handle: s })),
    window.location,
  )?.[0]?.route.handle as (typeof screens)[number] | undefined;
  if (screen) {
    void loadScreenKind(screen.kind).catch(() => undefined);
    void loadScreen(screen).catch(() => undefined);
  }
}

/**
 * The app's element once the route's lazy chunk is in: rendering before it would commit an
 * empty page over the prerendered one (scripts/prerender.ts) and then paint a second time.
 * `prerendered` is the query data the prerendered page was rendered from: the app starts from
 * it, so that its first render is that page (data older than a query's staleTime is fetched
 * again at once).
 */
export async function prepareApp(prerendered?: unknown): Promise<ReactNode> {
  const queryClient = createQueryClient();
  if (prerendered) hydrate(queryClient, prerendered);
  await yieldToMain();
  const router = createRouter();
  if (!router.state.initialized) {
    await new Promise<void>((resolve) => {
      const stop = router.subscribe((state) => {
        if (!state.initialized) return;
        stop();
        resolve();
      });
    });
  }
  // Fluent's style engine, told about the style elements already in the page (a prerendered
  // page's, scripts/prerender.ts): it then adds only the rules that are new, instead of
  // inserting every rule of the page a second time while React adopts it.
  return (
    <RendererProvider renderer={createDOMRenderer(document)}>
      <AppProviders queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProviders>
    </RendererProvider>
  );
}
