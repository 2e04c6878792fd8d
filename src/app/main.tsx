import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { FluentProvider } from '@fluentui/react-components';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { matchRoutes, RouterProvider } from 'react-router-dom';
import { initI18n } from './i18n.ts';
import { portalTheme } from './theme.ts';
import { Feedback } from './Feedback.tsx';
import { AbilityProvider } from './ability.tsx';
import { createRouter } from './router.tsx';
import { countVisitOnce } from './visits.ts';
import { screens } from '../definitions/client.ts';
import { loadScreenKind } from '../engine/registry.ts';
import './global.css';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } },
});

// The current route's screen-kind chunk starts loading now, beside the locale file: the
// router asks for it only once i18n is ready, and then finds it in the module cache — one
// round trip less before the first paint on a slow mobile link.
const kind = matchRoutes(screens.map((s) => ({ path: s.route, handle: s.kind })), window.location)?.[0]?.route.handle as string | undefined;
if (kind) void loadScreenKind(kind).catch(() => undefined);

await initI18n();
countVisitOnce();
const router = createRouter();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <FluentProvider theme={portalTheme}>
      <QueryClientProvider client={queryClient}>
        <AbilityProvider>
          <Feedback>
            <RouterProvider router={router} />
          </Feedback>
        </AbilityProvider>
      </QueryClientProvider>
    </FluentProvider>
  </StrictMode>,
);
