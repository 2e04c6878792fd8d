/**
 * A contact (phone number or e-mail address) as staff see it in a list of sent messages: enough
 * to tell two recipients apart, not enough to call or write to them.
 */

/**
 * A phone number (any punctuation) with its middle hidden: the country and operator codes and
 * the last two digits stay.
 * @example maskPhone('998901234567') // '+998 90 *** ** 67'
 */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (digits.length === 12) return `+${digits.slice(0, 3)} ${digits.slice(3, 5)} *** ** ${digits.slice(-2)}`;
  if (digits.length <= 4) return '*'.repeat(digits.length);
  return `${digits.slice(0, 2)}${'*'.repeat(digits.length - 4)}${digits.slice(-2)}`;
}

/**
 * An e-mail address with its local part hidden but its first letter.
 * @example maskEmail('citizen@example.uz') // 'c***@example.uz'
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at <= 0 ? '***' : `${email[0]}***${email.slice(at)}`;
}

/** The contact of a channel, masked. */
export const maskContact = (channel: string, to: string): string =>
  channel === 'email' ? maskEmail(to) : maskPhone(to);
