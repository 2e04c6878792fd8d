/**
 * Links between screens of one entity (entityScreenPath) with a second screen family: the
 * delegated user screens beside the administrators' ones, over the real screen definitions.
 */
import { describe, expect, it } from 'vitest';
import { createAbility, rulesFromPermissions } from '../../src/shared/ability.ts';
import { entityScreenPath } from '../../src/engine/common/routes.ts';

const admin = createAbility([{ action: 'manage', subject: 'all' }]);
const delegate = createAbility(rulesFromPermissions(['delegate User', 'read FairPrice']));

describe('entityScreenPath with screen families', () => {
  it('keeps an administrator inside the family of the screen they are on', () => {
    expect(entityScreenPath('portal-user', ['form', 'wizard'], undefined, admin, '/admin/users')).toBe(
      '/admin/users/new',
    );
    expect(entityScreenPath('portal-user', ['form', 'wizard'], undefined, admin, '/admin/fair-price-users')).toBe(
      '/admin/fair-price-users/new',
    );
    expect(entityScreenPath('portal-user', ['detail'], 5, admin, '/admin/fair-price-users/new')).toBe(
      '/admin/fair-price-users/5',
    );
    expect(entityScreenPath('portal-user', ['form', 'wizard'], 5, admin, '/admin/fair-price-users/:id')).toBe(
      '/admin/fair-price-users/5/edit',
    );
    // Without a family the plain screens are chosen, never a view.
    expect(entityScreenPath('portal-user', ['form', 'wizard'], undefined, admin)).toBe('/admin/users/new');
  });

  it('leads a delegate only to the screens their marker permission opens', () => {
    expect(entityScreenPath('portal-user', ['list'], undefined, delegate)).toBe('/admin/fair-price-users');
    expect(entityScreenPath('portal-user', ['form', 'wizard'], undefined, delegate, '/admin/fair-price-users')).toBe(
      '/admin/fair-price-users/new',
    );
    expect(entityScreenPath('portal-user', ['detail'], 7, delegate, '/admin/fair-price-users/:id/edit')).toBe(
      '/admin/fair-price-users/7',
    );
    // From outside the family the view screens are not picked up (a partial wizard stays a record view).
    expect(entityScreenPath('portal-user', ['form', 'wizard'], undefined, delegate)).toBeUndefined();
  });

  it('keeps the partial wizard views out of the edit link', () => {
    expect(entityScreenPath('tender', ['form', 'wizard'], 3, admin, '/admin/tenders/:id')).toMatch(
      /^\/admin\/tenders\/3\/edit$/,
    );
  });
});
