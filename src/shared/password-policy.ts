/**
 * The password policy, one for the server (registration, reset, change, set-password) and the
 * forms' strength meter, so both say the same thing:
 *
 * 1. 12 to 128 characters (Unicode code points). 12 because a length floor is the one rule
 *    that does not push people to `Passw0rd!`-style patterns (NIST SP 800-63B); 128 as before
 *    (argon2 of a longer text buys nothing and costs CPU).
 * 2. Not containing the username or the name part of the e-mail address (case-insensitive):
 *    the identifiers anybody who targets the account knows, because they are what one types
 *    to sign in. Identifiers shorter than 3 characters are not checked (they occur in too many
 *    good passphrases). The person's names, phone, passport and tax IDs are not a hard rule —
 *    a 3-letter given name inside a long passphrase is no weakness — but they are zxcvbn's
 *    "user inputs", so a password built from them (`Karimova1990`) scores as weak.
 * 3. zxcvbn's score at least 3 ("safely unguessable": about 10^8 guesses or more). That is
 *    the usual bar for a site that stores argon2id hashes and throttles sign-in: 4 refuses many
 *    good passphrases, 2 lets through `Passw0rd!2024`. The estimate uses the common-password
 *    list of `@zxcvbn-ts/language-common` (passwords-common, ~49,000) with a few regional words.
 *
 * The estimator itself (zxcvbn with its dictionaries, large) is passed in: the server creates
 * it at once, the browser loads it lazily (`./password-estimator.ts`). zxcvbn's feedback ids
 * are mapped to our own i18n keys (`passwordPolicy.*`), never shown in its English words.
 * Existing passwords are not re-checked: sign-in only compares hashes.
 */

/** The policy's figures. */
export const PASSWORD_POLICY = {
  minLength: 12,
  maxLength: 128,
  /** zxcvbn's score (0–4) a password needs. */
  minScore: 3,
  /** Identifiers shorter than this are not looked for inside a password. */
  minIdentifierLength: 3,
} as const;

/**
 * What the form or the server knows about the person the password is for. Values may be
 * anything a form holds; only non-empty strings and numbers count.
 */
export interface PasswordIdentity {
  /** The username: must not be inside the password. */
  username?: unknown;
  /** An e-mail address: its part before `@` must not be inside the password. */
  email?: unknown;
  /**
   * What somebody typed to sign in or to reset a password — a username, an e-mail address or
   * a phone — treated as the username, the e-mail address or a related value by its shape.
   */
  login?: unknown;
  /** Names, phone, passport, tax IDs: they make a password weaker, but are not forbidden. */
  related?: readonly unknown[];
}

/** What zxcvbn says about a password: its score and feedback ids (untranslated). */
export interface PasswordEstimate {
  score: number;
  warning: string | null;
  suggestions: readonly string[];
}

/** zxcvbn (or a stand-in in tests): the password and the user inputs → the estimate. */
export type PasswordEstimator = (password: string, userInputs: readonly string[]) => PasswordEstimate;

/** A refusal as an i18n key with its parameters (a field error of the API). */
export interface PasswordProblem {
  key: string;
  params: Record<string, unknown>;
}

/** The policy's answer about one password. */
export interface PasswordVerdict {
  /** Whether the policy accepts it (never while `pending`). */
  acceptable: boolean;
  /** Why not, when a rule refuses it. */
  problem: PasswordProblem | undefined;
  /** Strength 0–4 for a meter: zxcvbn's score, 0 when a rule before it refused. */
  score: number | undefined;
  /** i18n keys of zxcvbn's suggestions (how to make it stronger). */
  suggestions: string[];
  /** The length and identifier rules passed but no estimator was given (it is still loading). */
  pending: boolean;
}

/** zxcvbn's warning ids, each with a key `passwordPolicy.guessable.<id>` in every locale. */
export const PASSWORD_WARNINGS = [
  'straightRow',
  'keyPattern',
  'simpleRepeat',
  'extendedRepeat',
  'sequences',
  'recentYears',
  'dates',
  'topTen',
  'topHundred',
  'common',
  'similarToCommon',
  'wordByItself',
  'namesByThemselves',
  'commonNames',
  'userInputs',
  'pwned',
] as const;

/** zxcvbn's suggestion ids, each with a key `passwordPolicy.suggestion.<id>` in every locale. */
export const PASSWORD_SUGGESTIONS = [
  'l33t',
  'reverseWords',
  'allUppercase',
  'capitalization',
  'dates',
  'recentYears',
  'associatedYears',
  'sequences',
  'repeated',
  'longerKeyboardPattern',
  'anotherWord',
  'useWords',
  'noNeed',
  'pwned',
] as const;

const warnings: ReadonlySet<string> = new Set(PASSWORD_WARNINGS);
const suggestionIds: ReadonlySet<string> = new Set(PASSWORD_SUGGESTIONS);

/** The key of "too easy to guess" for a zxcvbn warning id (an unknown or no warning: `other`). */
export const guessableKey = (warning: string | null | undefined): string =>
  `passwordPolicy.guessable.${warning && warnings.has(warning) ? warning : 'other'}`;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim()
    ? value.trim()
    : typeof value === 'number' && Number.isFinite(value)
      ? String(value)
      : undefined;

/** Case- and width-insensitive form for "contains" (`Ｄilnoza` is `dilnoza`). */
const fold = (value: string): string => value.normalize('NFKC').toLowerCase();

const PHONE = /^[+]?[0-9][0-9 ()-]{6,}$/;

/**
 * The identity's values sorted by their role: the username, the e-mail's name part, and
 * every value zxcvbn should treat as the person's own (user inputs).
 * @example identifiersOf({ login: 'aziz@mail.uz', related: ['Karimov'] }) // { username: undefined, emailName: 'aziz', userInputs: ['aziz@mail.uz', 'aziz', 'Karimov'] }
 */
export function identifiersOf(identity: PasswordIdentity): {
  username: string | undefined;
  emailName: string | undefined;
  userInputs: string[];
} {
  const login = text(identity.login);
  const loginRole = !login ? undefined : login.includes('@') ? 'email' : PHONE.test(login) ? 'related' : 'username';
  const username = text(identity.username) ?? (loginRole === 'username' ? login : undefined);
  const email = [text(identity.email), loginRole === 'email' ? login : undefined].find((v) => v?.includes('@'));
  const emailName = email?.slice(0, email.indexOf('@')) || undefined;
  const related = [...(identity.related ?? []).map(text), loginRole === 'related' ? login : undefined];
  const userInputs = [...new Set([username, email, emailName, ...related].filter((v): v is string => Boolean(v)))];
  return { username, emailName, userInputs };
}

const contains = (password: string, identifier: string | undefined): boolean =>
  identifier !== undefined &&
  [...identifier].length >= PASSWORD_POLICY.minIdentifierLength &&
  fold(password).includes(fold(identifier));

/**
 * The policy's verdict on a new password: length, then the identifiers, then zxcvbn's score.
 * Without an estimator only the first two rules run (`pending` when they pass).
 * @example evaluatePassword('dilnoza-2024-spring', { username: 'dilnoza' }, estimator).problem // { key: 'passwordPolicy.containsUsername', params: {} }
 */
export function evaluatePassword(
  password: unknown,
  identity: PasswordIdentity,
  estimate?: PasswordEstimator,
): PasswordVerdict {
  const refuse = (key: string, params: Record<string, unknown> = {}): PasswordVerdict => ({
    acceptable: false,
    problem: { key, params },
    score: 0,
    suggestions: [],
    pending: false,
  });
  const value = typeof password === 'string' ? password : '';
  const length = [...value].length;
  if (length < PASSWORD_POLICY.minLength)
    return refuse('passwordPolicy.tooShort', { min: PASSWORD_POLICY.minLength, length });
  if (length > PASSWORD_POLICY.maxLength) return refuse('passwordPolicy.tooLong', { max: PASSWORD_POLICY.maxLength });
  const { username, emailName, userInputs } = identifiersOf(identity);
  if (contains(value, username)) return refuse('passwordPolicy.containsUsername');
  if (contains(value, emailName)) return refuse('passwordPolicy.containsEmail');
  if (!estimate) return { acceptable: false, problem: undefined, score: undefined, suggestions: [], pending: true };
  const result = estimate(value, userInputs);
  const suggestions = result.suggestions
    .filter((s) => suggestionIds.has(s))
    .map((s) => `passwordPolicy.suggestion.${s}`);
  const acceptable = result.score >= PASSWORD_POLICY.minScore;
  return {
    acceptable,
    problem: acceptable ? undefined : { key: guessableKey(result.warning), params: {} },
    score: result.score,
    suggestions,
    pending: false,
  };
}
