import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { FluentProvider } from '@fluentui/react-components';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { initI18n } from './i18n.ts';
import { portalTheme } from './theme.ts';
import { Feedback } from './Feedback.tsx';
import { AbilityProvider } from './ability.tsx';
import { createRouter } from './router.tsx';
import { countVisitOnce } from './visits.ts';
import './global.css';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } },
});

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
