// @vitest-environment happy-dom
/** Which screen an entity's buttons lead to: only one the user may open, and the entity's own rather than a public page of it. */
import { describe, expect, it } from 'vitest';
import { createAbility, rulesFromPermissions } from '../../shared/ability.ts';
import { entityScreenPath } from './routes.ts';
import { screens } from '../../definitions/client.ts';

describe('screens a button leads to', () => {
  const edit = screens.find(
    (s) => s.kind === 'form' && s.route.includes(':id') && !s.options?.view && s.permission !== 'public',
  )!;

  it('counts a screen whose permission the user lacks as absent', () => {
    const [rule] = rulesFromPermissions([edit.permission]);
    expect(entityScreenPath(edit.entity!, ['form', 'wizard'], 3)).toBeDefined();
    expect(
      entityScreenPath(
        edit.entity!,
        ['form', 'wizard'],
        3,
        createAbility([{ action: 'read', subject: rule!.subject }]),
      ),
    ).toBeUndefined();
    expect(entityScreenPath(edit.entity!, ['form', 'wizard'], 3, createAbility([rule!]))).toBe(
      edit.route.replace(':id', '3'),
    );
  });

  it("leads an entity's buttons to its own screen, not to a public page of it that is in the menu", () => {
    const entry = screens.find(
      (s) => s.permission === 'public' && s.menu && s.entity && s.kind === 'form' && !s.route.includes(':id'),
    )!;
    const own = screens.find(
      (s) =>
        s.entity === entry.entity &&
        s.permission !== 'public' &&
        s.kind === 'form' &&
        !s.route.includes(':id') &&
        !s.options?.view,
    )!;
    expect(entityScreenPath(entry.entity!, ['form', 'wizard'])).toBe(own.route);
  });

  it("leads a record's edit button to the edit screen of its kind (the screen whose initial values it has)", () => {
    const near = '/admin/online-reports/:id';
    const edit = (record?: Record<string, unknown>) =>
      entityScreenPath('online-report', ['form', 'wizard'], 9, undefined, near, record);
    expect(edit({ kind: 'finance' })).toBe('/admin/online-reports/9/edit-finance');
    expect(edit({ kind: 'digital' })).toBe('/admin/online-reports/9/edit-digital-markets');
    // A goods report, or no record given: the entity's plain edit wizard.
    expect(edit({ kind: 'goods' })).toBe('/admin/online-reports/9/edit');
    expect(edit()).toBe('/admin/online-reports/9/edit');
    // The list's "new" button leads to the plain wizard, not to a wizard of one kind.
    expect(entityScreenPath('online-report', ['form', 'wizard'], undefined, undefined, '/admin/online-reports')).toBe(
      '/admin/online-reports/new',
    );
  });
});
