/**
 * The bundle floor's shell (scripts/bench/bundle-floor.ts): what every route of the portal
 * starts with, from the mandated libraries only and nothing of the portal's own — React's DOM
 * renderer, a data router (react-router-dom), i18next through react-i18next, Fluent's
 * provider and theme, TanStack Query and a CASL ability — mounting `page` as its one route.
 */
import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMongoAbility } from '@casl/ability';

export const ability = createMongoAbility([{ action: 'read', subject: 'all' }]);

export function mountShell(page: ReactNode): void {
  void i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: { title: 'Portal' } } } });
  const router = createBrowserRouter([{ path: '*', element: page }]);
  createRoot(document.getElementById('root')!).render(
    <QueryClientProvider client={new QueryClient()}>
      <FluentProvider theme={webLightTheme}>
        <RouterProvider router={router} />
      </FluentProvider>
    </QueryClientProvider>,
  );
}
