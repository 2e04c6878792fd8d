/**
 * Test helpers of the form's component tests: i18next with the real English texts (plus the
 * test schemas' own titles), a fake data provider, and the providers a form needs.
 */
import { createRef, type ReactElement, type ReactNode } from 'react';
import { cleanup, configure, render, waitFor, type RenderResult } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next, { type i18n } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, vi } from 'vitest';
import { ApiProvider } from '../../client/react/context.tsx';
import { AbilityProvider } from '../../client/react/ability.tsx';
import { createAbility, type PortalAbility } from '../../shared/ability.ts';
import { createDataProvider, type DataProvider, type ReferenceItem } from '../../client/data-provider.ts';
import type { HttpClient } from '../../client/http.ts';
// The whole English locale, entities' and machines' texts merged in (vite.config.ts `mergedLocales`).
import en from '../../i18n/locales/en.json';
import testTexts from './test-texts.json';
import { EntityForm, type EntityFormHandle, type EntityFormProps } from './EntityForm.tsx';

// vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => cleanup());
// A full, parallel run is slower than one file alone: give async queries room, not a race.
configure({ asyncUtilTimeout: 20_000 });

// happy-dom's Web Animations reject `finished` with an AbortError nobody awaits when Fluent
// cancels a motion; without `animate` Fluent's motions finish at once in tests.
if (typeof Element !== 'undefined')
  Object.defineProperty(Element.prototype, 'animate', { value: undefined, configurable: true, writable: true });

type Tree = Record<string, unknown>;

function merge(a: Tree, b: Tree): Tree {
  const out: Tree = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const prev = out[k];
    out[k] = prev && typeof prev === 'object' && v && typeof v === 'object' ? merge(prev as Tree, v as Tree) : v;
  }
  return out;
}

/**
 * i18next in English with src/i18n/locales/en.json and the `test.*`
 * titles of the tests' own schemas (engine tests name no real entity).
 */
export function createTestI18n(): i18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'en',
    resources: { en: { translation: merge(en as Tree, testTexts as Tree) } },
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return instance;
}

const ref = (id: number, parent: number | null, name: string): ReferenceItem => ({
  id,
  code: String(id),
  parent,
  nameLt: `${name} (lt)`,
  nameUz: `${name} (uz)`,
  nameRu: `${name} (ru)`,
  nameEn: name,
});

/** Reference lists of the fake provider: two regions with their districts. */
export const referenceFixtures: Record<string, ReferenceItem[]> = {
  region: [ref(1, null, 'Karakalpakstan'), ref(2, null, 'Andijan')],
  district: [ref(101, 1, 'Nukus City'), ref(102, 1, 'Amudaryo'), ref(201, 2, 'Andijan City'), ref(202, 2, 'Asaka')],
};

/**
 * A DataProvider test double: reference lists come from the fixtures, uploads echo the files,
 * lookups find nothing; every other method (also ones added to the interface later) rejects.
 */
export function createFakeDataProvider(overrides: Partial<DataProvider> = {}): DataProvider {
  const known: Partial<DataProvider> = {
    findBy: vi.fn(() => Promise.resolve(null)),
    getReference: vi.fn((kind: string, parent?: number) =>
      Promise.resolve((referenceFixtures[kind] ?? []).filter((i) => parent === undefined || i.parent === parent)),
    ),
    upload: vi.fn((_entity: string, files: File[]) =>
      Promise.resolve(
        files.map((f, i) => ({ id: `id-${f.name}-${i}`, name: f.name, mime: f.type, size: f.size, sha256: '' })),
      ),
    ),
    fileUrl: (id: string) => `/api/file-entity/get/${id}`,
    // The record's edit rules allow everything unless a test says otherwise (the ability still narrows it).
    getRights: vi.fn(() => Promise.resolve({ update: true, delete: true, readOnly: [] })),
    ...overrides,
  };
  return new Proxy(known as DataProvider, {
    get(target, prop) {
      if (prop in target || typeof prop === 'symbol' || prop === 'then')
        return (target as unknown as Record<string | symbol, unknown>)[prop];
      return () => Promise.reject(new Error(`${prop} is not faked`));
    },
  });
}

/**
 * The real data provider over a scripted HTTP client: a screen's test then sees the very
 * requests the screen makes (method, path, `{query, body, form, headers}`), as the server would.
 * @example const request = vi.fn(async () => ({ list: [] })); renderWithProviders(<X />, { dataProvider: createScriptedDataProvider(request) });
 */
export function createScriptedDataProvider(
  request: (method: string, path: string, options: never) => Promise<unknown>,
): DataProvider {
  // The script reads `(method, path, options)` as HttpClient.request passes them.
  return createDataProvider({
    request: request as HttpClient['request'],
    url: (path) => path,
    download: () => Promise.reject(new Error('no downloads in a scripted provider')),
  });
}

/** Unless a test says otherwise, the user may do everything (the screens' own permission tests narrow it). */
const MAY_DO_ALL = createAbility([{ action: 'manage', subject: 'all' }]);

/** Everything a form needs around it: Fluent, i18next, TanStack Query, the data provider, the ability. */
export function Providers({
  children,
  dataProvider,
  i18n,
  ability = MAY_DO_ALL,
}: {
  children: ReactNode;
  dataProvider: DataProvider;
  i18n: i18n;
  ability?: PortalAbility;
}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return (
    <FluentProvider theme={webLightTheme}>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={client}>
          <ApiProvider value={{ dataProvider, reportError: vi.fn(), notifySuccess: vi.fn() }}>
            <AbilityProvider ability={ability}>{children}</AbilityProvider>
          </ApiProvider>
        </QueryClientProvider>
      </I18nextProvider>
    </FluentProvider>
  );
}

/** Renders inside the providers; returns the render result, a user-event session and the provider. */
export function renderWithProviders(
  ui: ReactElement,
  options: { dataProvider?: DataProvider; ability?: PortalAbility } = {},
) {
  const dataProvider = options.dataProvider ?? createFakeDataProvider();
  const i18n = createTestI18n();
  const user = userEvent.setup();
  const result: RenderResult = render(
    <Providers dataProvider={dataProvider} i18n={i18n} ability={options.ability}>
      {ui}
    </Providers>,
  );
  return { ...result, user, dataProvider, i18n };
}

/** The element carrying `data-field="<pointer>"`. */
export function fieldElement(container: HTMLElement, pointer: string): HTMLElement {
  const el = container.querySelector<HTMLElement>(`[data-field="${pointer}"]`);
  if (!el) throw new Error(`no field ${pointer}`);
  return el;
}

/**
 * Renders an EntityForm of a test entity; `data()` reads the form's current data.
 * @example const { user, data } = renderEntityForm({ schema, uiSchema: { phone: { 'ui:widget': 'phone' } } });
 */
export function renderEntityForm(
  props: Partial<EntityFormProps> & Pick<EntityFormProps, 'schema'>,
  options: { dataProvider?: DataProvider } = {},
) {
  const handle = createRef<EntityFormHandle>();
  const onChange = vi.fn();
  const onSubmit = vi.fn();
  const view = renderWithProviders(
    <EntityForm entity="sample" formData={{}} onChange={onChange} onSubmit={onSubmit} formRef={handle} {...props} />,
    options,
  );
  return { ...view, handle, onChange, onSubmit, data: (): Record<string, unknown> => handle.current!.getData() };
}

/**
 * The open confirmation prompt, found by its marker rather than by role: while one Fluent dialog
 * closes and the next opens, the tabster modalizer can leave the new surface aria-hidden for a
 * moment (seen in CI), which hides it from role queries though a user can click it.
 */
export async function confirmPrompt(): Promise<HTMLElement> {
  return waitFor(() => {
    const el = document.querySelector<HTMLElement>('[data-dialog="confirm"]');
    if (!el) throw new Error('no confirmation prompt');
    return el;
  });
}
