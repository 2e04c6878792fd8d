/**
 * The account methods of the data provider: signing in (at the endpoints a sign-in screen's
 * definition names), the user's own profile, photo and password, the staff directory and the
 * header's counters.
 */
import type { HttpClient } from '../http.ts';
import type { SignInReply } from '../session.ts';
import { filesForm } from './records.ts';

/** What `GET /api/auth/profile` answers. */
export interface Profile {
  id: number;
  username: string;
  /** The linked staff card, if any. */
  cardId: number | null;
  names: { firstName: string; lastName: string; middleName: string | null };
  uploadPath: string | null;
  roles: Array<{ code: string; name: string }>;
}

/** A password change: the current one, the new one and its confirmation. */
export interface PasswordChange {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** A staff user as the directory answers (`GET /api/staff-users`). */
export interface StaffUserOption {
  id: number;
  name: string;
  unit: string | null;
}

/** The sign-in methods the server has set up (`methodsEndpoint`). */
export interface SignInMethods {
  password: boolean;
  signature: boolean;
  oneId: boolean;
}

/** The one-time text a signature signs (`challengeEndpoint`). */
export interface SignInChallenge {
  challenge: string;
  expiresAt: string;
}

/** The header's counters (`GET /api/letter/get-all-count`): seven counts by name and their `total`. */
export type Counters = Record<string, number>;

/** One record waiting for the user (`GET /api/my-work`). */
export interface MyWorkRow {
  id: number;
  status: string;
  /** The manifest's label field, unless hidden from the user. */
  label: string | null;
  /** The state's deadline (YYYY-MM-DD, Tashkent), if it keeps one. */
  due: string | null;
  overdue: boolean;
}

/** The records waiting for the signed-in user, per entity: the first rows and how many in all. */
export interface MyWork {
  groups: Array<{ entity: string; total: number; list: MyWorkRow[] }>;
}

export interface AccountMethods {
  /** Which sign-in methods the server offers, from the screen's `methodsEndpoint`. */
  getSignInMethods(path: string): Promise<SignInMethods>;
  /** A one-time challenge to sign, bound to `identity` (PNFL or TIN) where the method knows it already. */
  getSignInChallenge(path: string, identity?: Record<string, string>): Promise<SignInChallenge>;
  /** Signs in at the screen's endpoint (a password, a signed challenge); the reply is the session to store. */
  signIn(path: string, credentials: Record<string, unknown>): Promise<SignInReply>;
  getProfile(): Promise<Profile>;
  /** Changes the user's own password (400 names the fields that are wrong). */
  changePassword(change: PasswordChange): Promise<unknown>;
  /** Uploads the user's photo through the staff-card files route `route`; answers the new avatar path. */
  uploadProfilePhoto(route: string, file: File): Promise<{ uploadPath: string }>;
  /** Staff users by id (names of stored values). */
  getStaffUsers(ids: number[]): Promise<StaffUserOption[]>;
  /** Staff users whose name or unit contains `search`. */
  searchStaffUsers(search: string, limit: number): Promise<StaffUserOption[]>;
  getCounters(): Promise<Counters>;
  /** The records waiting for the signed-in user (the staff home's "my work"). */
  getMyWork(): Promise<MyWork>;
}

/** Creates the account methods over an HTTP client. */
export function createAccountMethods(http: HttpClient): AccountMethods {
  return {
    getSignInMethods: (path) => http.request('GET', path),
    getSignInChallenge: (path, identity) => http.request('GET', path, { query: identity }),
    signIn: (path, credentials) => http.request('POST', path, { body: credentials }),
    getProfile: () => http.request('GET', '/api/auth/profile'),
    changePassword: (change) => http.request('POST', '/api/auth/change-password', { body: change }),
    uploadProfilePhoto: (route, file) =>
      http.request('POST', `/api/file-entity/save/${route}/for-profile`, { form: filesForm([file], 'employeePhoto') }),
    getStaffUsers: async (ids) =>
      ids.length
        ? (
            await http.request<{ list: StaffUserOption[] }>('GET', '/api/staff-users', {
              query: { ids: ids.join(',') },
            })
          ).list
        : [],
    searchStaffUsers: async (search, limit) =>
      (await http.request<{ list: StaffUserOption[] }>('GET', '/api/staff-users', { query: { search, limit } })).list,
    getCounters: () => http.request('GET', '/api/letter/get-all-count'),
    getMyWork: () => http.request('GET', '/api/my-work'),
  };
}
