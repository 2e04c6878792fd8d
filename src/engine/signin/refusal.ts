import { describeFailure, HttpError } from '../../client/http.ts';

/**
 * The server's words for a refused sign-in (a wrong password, a locked account, too many
 * tries: any 4xx), to be shown in the form; undefined for a failure of the system (a 5xx, the
 * network), which the shared notices report.
 */
export function refusalText(error: unknown, t: (key: string) => string): string | undefined {
  return error instanceof HttpError && error.status >= 400 && error.status < 500
    ? describeFailure(error.status, error.body, t)
    : undefined;
}
