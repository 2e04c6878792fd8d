/**
 * Pure text masks of the input widgets: what the person sees while typing and the value the
 * form stores. Each returns both, so a widget stays a thin shell around one function.
 */
import { formatMoney } from '../../shared/format.ts';

/** What an input shows and what the form stores for it (undefined = empty). */
export interface Masked<V> {
  text: string;
  value: V | undefined;
}

/**
 * Keeps digits only, at most `max` of them (STIR 9, PINFL 14, post index 6).
 * @example maskDigits('12a34', 3) // { text: '123', value: '123' }
 */
export function maskDigits(raw: string, max: number): Masked<string> {
  const text = raw.replace(/\D/g, '').slice(0, max);
  return { text, value: text || undefined };
}

const COUNTRY = '998';

/**
 * The phone mask `+998 ## ###-##-##`. Typing digits fills the nine local digits; a pasted
 * number with the country code (with a plus, or longer than nine digits) loses the code.
 * A complete number is stored in the `phoneNumber` format (`+99890-123-45-67`); an
 * incomplete one as `+998` and its digits, which that format rejects with its own message.
 * @example maskPhone('901234567') // { text: '+998 90 123-45-67', value: '+99890-123-45-67' }
 */
export function maskPhone(raw: string): Masked<string> {
  let digits = raw.replace(/\D/g, '');
  if ((raw.trimStart().startsWith('+') || digits.length > 9) && digits.startsWith(COUNTRY)) digits = digits.slice(3);
  const local = digits.slice(0, 9);
  if (!local) return { text: '', value: undefined };
  const parts = [local.slice(0, 2), local.slice(2, 5), local.slice(5, 7), local.slice(7, 9)];
  let text = `+${COUNTRY} ${parts[0]}`;
  if (parts[1]) text += ` ${parts[1]}`;
  if (parts[2]) text += `-${parts[2]}`;
  if (parts[3]) text += `-${parts[3]}`;
  const value =
    local.length === 9 ? `+${COUNTRY}${parts[0]}-${parts[1]}-${parts[2]}-${parts[3]}` : `+${COUNTRY}${local}`;
  return { text, value };
}

/**
 * The text a stored phone shows.
 * @example phoneText('+99890-123-45-67') // '+998 90 123-45-67'
 */
export const phoneText = (value: unknown): string =>
  typeof value === 'string' && value ? maskPhone(value.startsWith('+') ? value : `+${value}`).text : '';

/**
 * The money a person typed: digits only (spaces, dots and letters are dropped).
 * @example maskMoney('1 234x567') // { text: '1 234 567', value: 1234567 }
 */
export function maskMoney(raw: string): Masked<number> {
  const digits = raw
    .replace(/\D/g, '')
    .replace(/^0+(?=\d)/, '')
    .slice(0, 15);
  if (!digits) return { text: '', value: undefined };
  const value = Number(digits);
  return { text: formatMoney(value), value };
}

/** The number typed into a number input, or undefined for empty or unfinished text (`-`, `1.`). */
export function parseNumber(raw: string): number | undefined {
  const text = raw.trim().replace(',', '.');
  if (!/^-?(\d+\.?\d*|\.\d+)$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * Clamps a number to the schema's bounds (spec §5: "a number input may clamp to min and max").
 * @example clampNumber(120, { minimum: 0, maximum: 100 }) // 100
 */
export function clampNumber(value: number, bounds: { minimum?: number; maximum?: number; integer?: boolean }): number {
  let n = bounds.integer ? Math.round(value) : value;
  if (typeof bounds.minimum === 'number' && n < bounds.minimum) n = bounds.minimum;
  if (typeof bounds.maximum === 'number' && n > bounds.maximum) n = bounds.maximum;
  return n;
}
