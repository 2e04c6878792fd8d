/**
 * The portal's own string formats, shared by the server (request validation), the form's
 * validators (generated at build time, and the compiler: `customizeValidator({ customFormats })`)
 * and the form's messages; with the keywords in vocabulary.ts.
 * Every pattern is anchored: the legacy portal's phone rule was not, and accepted
 * anything that merely started like a phone number.
 */
export const portalFormats = {
  /** `+99890-123-45-67`: optional plus, 8/9 prefix digits, operator code, dashed number. */
  phoneNumber: /^[+]?[8-9]{1,3}[0-9]{2}-[0-9]{3}-[0-9]{2}-[0-9]{2}$/,
  /** Either a phone number in the form above or an e-mail address. */
  phoneOrEmail: /^(?:[+]?[8-9]{1,3}[0-9]{2}-[0-9]{3}-[0-9]{2}-[0-9]{2}|[^\s@]+@[^\s@]+\.[^\s@]{2,})$/,
  /** Tax identification number (STIR / INN): 9 digits. */
  stir: /^[0-9]{9}$/,
  /** Personal identification number (PINFL / JSHSHIR): 14 digits. */
  pinfl: /^[0-9]{14}$/,
  /** National product classifier code (MXIK / IKPU): 17 digits. */
  mxik: /^[0-9]{17}$/,
  /** A case number: letters and digits in groups joined by "-" or "/" (e.g. 14-05/123); public case tracking refuses one without them. */
  caseNumber: /^[^\s/-]+(?:[-/][^\s/-]+)+$/,
  /** A cadastre number of real estate: a two-digit region then four to seven groups of digits joined by ":" (10:07:01:02:03:0045). */
  cadastre: /^[0-9]{2}(?::[0-9]{1,4}){4,7}$/,
  /** Customs tariff code (TN VED / HS): 10 digits. */
  tnved: /^[0-9]{10}$/,
  /** Post index: 6 digits. */
  postIndex: /^[0-9]{6}$/,
  /** A whole number typed as text. */
  integer: /^-?[0-9]+$/,
  /** A decimal number typed as text (dot or comma). */
  double: /^-?[0-9]+(?:[.,][0-9]+)?$/,
} as const satisfies Record<string, RegExp>;

export type PortalFormat = keyof typeof portalFormats;
