import { hash, verify } from '@node-rs/argon2';

/** Password length rule (issue #4): 8 to 128 characters. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const passwordAcceptable = (password: unknown): password is string =>
  typeof password === 'string' && [...password].length >= PASSWORD_MIN && [...password].length <= PASSWORD_MAX;

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
export const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$ZxQ7yO4kqOe3oVWcJkRlW2uK3yBRp4RrH8yPzuDfNBs';
