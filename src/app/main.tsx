import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { matchPath, matchRoutes, RouterProvider } from 'react-router-dom';
import i18next from 'i18next';
import { initI18n } from './i18n.ts';
import { AppProviders, createQueryClient } from './App.tsx';
import { createRouter } from './router.tsx';
import { countVisitOnce } from './visits.ts';
import { screens } from '../definitions/client.ts';
import { loadScreenKind } from '../engine/registry.ts';
import './global.css';

// The current route's screen-kind chunk starts loading now, beside the locale file: the
// router asks for it only once i18n is ready, and then finds it in the module cache — one
// round trip less before the first paint on a slow mobile link.
const kind = matchRoutes(screens.map((s) => ({ path: s.route, handle: s.kind })), window.location)?.[0]?.route.handle as string | undefined;
if (kind) void loadScreenKind(kind).catch(() => undefined);

await initI18n();
countVisitOnce();
const router = createRouter();
// The first render waits for the route's lazy chunk: rendering before it would commit an
// empty page over the prerendered one (scripts/prerender.ts) and then paint a second time.
if (!router.state.initialized) {
  await new Promise<void>((resolve) => {
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
}

const container = document.getElementById('root')!;
const app = (
  <AppProviders queryClient={createQueryClient()}>
    <RouterProvider router={router} />
  </AppProviders>
);
// A prerendered page (scripts/prerender.ts) of this route in this language is hydrated: React
// adopts its DOM instead of drawing it again. Any other page is rendered afresh over it.
const [pageLocale, pageRoute] = container.dataset.prerendered?.split(' ') ?? [];
if (pageRoute !== undefined && pageLocale === i18next.language && matchPath(pageRoute, window.location.pathname)) {
  hydrateRoot(container, app);
} else {
  container.removeAttribute('data-prerendered');
  // A transition: React renders in ~5 ms slices and yields between them, so the first render
  // of a large screen is not one long task blocking input (Lighthouse TBT). A prerendered
  // page stays visible meanwhile and is replaced at commit.
  startTransition(() => createRoot(container).render(app));
}
