// @vitest-environment happy-dom
/**
 * The shared ability with field rules, as sign-in hands them over: how several roles combine,
 * which fields a form marks read-only or leaves out (hidden), and what the session stores.
 */
import { describe, expect, it } from 'vitest';
import {
  abilityOfRoles,
  createAbility,
  fieldRulesOf,
  hiddenFieldsOf,
  mayChangeField,
  readOnlyFieldsOf,
  rulesFromPermissions,
} from '../shared/ability.ts';
import { saveSession } from './session.ts';
import { getSetting } from './settings.ts';

const executor = {
  permissions: ['read Case', 'update Case'],
  readOnlyFields: [{ subject: 'Case', fields: ['/regionId', '/customer'] }],
};

describe('field rules', () => {
  it('turns read-only fields into CASL "cannot update" rules that leave the rest changeable', () => {
    const { ability, fieldRules } = abilityOfRoles([executor]);
    expect(fieldRules).toEqual([
      { action: 'update', subject: 'Case', fields: ['/customer', '/regionId'], inverted: true },
    ]);
    expect(ability.can('update', 'Case')).toBe(true);
    expect(ability.can('update', 'Case', '/regionId')).toBe(false);
    expect(ability.can('read', 'Case', '/regionId')).toBe(true);
    expect(readOnlyFieldsOf(ability, 'Case')).toEqual(['/customer', '/regionId']);
    expect(mayChangeField(ability, 'Case', '/customer/pnfl')).toBe(false);
    expect(mayChangeField(ability, 'Case', '/phone')).toBe(true);
  });

  it('keeps a field read-only only where every role that may update the subject says so', () => {
    expect(
      fieldRulesOf([
        executor,
        { permissions: ['update Case'], readOnlyFields: [{ subject: 'Case', fields: ['/regionId'] }] },
      ]),
    ).toEqual([{ action: 'update', subject: 'Case', fields: ['/regionId'], inverted: true }]);
    expect(fieldRulesOf([executor, { permissions: ['manage all'] }])).toEqual([]);
    // A role that may not update the subject does not lift anything.
    expect(fieldRulesOf([executor, { permissions: ['read Case'] }])).toHaveLength(1);
    expect(readOnlyFieldsOf(createAbility(rulesFromPermissions(['read Case'])), 'Case')).toEqual([]);
  });

  it('turns hidden fields into CASL "cannot read" rules: the subject stays readable, those fields do not', () => {
    const owner = {
      permissions: ['read Case'],
      hiddenFields: [{ subject: 'Case', fields: ['/customer/pnfl', '/phone'] }],
    };
    const { ability, fieldRules } = abilityOfRoles([owner]);
    expect(fieldRules).toEqual([
      { action: 'read', subject: 'Case', fields: ['/customer/pnfl', '/phone'], inverted: true },
    ]);
    expect(ability.can('read', 'Case')).toBe(true);
    expect(ability.can('read', 'Case', '/phone')).toBe(false);
    expect(ability.can('read', 'Case', '/customer/name')).toBe(true);
    expect(hiddenFieldsOf(ability, 'Case')).toEqual(['/customer/pnfl', '/phone']);
    // Hidden is about reading: nothing here becomes read-only for a role that may not update anyway.
    expect(readOnlyFieldsOf(ability, 'Case')).toEqual([]);
  });

  it('keeps a field hidden only where every role that may read the subject hides it', () => {
    const owner = {
      permissions: ['read Case'],
      hiddenFields: [{ subject: 'Case', fields: ['/customer/pnfl', '/phone'] }],
    };
    const clerk = {
      permissions: ['read Case', 'update Case'],
      hiddenFields: [{ subject: 'Case', fields: ['/phone', '/note'] }],
    };
    // Two readers: only what both hide stays hidden.
    expect(fieldRulesOf([owner, clerk])).toEqual([
      { action: 'read', subject: 'Case', fields: ['/phone'], inverted: true },
    ]);
    expect(hiddenFieldsOf(abilityOfRoles([owner, clerk]).ability, 'Case')).toEqual(['/phone']);
    // A reader hiding nothing lifts everything, as does `manage all`.
    expect(fieldRulesOf([owner, { permissions: ['read Case'] }])).toEqual([]);
    expect(hiddenFieldsOf(abilityOfRoles([owner, { permissions: ['manage all'] }]).ability, 'Case')).toEqual([]);
    // A role that may not read the subject lifts nothing, even when it may do other things to it.
    expect(fieldRulesOf([owner, { permissions: ['create Case', 'read Other'] }])).toEqual([
      { action: 'read', subject: 'Case', fields: ['/customer/pnfl', '/phone'], inverted: true },
    ]);
    // A role hiding fields of a subject it may not read restricts nothing.
    expect(
      fieldRulesOf([{ permissions: ['read Other'], hiddenFields: [{ subject: 'Case', fields: ['/phone'] }] }]),
    ).toEqual([]);
    // Read-only and hidden fields combine independently, per action.
    const both = fieldRulesOf([{ ...clerk, readOnlyFields: [{ subject: 'Case', fields: ['/regionId'] }] }]);
    expect(both).toEqual([
      { action: 'update', subject: 'Case', fields: ['/regionId'], inverted: true },
      { action: 'read', subject: 'Case', fields: ['/note', '/phone'], inverted: true },
    ]);
  });

  it('stores the field rules after the permissions at sign-in', () => {
    const { fieldRules } = abilityOfRoles([executor]);
    saveSession({
      token: 't',
      refreshToken: 'r',
      id: 1,
      username: 'e',
      employeeId: null,
      employee: { firstName: 'A', lastName: 'B', middleName: null },
      isOuter: false,
      uploadPath: null,
      permissions: executor.permissions,
      fieldRules,
    });
    const stored = createAbility(getSetting('permissionRules'));
    expect(stored.can('update', 'Case')).toBe(true);
    expect(readOnlyFieldsOf(stored, 'Case')).toEqual(['/customer', '/regionId']);
  });
});
