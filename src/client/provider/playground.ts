/**
 * The data provider's method for the admin playground: the server's check of a pasted record
 * schema and form (`POST /api/playground/check`), by the rules of `npm run check`.
 */
import type { HttpClient } from '../http.ts';

/** One thing the check found: the pasted file (`schema.json` or `ui.json`), where in it, and what. */
export interface PlaygroundProblem {
  file: string;
  pointer: string;
  message: string;
}

export interface PlaygroundMethods {
  /**
   * Checks a record schema and a form (the contents of a schema.json and a ui.json); an empty
   * list when `npm run check` would accept them.
   * @example await dp.checkPlayground({ schema, ui: { uiSchema: {} } })
   */
  checkPlayground(input: { schema: unknown; ui?: unknown }): Promise<{ problems: PlaygroundProblem[] }>;
}

/** Creates the playground method over an HTTP client. */
export function createPlaygroundMethods(http: HttpClient): PlaygroundMethods {
  return { checkPlayground: (input) => http.request('POST', '/api/playground/check', { body: input }) };
}
