/**
 * The password policy on its own (src/shared/password-policy.ts with the real zxcvbn
 * estimator): the length in characters, the identifiers it looks for and how, zxcvbn's score
 * bar, and that every feedback id zxcvbn can give has our own words in all four locales.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Options } from '@zxcvbn-ts/core';
import { REPO_ROOT } from '../../src/server/app.ts';
import { LOCALES } from '../../src/shared/locales.ts';
import { createPasswordEstimator } from '../../src/shared/password-estimator.ts';
import {
  evaluatePassword,
  guessableKey,
  identifiersOf,
  PASSWORD_POLICY,
  PASSWORD_SUGGESTIONS,
  PASSWORD_WARNINGS,
  type PasswordEstimator,
} from '../../src/shared/password-policy.ts';

const estimate = createPasswordEstimator();
const problemOf = (password: string, identity = {}) => evaluatePassword(password, identity, estimate).problem?.key;

describe('the password policy', () => {
  it('refuses 12345678, 123456789 and password1234, and accepts a passphrase', () => {
    expect(evaluatePassword('12345678', {}, estimate).problem).toEqual({
      key: 'passwordPolicy.tooShort',
      params: { min: 12, length: 8 },
    });
    expect(problemOf('123456789')).toBe('passwordPolicy.tooShort');
    expect(problemOf('password1234')).toBe('passwordPolicy.guessable.similarToCommon');
    expect(problemOf('123456789012')).toMatch(/^passwordPolicy\.guessable\./);
    expect(problemOf('qwertyuiop12')).toMatch(/^passwordPolicy\.guessable\./);
    expect(problemOf('aaaaaaaaaaaa')).toBe('passwordPolicy.guessable.simpleRepeat');
    const good = evaluatePassword('olive kettle marathon 42', {}, estimate);
    expect(good).toMatchObject({ acceptable: true, problem: undefined, pending: false });
    expect(good.score).toBeGreaterThanOrEqual(PASSWORD_POLICY.minScore);
  });

  it('counts characters, not UTF-16 units: 12 to 128', () => {
    // Eleven emoji are 22 UTF-16 units but 11 characters.
    expect(problemOf('🙂'.repeat(11))).toBe('passwordPolicy.tooShort');
    expect(problemOf('x'.repeat(129))).toBe('passwordPolicy.tooLong');
    expect(evaluatePassword('x'.repeat(129), {}, estimate).problem!.params).toEqual({ max: 128 });
    const stub: PasswordEstimator = () => ({ score: 4, warning: null, suggestions: [] });
    expect(evaluatePassword('abcdefghijk', {}, stub).acceptable).toBe(false);
    expect(evaluatePassword('abcdefghijkl', {}, stub).acceptable).toBe(true);
    expect(evaluatePassword('x'.repeat(128), {}, stub).acceptable).toBe(true);
    expect(evaluatePassword(undefined, {}, stub).problem?.key).toBe('passwordPolicy.tooShort');
  });

  it("refuses the username and the e-mail address's name anywhere inside, whatever the case or width", () => {
    expect(problemOf('my Dilnoza.K harbour', { username: 'dilnoza.k' })).toBe('passwordPolicy.containsUsername');
    expect(problemOf('my ＤＩＬＮＯＺＡ.K harbour', { username: 'dilnoza.k' })).toBe('passwordPolicy.containsUsername');
    expect(problemOf('violin-RAHIMOVA.Z-harbour', { email: 'rahimova.z@example.uz' })).toBe(
      'passwordPolicy.containsEmail',
    );
    // A login is sorted by its shape: an address, a phone, else a username.
    expect(problemOf('violin-aziz77-harbour', { login: 'aziz77@mail.uz' })).toBe('passwordPolicy.containsEmail');
    expect(problemOf('violin-aziz77-harbour', { login: 'aziz77' })).toBe('passwordPolicy.containsUsername');
    expect(identifiersOf({ login: '+99890-123-45-67' })).toEqual({
      username: undefined,
      emailName: undefined,
      userInputs: ['+99890-123-45-67'],
    });
    // Identifiers under three characters are not looked for.
    expect(problemOf('olive kettle marathon 42', { username: 'ol', email: 'ke@x.uz' })).toBeUndefined();
  });

  it('makes names, documents and phones weaken a password without forbidding them', () => {
    expect(problemOf('Karimova1990!', { related: ['Karimova'] })).toBe('passwordPolicy.guessable.userInputs');
    expect(problemOf('Karimova1990!')).toBeUndefined();
    expect(problemOf('ali olive kettle marathon', { related: ['Ali'] })).toBeUndefined();
    const seen: string[][] = [];
    evaluatePassword(
      'olive kettle marathon 42',
      { username: 'aziz', email: 'a.k@mail.uz', related: ['Karimov', 42, '', null] },
      (_, inputs) => {
        seen.push([...inputs]);
        return { score: 4, warning: null, suggestions: [] };
      },
    );
    expect(seen).toEqual([['aziz', 'a.k@mail.uz', 'a.k', 'Karimov', '42']]);
  });

  it('without an estimator applies the first rules and says the rest is pending', () => {
    expect(evaluatePassword('short', {}).problem?.key).toBe('passwordPolicy.tooShort');
    expect(evaluatePassword('aziz harbour violin', { username: 'aziz' }).problem?.key).toBe(
      'passwordPolicy.containsUsername',
    );
    expect(evaluatePassword('olive kettle marathon 42', {})).toMatchObject({
      acceptable: false,
      pending: true,
      problem: undefined,
      score: undefined,
    });
  });

  it("maps zxcvbn's feedback ids to keys, an unknown warning to the general one", () => {
    const translations = new Options().translations;
    expect(Object.keys(translations.warnings).sort()).toEqual([...PASSWORD_WARNINGS].sort());
    expect(Object.keys(translations.suggestions).sort()).toEqual([...PASSWORD_SUGGESTIONS].sort());
    expect(guessableKey('topTen')).toBe('passwordPolicy.guessable.topTen');
    expect(guessableKey('somethingNew')).toBe('passwordPolicy.guessable.other');
    expect(guessableKey(null)).toBe('passwordPolicy.guessable.other');
    const stub: PasswordEstimator = () => ({ score: 1, warning: 'dates', suggestions: ['dates', 'unknownSuggestion'] });
    expect(evaluatePassword('olive kettle marathon 42', {}, stub)).toMatchObject({
      acceptable: false,
      problem: { key: 'passwordPolicy.guessable.dates' },
      suggestions: ['passwordPolicy.suggestion.dates'],
    });
  });

  it('has its words in all four locales', () => {
    const keys = [
      'tooShort',
      'tooLong',
      'containsUsername',
      'containsEmail',
      'meter',
      'meterValue',
      'checking',
      'rules',
      'acceptable',
      ...[...PASSWORD_WARNINGS, 'other'].map((w) => `guessable.${w}`),
      ...PASSWORD_SUGGESTIONS.map((s) => `suggestion.${s}`),
      ...[0, 1, 2, 3, 4].map((n) => `strength.${n}`),
    ];
    for (const locale of LOCALES) {
      const texts = JSON.parse(
        readFileSync(path.join(REPO_ROOT, `src/i18n/locales/${locale}.json`), 'utf8'),
      ).passwordPolicy;
      for (const key of keys) {
        const value = key.split('.').reduce((node, part) => node?.[part], texts);
        expect(typeof value === 'string' && value.length > 0, `${locale}: passwordPolicy.${key}`).toBe(true);
      }
    }
  });
});
