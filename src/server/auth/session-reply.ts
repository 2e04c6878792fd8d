import { objectReply } from '../reply-schemas.ts';
/** A person's names as the user record or their staff card holds them. */
export interface PersonNames {
  firstName: string;
  lastName: string;
  middleName: string | null;
}

/**
 * The session user of the sign-in reply, in the spec's wire shape (§4: id, username,
 * employeeId, the employee's first/last/middle name, userSettings, isOuter, uploadPath,
 * permissions). The names are the staff card's when the user has one, else the account's.
 */
export function sessionReply(s: {
  id: number;
  username: string;
  cardId: number | null;
  names: PersonNames;
  isOuter: boolean;
  photo: string | undefined;
  permissions: string[];
  fieldRules?: unknown[];
}) {
  return {
    id: s.id,
    username: s.username,
    employeeId: s.cardId,
    employee: s.names,
    isOuter: s.isOuter,
    uploadPath: s.photo ? `/api/file-entity/get/${s.photo}` : null,
    userSettings: {},
    permissions: s.permissions,
    // CASL "cannot update Subject fields" rules: the fields the user may read but not change.
    fieldRules: s.fieldRules ?? [],
  };
}

/** The sign-in reply (POST /api/auth-payload, the refresh grant, OneID) as the OpenAPI document shows it. */
export const sessionReplySchema = objectReply('The session: an access token, a refresh token and who the user is', {
  token: { type: 'string', description: 'Bearer token for `Authorization`' },
  refreshToken: { type: 'string', description: 'For POST /api/o/token/ (one use) and POST /api/logout' },
  expiresIn: { type: 'integer', description: 'Seconds the access token lives' },
  id: { type: 'integer' },
  username: { type: 'string' },
  isOuter: { type: 'boolean' },
  permissions: { type: 'array', items: { type: 'string' } },
});
