/**
 * The app's second module graph (router, Fluent, definitions, the shell), imported by
 * main.tsx at once but evaluated as its own task: a phone then runs two medium tasks instead
 * of one long one before the first render (Lighthouse TBT).
 */
import { matchRoutes, RouterProvider } from 'react-router-dom';
import type { ReactNode } from 'react';
import { AppProviders, createQueryClient } from './App.tsx';
import { createRouter } from './router.tsx';
import { screens } from '../definitions/client.ts';
import { loadScreenKind } from '../engine/registry.ts';

// The current route's screen-kind chunk starts loading now, beside the locale file: the
// router asks for it only once i18n is ready, and then finds it in the module cache — one
// round trip less before the first paint on a slow mobile link.
const kind = matchRoutes(screens.map((s) => ({ path: s.route, handle: s.kind })), window.location)?.[0]?.route.handle as string | undefined;
if (kind) void loadScreenKind(kind).catch(() => undefined);

/**
 * The app's element once the route's lazy chunk is in: rendering before it would commit an
 * empty page over the prerendered one (scripts/prerender.ts) and then paint a second time.
 */
export async function prepareApp(): Promise<ReactNode> {
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
  return (
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
