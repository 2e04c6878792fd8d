import { StrictMode, type ReactNode } from 'react';
import { FluentProvider } from '@fluentui/react-components';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { portalTheme } from './theme.ts';
import { Feedback } from './Feedback.tsx';
import { AbilityProvider } from './ability.tsx';

/** The query client of the app (one per page load, or per prerendered page at build time). */
export const createQueryClient = (): QueryClient =>
  new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } } });

/**
 * The providers around the router, shared by the browser entry (main.tsx) and the build-time
 * prerender (prerender.tsx): the static first paint is drawn by the very components the
 * browser then renders.
 */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <StrictMode>
      <FluentProvider theme={portalTheme}>
        <QueryClientProvider client={queryClient}>
          <AbilityProvider>
            <Feedback>{children}</Feedback>
          </AbilityProvider>
        </QueryClientProvider>
      </FluentProvider>
    </StrictMode>
  );
}
