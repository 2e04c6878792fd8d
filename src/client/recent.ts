/**
 * The record pages the signed-in user opened last, kept on this device (settings
 * `recentRecords`, cleared at sign-out): the staff home's "recently opened".
 */
import { getSetting, setSetting, type RecentRecord } from './settings.ts';

/** How many are kept. */
export const RECENT_LIMIT = 8;

/**
 * Puts a record page first in the list (once: opening it again moves it up), dropping the
 * oldest beyond {@link RECENT_LIMIT}.
 * @example rememberRecord({ path: '/admin/x/5', entity: 'x', id: 5, label: 'Letter' }, new Date())
 */
export function rememberRecord(entry: Omit<RecentRecord, 'at'>, now: Date = new Date()): void {
  const others = getSetting('recentRecords').filter((r) => r.path !== entry.path);
  setSetting('recentRecords', [{ ...entry, at: now.toISOString() }, ...others].slice(0, RECENT_LIMIT));
}

/** The record pages opened last, newest first. */
export const recentRecords = (): RecentRecord[] => getSetting('recentRecords');
