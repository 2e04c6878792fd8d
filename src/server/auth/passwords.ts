import { hash, verify } from '@node-rs/argon2';
import { createPasswordEstimator } from '../../shared/password-estimator.ts';
import {
  evaluatePassword,
  type PasswordEstimator,
  type PasswordIdentity,
  type PasswordProblem,
} from '../../shared/password-policy.ts';

let estimator: PasswordEstimator | undefined;

/**
 * New passwords an address may have checked a minute on the public routes that take one
 * (registration's finish, the reset): zxcvbn spends up to ~0.1 s of CPU on a hostile
 * 128-character input, and those routes need no sign-in.
 */
export const NEW_PASSWORD_CHECKS_PER_MINUTE = 30;

/**
 * Why the password policy (src/shared/password-policy.ts) refuses a new password for this
 * person, or undefined when it accepts it. Only for passwords being set: sign-in never
 * re-checks a stored one. zxcvbn's dictionaries are built on the first call.
 * @example passwordProblem('12345678', { username: 'aziz' }) // { key: 'passwordPolicy.tooShort', params: { min: 12, length: 8 } }
 */
export function passwordProblem(password: unknown, identity: PasswordIdentity): PasswordProblem | undefined {
  estimator ??= createPasswordEstimator();
  return evaluatePassword(password, identity, estimator).problem;
}

/**
 * A user record's identifiers for the policy: the username and e-mail address (forbidden
 * inside the password) and the names, phone, passport and tax IDs (they make it weaker).
 */
export function identityOfUser(user: Record<string, unknown> | undefined): PasswordIdentity {
  return {
    username: user?.username,
    email: user?.email,
    related: ['lastName', 'firstName', 'middleName', 'phone', 'passport', 'pinfl', 'tin'].map((name) => user?.[name]),
  };
}

/**
 * Whether a first-start ADMIN_PASSWORD can be used at all (8 to 128 characters, the rule it
 * always had). The policy itself only warns about it: see the auth service.
 */
export const adminPasswordUsable = (password: string): boolean =>
  [...password].length >= 8 && [...password].length <= 128;

// argon2id (the library's default algorithm) with OWASP's memory and time cost.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** An argon2id hash of the password (PHC string with its own salt and parameters). */
export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

/** Whether the password matches the stored hash; a malformed hash simply does not match. */
export async function checkPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** A hash to compare against when the user does not exist, so both cases take as long. */
export const DUMMY_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$ZxQ7yO4kqOe3oVWcJkRlW2uK3yBRp4RrH8yPzuDfNBs';
