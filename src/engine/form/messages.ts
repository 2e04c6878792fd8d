/**
 * Texts of the form: every schema title, option title, help and validation message is an
 * i18n key, translated where it is shown so a language switch re-renders without revalidating.
 * A validation message travels through rjsf's error schema (plain strings) as its key, with
 * its params appended as JSON when it has any.
 */

/** The part of an i18next instance the form needs. */
export interface Translator {
  t(key: string, options?: Record<string, unknown>): string;
  exists(key: string): boolean;
}

const KEY = /^[A-Za-z][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)+$/;
const PARAMS = '|';

/**
 * A message string that carries an i18n key and its params.
 * @example encodeMessage('validation.minLength', { limit: 3 }) // 'validation.minLength|{"limit":3}'
 */
export function encodeMessage(key: string, params: Record<string, unknown> = {}): string {
  return Object.keys(params).length ? `${key}${PARAMS}${JSON.stringify(params)}` : key;
}

/** Splits an encoded message into key and params; plain text comes back as a key without params. */
export function decodeMessage(message: string): { key: string; params: Record<string, unknown> } {
  const at = message.indexOf(`${PARAMS}{`);
  if (at > 0 && KEY.test(message.slice(0, at))) {
    try {
      return { key: message.slice(0, at), params: JSON.parse(message.slice(at + 1)) as Record<string, unknown> };
    } catch {
      // not ours: fall through and show it as it is
    }
  }
  return { key: message, params: {} };
}

/**
 * The text of a validation message: an encoded i18n key is translated; anything else (a server
 * message that is already localized) is shown as it is.
 */
export function translateMessage(i18n: Translator, message: string): string {
  const { key, params } = decodeMessage(message);
  return KEY.test(key) && i18n.exists(key) ? i18n.t(key, params) : message;
}

/**
 * The text of a title key. rjsf names array items `<title>-<n>`, which becomes "Title n".
 * A string that is not a known key is shown as it is (a property name without a title).
 */
export function translateTitle(i18n: Translator, title: string | undefined): string {
  if (!title) return '';
  if (i18n.exists(title)) return i18n.t(title);
  const item = /^(.+)-([0-9]+)$/.exec(title);
  if (item && i18n.exists(item[1]!)) return `${i18n.t(item[1]!)} ${item[2]}`;
  return title;
}

/**
 * The text of an optional key (ui:description, ui:help): only known keys are shown, so
 * analysts' notes in schema `description`s never reach the screen untranslated.
 */
export function translateKnown(i18n: Translator, key: unknown): string | undefined {
  return typeof key === 'string' && KEY.test(key) && i18n.exists(key) ? i18n.t(key) : undefined;
}
