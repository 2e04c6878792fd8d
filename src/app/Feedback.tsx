/**
 * Where every failure and success becomes visible (spec §8): builds the session's HTTP
 * client (the screens' data provider is built over it) and the error queue, and shows what
 * they report as toasts (bottom-right) or the network dialog. The Fluent parts load with the
 * first message.
 */
import { lazy, Suspense, useCallback, useMemo, useState, type ReactNode } from 'react';
import i18next from 'i18next';
import { ApiProvider } from '../client/react/context.tsx';
import { createErrorQueue, describeFailure, HttpError, NetworkError } from '../client/http.ts';
import { getSetting } from '../client/settings.ts';
import { createSessionHttpClient } from '../client/session.ts';
import type { FeedbackMessage } from './FeedbackUi.tsx';

const FeedbackUi = lazy(() => import('./FeedbackUi.tsx'));

export function Feedback({ children, apiFetch }: { children: ReactNode; apiFetch?: typeof fetch }) {
  const [messages, setMessages] = useState<FeedbackMessage[]>([]);
  const [networkError, setNetworkError] = useState(false);
  const push = useCallback((intent: FeedbackMessage['intent'], text: string) => {
    setMessages((list) => [...list.slice(-20), { id: (list.at(-1)?.id ?? 0) + 1, intent, text }]);
  }, []);

  const show = useCallback(
    (error: unknown) => {
      if (error instanceof NetworkError) {
        setNetworkError(true);
        return;
      }
      // A 401 of a signed-in session means it is over (logout reloads); signed out, it is the answer (wrong password).
      if (error instanceof HttpError && error.status === 401 && getSetting('accessToken')) return;
      push(
        'error',
        error instanceof HttpError
          ? describeFailure(error.status, error.body, i18next.t)
          : i18next.t('errors.internal'),
      );
    },
    [push],
  );

  const value = useMemo(() => {
    const queue = createErrorQueue(show);
    const http = createSessionHttpClient({
      getLocale: () => i18next.language,
      onInFlightChange: (n) => queue.setInFlight(n),
      fetch: apiFetch,
    });
    return {
      http,
      reportError: (error: unknown) => queue.report(error),
      notifySuccess: (key: string) => push('success', i18next.t(key)),
    };
  }, [show, push, apiFetch]);

  return (
    <ApiProvider value={value}>
      {children}
      {(messages.length > 0 || networkError) && (
        <Suspense fallback={null}>
          <FeedbackUi
            messages={messages}
            networkError={networkError}
            onCloseNetworkError={() => setNetworkError(false)}
          />
        </Suspense>
      )}
    </ApiProvider>
  );
}
