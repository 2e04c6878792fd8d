import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { loadScreen, screens } from '../definitions/client.ts';
import { loadScreenKind, withTimeout } from '../engine/registry.ts';
import { Layout } from './shell/Layout.tsx';
import { NotFound } from './shell/NotFound.tsx';
import { ForceReload } from './shell/ForceReload.tsx';
import { RouteError } from './shell/RouteError.tsx';
import { ScreenRoute } from './shell/ScreenRoute.tsx';

/**
 * A route per screen of the index, each loading its kind's chunk and the whole screen
 * definition (its options) lazily, side by side (120 s limit).
 */
export function screenRoutes(): RouteObject[] {
  return screens.map((entry) => ({
    path: entry.route,
    errorElement: <RouteError />,
    handle: { screen: entry.id },
    lazy: async () => {
      const [{ default: Kind }, screen] = await withTimeout(
        Promise.all([loadScreenKind(entry.kind, entry), loadScreen(entry)]),
      );
      return { element: <ScreenRoute key={screen.id} screen={screen} Kind={Kind} /> };
    },
  }));
}

/** The app's routes: screens from definitions, the force-reload route, and not-found. */
export function appRoutes(): RouteObject[] {
  return [
    {
      element: <Layout />,
      errorElement: <RouteError />,
      children: [
        ...screenRoutes(),
        { path: '/reload', element: <ForceReload /> },
        { path: '*', element: <NotFound /> },
      ],
    },
  ];
}

/** The browser's router over {@link appRoutes} (history mode). */
export function createRouter() {
  return createBrowserRouter(appRoutes());
}
