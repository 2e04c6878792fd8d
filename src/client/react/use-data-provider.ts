import { createDataProvider, type DataProvider } from '../data-provider.ts';
import type { HttpClient } from '../http.ts';
import { useApi } from './context.tsx';

const providers = new WeakMap<HttpClient, DataProvider>();

/**
 * The data provider: the one the context was given (component tests' fakes), else the one
 * over the context's HTTP client, built on first use. Built here rather than by the shell,
 * it loads with the first screen that asks for data, not with every first visit.
 */
export function useDataProvider(): DataProvider {
  const { dataProvider, http } = useApi();
  if (dataProvider) return dataProvider;
  if (!http) throw new Error('<ApiProvider> without a data provider or an HTTP client');
  let made = providers.get(http);
  if (!made) providers.set(http, (made = createDataProvider(http)));
  return made;
}
