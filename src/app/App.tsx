import { StrictMode, useEffect, type ReactNode } from 'react';
import { FluentProvider } from '@fluentui/react-components';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { portalTheme } from './theme.ts';
import { Feedback } from './Feedback.tsx';
import { AbilityProvider } from '../client/react/ability.tsx';

/** The query client of the app (one per page load, or per prerendered page at build time). */
export const createQueryClient = (): QueryClient =>
  new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } } });

/**
 * Ends the prerendered page's state once React owns the page: its phone-only CSS (the menu
 * hidden) and the "hydrating" answer of the shell no longer apply. Rendered on the server
 * too, so both trees have the same shape. (The `inert` main region of a page with form
 * fields is released by the screen itself, once React owns the screen: ScreenRoute.)
 */
function ReleasePrerender() {
  useEffect(() => document.getElementById('root')?.removeAttribute('data-prerendered'), []);
  return null;
}

/**
 * The providers around the router, shared by the browser entry (main.tsx) and the build-time
 * prerender (prerender.tsx): the static first paint is drawn by the very components the
 * browser then renders. `apiFetch` replaces the browser's fetch for API calls (the prerender
 * asks a build-time server).
 */
export function AppProviders({
  queryClient,
  apiFetch,
  children,
}: {
  queryClient: QueryClient;
  apiFetch?: typeof fetch;
  children: ReactNode;
}) {
  return (
    <StrictMode>
      <FluentProvider theme={portalTheme}>
        <QueryClientProvider client={queryClient}>
          <AbilityProvider>
            <Feedback apiFetch={apiFetch}>{children}</Feedback>
            <ReleasePrerender />
          </AbilityProvider>
        </QueryClientProvider>
      </FluentProvider>
    </StrictMode>
  );
}
