/** The person OneID vouched for, in the portal's terms. */
export interface OneIdIdentity {
  provider: 'oneid';
  /** The provider's stable subject identifier (`sub`). */
  subject: string;
  /** Personal identification number (JSHSHIR / PINFL), from OneID's `pin`. */
  pinfl?: string;
  /** Taxpayer identification number (STIR / INN), from `tin`. */
  tin?: string;
  /** "Surname Given-name Patronymic" as OneID gives it, or assembled from the parts. */
  fullName?: string;
  firstName?: string;
  lastName?: string;
  middleName?: string;
  email?: string;
  phone?: string;
}

const text = (value: unknown): string | undefined => {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
};

const first = (claims: Record<string, unknown>, ...names: string[]): string | undefined => {
  for (const name of names) {
    const value = text(claims[name]);
    if (value !== undefined) return value;
  }
  return undefined;
};

/**
 * Maps OneID's claim names (`pin`, `tin`, `first_name`, `sur_name`/`last_name`,
 * `mid_name`, `full_name`, `email`, `mob_phone_no`) to the identity, falling back to the
 * standard OpenID Connect claims (`name`, `given_name`, `family_name`, `middle_name`,
 * `email`, `phone_number`). Blank values count as absent; numbers become strings.
 * `subject` comes from `sub`, which must be present.
 */
export function mapOneIdClaims(claims: Record<string, unknown>): OneIdIdentity {
  const subject = first(claims, 'sub');
  if (subject === undefined) throw new TypeError('claims without "sub"');
  const firstName = first(claims, 'first_name', 'given_name');
  const lastName = first(claims, 'sur_name', 'last_name', 'family_name');
  const middleName = first(claims, 'mid_name', 'middle_name');
  const assembled = [lastName, firstName, middleName].filter((part) => part !== undefined).join(' ');
  const fields: Omit<OneIdIdentity, 'provider' | 'subject'> = {
    pinfl: first(claims, 'pin', 'pinfl'),
    tin: first(claims, 'tin'),
    fullName: first(claims, 'full_name', 'name') ?? (assembled === '' ? undefined : assembled),
    firstName,
    lastName,
    middleName,
    email: first(claims, 'email'),
    phone: first(claims, 'mob_phone_no', 'phone_number'),
  };
  const identity: OneIdIdentity = { provider: 'oneid', subject };
  for (const [key, value] of Object.entries(fields) as Array<[keyof typeof fields, string | undefined]>) {
    if (value !== undefined) identity[key] = value;
  }
  return identity;
}
