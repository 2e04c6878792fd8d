import { describe, expect, it } from 'vitest';
import { portalFormats } from '../../shared/validation/vocabulary.ts';
import { clampNumber, maskDigits, maskMoney, maskPhone, parseNumber, phoneText } from './masks.ts';

describe('maskPhone', () => {
  it('shows +998 ## ###-##-## while typing and stores the phoneNumber format when complete', () => {
    expect(maskPhone('9')).toEqual({ text: '+998 9', value: '+9989' });
    expect(maskPhone('+998 90 12')).toEqual({ text: '+998 90 12', value: '+9989012' });
    const full = maskPhone('+998 90 123-45-6712');
    expect(full).toEqual({ text: '+998 90 123-45-67', value: '+99890-123-45-67' });
    expect(portalFormats.phoneNumber.test(full.value!)).toBe(true);
  });

  it('drops the country code of a pasted number but not the digits of a local one', () => {
    expect(maskPhone('998901234567').value).toBe('+99890-123-45-67');
    expect(maskPhone('+998 (93) 555 44 33').value).toBe('+99893-555-44-33');
    expect(maskPhone('998123456').value).toBe('+99899-812-34-56');
  });

  it('is empty for no digits and round-trips a stored number', () => {
    expect(maskPhone('+998 ')).toEqual({ text: '', value: undefined });
    expect(phoneText('+99871-200-00-01')).toBe('+998 71 200-00-01');
    expect(phoneText(undefined)).toBe('');
  });
});

describe('money', () => {
  it('keeps digits of typed money and stores a number', () => {
    expect(maskMoney('1 234x567')).toEqual({ text: '1 234 567', value: 1234567 });
    expect(maskMoney('000')).toEqual({ text: '0', value: 0 });
    expect(maskMoney('')).toEqual({ text: '', value: undefined });
  });
});

describe('digits, numbers', () => {
  it('keeps digits only up to a length', () => {
    expect(maskDigits('30 1-2a', 9)).toEqual({ text: '3012', value: '3012' });
    expect(maskDigits('1234567890', 9).value).toBe('123456789');
    expect(maskDigits('abc', 9).value).toBeUndefined();
  });

  it('parses finished numbers only and clamps them', () => {
    expect(parseNumber('12,5')).toBe(12.5);
    expect(parseNumber('-')).toBeUndefined();
    expect(parseNumber('1.')).toBe(1);
    expect(parseNumber('1e5')).toBeUndefined();
    expect(clampNumber(120, { minimum: 0, maximum: 100 })).toBe(100);
    expect(clampNumber(-3, { minimum: 0 })).toBe(0);
    expect(clampNumber(2.6, { integer: true })).toBe(3);
  });
});
