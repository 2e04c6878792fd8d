/**
 * Makes the data layer and the error reporter available to every screen. The shell gives
 * the session's HTTP client and the screens' hooks build the data provider over it when
 * they first need it (hooks.ts `useDataProvider`), so a first visit that asks the API for
 * nothing does not load the provider; a component test gives a fake provider instead.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { DataProvider } from '../data-provider.ts';
import type { HttpClient } from '../http.ts';

export interface ApiContextValue {
  /** The session's HTTP client, for the data provider to be built over. */
  http?: HttpClient | undefined;
  /** A ready data provider (a component test's fake); wins over `http`. */
  dataProvider?: DataProvider | undefined;
  /** Shows a failure the way spec §8 says (toast, dialog or logout), queued while requests run. */
  reportError(error: unknown): void;
  /** Shows a success toast with a translated message key. */
  notifySuccess(messageKey: string): void;
}

const ApiContext = createContext<ApiContextValue | null>(null);

/** Provides the data layer and the error reporting to the screens below. */
export function ApiProvider({ value, children }: { value: ApiContextValue; children: ReactNode }) {
  return <ApiContext.Provider value={value}>{children}</ApiContext.Provider>;
}

/** Error reporting and success toasts (the data itself: the hooks); throws outside the app's providers. */
export function useApi(): ApiContextValue {
  const value = useContext(ApiContext);
  if (!value) throw new Error('useApi() outside <ApiProvider>');
  return value;
}

/** The same, or null outside the app's providers (a component drawn alone in a test). */
export function useOptionalApi(): ApiContextValue | null {
  return useContext(ApiContext);
}
