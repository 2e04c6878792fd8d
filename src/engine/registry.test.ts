// @vitest-environment happy-dom
/** Screens' routes and permissions: permission strings as CASL rules, a route's id filled in, a screen-kind chunk that never arrives. */
import { describe, expect, it } from 'vitest';
import { withTimeout, loadScreenKind } from './registry.ts';
import { canOpen, createAbility, rulesFromPermissions } from '../shared/ability.ts';
import { fillRoute } from './common/routes.ts';

describe('routes and permissions', () => {
  it('splits permission strings at the first space into CASL rules', () => {
    expect(rulesFromPermissions(['read Appeal', 'SEND_TO_REGION Pharmacy Appeal', 'broken'])).toEqual([
      { action: 'read', subject: 'Appeal' },
      { action: 'SEND_TO_REGION', subject: 'Pharmacy Appeal' },
    ]);
    const ability = createAbility(rulesFromPermissions(['read Appeal']));
    expect(canOpen(ability, 'public')).toBe(true);
    expect(canOpen(ability, 'read Appeal')).toBe(true);
    expect(canOpen(ability, 'create Appeal')).toBe(false);
    expect(canOpen(createAbility([{ action: 'manage', subject: 'all' }]), 'create Appeal')).toBe(true);
  });

  it('fills a route id and gives up on a chunk that never arrives', async () => {
    expect(fillRoute('/admin/x/:id/edit', 5)).toBe('/admin/x/5/edit');
    await expect(withTimeout(new Promise(() => undefined), 20)).rejects.toThrow('chunk load timed out after 20 ms');
    await expect(withTimeout(Promise.resolve(1), 20)).resolves.toBe(1);
    const unknown = await loadScreenKind('hologram');
    expect(unknown.default.name).toBe('UnknownScreen');
  });
});
