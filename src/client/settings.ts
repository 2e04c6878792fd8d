/**
 * The persisted client settings of spec §3, in one typed module over localStorage.
 * Every key the client keeps between visits is declared here, nowhere else.
 */
import type { Locale } from '../shared/locales.ts';
import { READ_ALL_RULES, type AbilityRule } from '../shared/ability.ts';

export interface ClientSettings {
  accessToken: string | null;
  refreshToken: string | null;
  /** The session user as sign-in returned it (with the employee's full name). */
  userInfo: {
    id: number;
    username: string;
    employeeId?: number | null;
    firstName?: string;
    lastName?: string;
    middleName?: string;
  } | null;
  userId: number | null;
  isOuter: boolean;
  avatarUrl: string | null;
  locale: Locale | null;
  /** Last list page and page size, per list screen id. */
  page: Record<string, number>;
  itemsPerPage: Record<string, number>;
  sidebarOpen: boolean;
  selectedModule: string | null;
  menuCondensed: boolean;
  applicationPageType: string | null;
  currentProject: number | null;
  /** CASL rules: `{action, subject}` per permission, then the field rules; logout resets them to read-on-everything. */
  permissionRules: AbilityRule[];
  /** Record pages the user opened last, newest first (the staff home's "recently opened"; recent.ts). */
  recentRecords: RecentRecord[];
}

/** One record page opened: where it is and what it was called then. */
export interface RecentRecord {
  path: string;
  entity: string;
  id: number;
  label: string;
  /** When it was opened (ISO 8601). */
  at: string;
}

const DEFAULTS: ClientSettings = {
  accessToken: null,
  refreshToken: null,
  userInfo: null,
  userId: null,
  isOuter: false,
  avatarUrl: null,
  locale: null,
  page: {},
  itemsPerPage: {},
  sidebarOpen: true,
  selectedModule: null,
  menuCondensed: false,
  applicationPageType: null,
  currentProject: null,
  permissionRules: READ_ALL_RULES,
  recentRecords: [],
};

const PREFIX = 'portal.';
const storage = (): Storage | undefined => (typeof localStorage === 'undefined' ? undefined : localStorage);

/** Reads one setting (its default when absent or unreadable). */
export function getSetting<K extends keyof ClientSettings>(key: K): ClientSettings[K] {
  const raw = storage()?.getItem(PREFIX + key);
  if (raw == null) return structuredClone(DEFAULTS[key]);
  try {
    return JSON.parse(raw) as ClientSettings[K];
  } catch {
    return structuredClone(DEFAULTS[key]);
  }
}

/** Writes one setting. */
export function setSetting<K extends keyof ClientSettings>(key: K, value: ClientSettings[K]): void {
  storage()?.setItem(PREFIX + key, JSON.stringify(value));
}

/** What logout clears: tokens, user info and project data; the rules go back to read-all. */
export function clearSession(): void {
  for (const key of [
    'accessToken',
    'refreshToken',
    'userInfo',
    'userId',
    'isOuter',
    'avatarUrl',
    'currentProject',
    'selectedModule',
    // Another user signing in on this device must not see what this one opened.
    'recentRecords',
  ] as const) {
    storage()?.removeItem(PREFIX + key);
  }
  setSetting('permissionRules', READ_ALL_RULES);
}
