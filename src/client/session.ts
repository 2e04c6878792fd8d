/**
 * The signed-in session in the persisted settings: what sign-in stores, what a refresh
 * renews, and what logout clears (spec §4: token, user info and project data go; the rules
 * return to read-on-everything; the page reloads).
 */
import { rulesFromPermissions, type AbilityRule } from '../shared/ability.ts';
import { createHttpClient, type HttpClient } from './http.ts';
import { clearSession, getSetting, setSetting } from './settings.ts';

/** The reply of POST /api/auth-payload. */
export interface SignInReply {
  token: string;
  refreshToken: string;
  id: number;
  username: string;
  employeeId: number | null;
  employee: { firstName: string; lastName: string; middleName: string | null };
  isOuter: boolean;
  uploadPath: string | null;
  permissions: string[];
  /** CASL field rules ("cannot update Subject fields"): what the user may read but not change. */
  fieldRules?: AbilityRule[];
}

export function saveSession(reply: SignInReply): void {
  setSetting('accessToken', reply.token);
  setSetting('refreshToken', reply.refreshToken);
  setSetting('userId', reply.id);
  setSetting('userInfo', {
    id: reply.id,
    username: reply.username,
    employeeId: reply.employeeId,
    firstName: reply.employee.firstName,
    lastName: reply.employee.lastName,
    middleName: reply.employee.middleName ?? undefined,
  });
  setSetting('isOuter', reply.isOuter);
  setSetting('avatarUrl', reply.uploadPath);
  // Field rules after the permissions: the later CASL rule wins for those fields.
  setSetting('permissionRules', [...rulesFromPermissions(reply.permissions), ...(reply.fieldRules ?? [])]);
}

/** Whether a session is stored on this device. */
export const signedIn = (): boolean => Boolean(getSetting('accessToken'));

/** A signed-in member of staff (not an outer-cabinet applicant): the one who has counters and the live socket. */
export const isStaff = (): boolean => signedIn() && !getSetting('isOuter');

/** Fired on window when the session's shown data (the avatar) changes without a reload. */
export const SESSION_EVENT = 'portal:session';

/** A new avatar for the session (after a photo upload): stored, and the header follows. */
export function setAvatar(uploadPath: string | null): void {
  setSetting('avatarUrl', uploadPath);
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(SESSION_EVENT));
}

let inFlight: Promise<boolean> | null = null;

/** The Web Locks name under which one tab of the browser at a time renews the session. */
export const REFRESH_LOCK = 'portal.session-refresh';

/**
 * Runs `task` while no other tab of this browser runs one under {@link REFRESH_LOCK} (the
 * Web Locks API; a browser without it runs the task at once). The lock is let go when the
 * task ends or its tab closes.
 */
function oneTabAtATime<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  return locks ? locks.request(REFRESH_LOCK, task) : task();
}

/**
 * Renews the access token with the refresh token — one refresh at a time however many
 * requests failed with 401 together; false when the session cannot be renewed.
 *
 * Tabs share the stored session, and each refresh token is good for one refresh (the server
 * ends the session when a spent one comes back). Two tabs whose tokens expired together
 * would both present the same one, so a tab renews under a lock across tabs, and a tab that
 * waited for it and finds a newer refresh token stored than the one it saw uses the session
 * the other tab renewed instead of renewing it again.
 */
export function refreshSession(fetchImpl: typeof fetch = fetch): Promise<boolean> {
  const seen = getSetting('refreshToken');
  if (!seen) return Promise.resolve(false);
  inFlight ??= oneTabAtATime(async () => {
    const refreshToken = getSetting('refreshToken');
    // Signed out in another tab meanwhile, or renewed there: nothing to present again.
    if (!refreshToken) return false;
    if (refreshToken !== seen) return true;
    try {
      const res = await fetchImpl('/api/o/token/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: refreshToken }),
      });
      if (!res.ok) return false;
      const body = (await res.json()) as Partial<SignInReply> & { access_token: string; refresh_token: string };
      // The reply is the sign-in reply (spec §7): who the user is now — avatar, permissions — is kept too.
      if (body.permissions && body.employee)
        saveSession({ ...(body as SignInReply), token: body.access_token, refreshToken: body.refresh_token });
      else {
        setSetting('accessToken', body.access_token);
        setSetting('refreshToken', body.refresh_token);
      }
      return true;
    } catch {
      return false;
    }
  }).finally(() => {
    inFlight = null;
  });
  return inFlight;
}

/**
 * The session is over on this device (its refresh failed): token, refresh token, user info
 * and project data go, the CASL rules return to read-all, and the page reloads — as a
 * signed-out visitor.
 */
export function endSession(reload: () => void = () => window.location.reload()): void {
  clearSession();
  reload();
}

/**
 * The app's HTTP client bound to the stored session: the stored access token on every
 * request; a 401 renews it through {@link refreshSession} (one refresh for however many
 * requests failed together) and repeats each request once; a failed refresh ends the
 * session ({@link endSession}).
 * @example const http = createSessionHttpClient({ getLocale: () => i18next.language });
 */
export function createSessionHttpClient(deps: {
  getLocale(): string;
  fetch?: typeof fetch | undefined;
  onInFlightChange?(count: number): void;
  reload?(): void;
}): HttpClient {
  return createHttpClient({
    getToken: () => getSetting('accessToken'),
    getLocale: deps.getLocale,
    refresh: () => refreshSession(deps.fetch),
    onUnauthorized: () => endSession(deps.reload),
    ...(deps.onInFlightChange ? { onInFlightChange: deps.onInFlightChange } : {}),
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  });
}

/** Logout: revokes the refresh token's family, clears the session and reloads. */
export async function signOut(fetchImpl: typeof fetch = fetch): Promise<void> {
  const refreshToken = getSetting('refreshToken');
  await fetchImpl('/api/logout', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refresh_token: refreshToken ?? undefined }),
  }).catch(() => undefined);
  clearSession();
  window.location.assign('/');
}
