/**
 * Makes the data provider and the error reporter available to every screen.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { DataProvider } from '../data-provider.ts';

export interface ApiContextValue {
  dataProvider: DataProvider;
  /** Shows a failure the way spec §8 says (toast, dialog or logout), queued while requests run. */
  reportError(error: unknown): void;
  /** Shows a success toast with a translated message key. */
  notifySuccess(messageKey: string): void;
}

const ApiContext = createContext<ApiContextValue | null>(null);

export function ApiProvider({ value, children }: { value: ApiContextValue; children: ReactNode }) {
  return <ApiContext.Provider value={value}>{children}</ApiContext.Provider>;
}

/** The data provider and error reporting; throws outside the app's providers. */
export function useApi(): ApiContextValue {
  const value = useContext(ApiContext);
  if (!value) throw new Error('useApi() outside <ApiProvider>');
  return value;
}

export const useDataProvider = (): DataProvider => useApi().dataProvider;
