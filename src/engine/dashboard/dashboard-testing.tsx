/**
 * Helpers of the dashboard's component tests: a scripted server that records the panels' calls,
 * the screen rendered at a URL with the URL shown beside it, and DOM shorthands.
 */
import { vi } from 'vitest';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { ScreenDefinition } from '../../generated/meta.ts';
import type { PortalAbility } from '../../shared/ability.ts';
import { createScriptedDataProvider, renderWithProviders } from '../form/testing.tsx';
import DashboardScreen from './DashboardScreen.tsx';

/** A call a panel made. */
export interface Call {
  method: string;
  path: string;
  query: Record<string, string>;
}

type Rows = Array<Record<string, unknown>>;

/** A scripted server: panels get `answer(path, query)`, the reference list `region` has North (1) and South (2). */
export function server(answer: (path: string, query: Record<string, string>) => Rows) {
  const calls: Call[] = [];
  const request = vi.fn(async (method: string, path: string, options: { query?: Record<string, string> }) => {
    if (path.startsWith('/api/reference/'))
      return {
        list: [
          { id: 1, code: '1', parent: null, nameEn: 'North', nameLt: 'N', nameUz: 'N', nameRu: 'N' },
          { id: 2, code: '2', parent: null, nameEn: 'South', nameLt: 'S', nameUz: 'S', nameRu: 'S' },
        ],
      };
    const query = Object.fromEntries(Object.entries(options.query ?? {}).filter(([, v]) => v !== undefined));
    calls.push({ method, path, query });
    return { list: answer(path, query) };
  });
  return { calls, dataProvider: createScriptedDataProvider(request as never) };
}

function Where() {
  const { search } = useLocation();
  return <output data-location>{search}</output>;
}

/** Renders a dashboard screen (id `gadget-dash`) with these options at `url` (path `/dash`). */
export function show(
  options: Record<string, unknown>,
  url: string,
  dataProvider: ReturnType<typeof server>['dataProvider'],
  ability?: PortalAbility,
) {
  const screen = {
    id: 'gadget-dash',
    route: '/dash',
    kind: 'dashboard',
    titleKey: 'test.title',
    permission: 'public',
    options,
  } as unknown as ScreenDefinition;
  return renderWithProviders(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route
          path="/dash"
          element={
            <>
              <DashboardScreen screen={screen} />
              <Where />
            </>
          }
        />
      </Routes>
    </MemoryRouter>,
    { dataProvider, ...(ability ? { ability } : {}) },
  );
}

/** The first element matching. */
export const $ = <T extends Element = HTMLElement>(selector: string) => document.querySelector<T>(selector);
/** Every element matching. */
export const $$ = (selector: string) => [...document.querySelectorAll<HTMLElement>(selector)];
/** The query of the current URL. */
export const location = () => new URLSearchParams($('[data-location]')!.textContent ?? '');
/** The texts of every element matching. */
export const text = (selector: string) => $$(selector).map((e) => e.textContent);
