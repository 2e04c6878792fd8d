// @vitest-environment happy-dom
/** The persisted client settings: typed round trips, and what logout clears and keeps. */
import { describe, expect, it } from 'vitest';
import { clearSession, getSetting, setSetting } from './settings.ts';
import { READ_ALL_RULES } from '../shared/ability.ts';

describe('persisted settings', () => {
  it('round-trips typed values and logout clears the session but keeps preferences', () => {
    setSetting('accessToken', 'abc');
    setSetting('permissionRules', [{ action: 'manage', subject: 'all' }]);
    setSetting('locale', 'ru');
    setSetting('itemsPerPage', { 'x-list': 50 });
    expect(getSetting('accessToken')).toBe('abc');
    clearSession();
    expect(getSetting('accessToken')).toBeNull();
    expect(getSetting('permissionRules')).toEqual(READ_ALL_RULES);
    expect(getSetting('locale')).toBe('ru');
    expect(getSetting('itemsPerPage')).toEqual({ 'x-list': 50 });
    localStorage.setItem('portal.menuCondensed', '{broken');
    expect(getSetting('menuCondensed')).toBe(false);
  });
});
