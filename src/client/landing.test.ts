/**
 * Where sign-in leads (landing.ts), over hand-made screens: back to an explicit safe redirect;
 * else staff to the workspace screen, outer users to the first cabinet screen (menu order) they
 * may open, and the public home when the definitions have neither.
 */
import { describe, expect, it } from 'vitest';
import type { ScreenDefinition } from '../generated/meta.ts';
import { landingAfterSignIn, staffHomeRoute } from './landing.ts';

const screen = (over: Partial<ScreenDefinition>): ScreenDefinition =>
  ({ id: 'x', route: '/x', kind: 'page', titleKey: 't', permission: 'signedIn', ...over }) as ScreenDefinition;
const screens = [
  screen({ id: 'home', route: '/', permission: 'public', menu: { section: 's', order: 0 } }),
  screen({
    id: 'pharmacy',
    route: '/cabinet/pharmacy',
    kind: 'list',
    permission: 'read Shop',
    audience: 'outer',
    menu: { section: 'c', order: 5 },
  }),
  screen({
    id: 'mine',
    route: '/cabinet/mine',
    kind: 'list',
    permission: 'read Case',
    audience: 'outer',
    menu: { section: 'c', order: 10 },
  }),
  screen({ id: 'one', route: '/cabinet/mine/:id', kind: 'detail', permission: 'read Case', audience: 'outer' }),
  screen({ id: 'work', route: '/desk', kind: 'workspace', audience: 'staff' }),
];
const staff = { isOuter: false, permissions: ['read Case'] };
const citizen = { isOuter: true, permissions: ['read Case', 'create Case'] };

describe('landing after sign-in', () => {
  it('staff land on the workspace, outer users on the first cabinet screen they may open', () => {
    expect(landingAfterSignIn(staff, null, screens)).toBe('/desk');
    expect(landingAfterSignIn(citizen, null, screens)).toBe('/cabinet/mine');
    expect(landingAfterSignIn({ isOuter: true, permissions: ['read Shop', 'read Case'] }, '', screens)).toBe(
      '/cabinet/pharmacy',
    );
  });

  it('an explicit redirect back to a page of the portal wins; another site does not', () => {
    expect(landingAfterSignIn(staff, '/admin/letters?page=2', screens)).toBe('/admin/letters?page=2');
    expect(landingAfterSignIn(citizen, '/cabinet/mine/4', screens)).toBe('/cabinet/mine/4');
    expect(landingAfterSignIn(staff, '//evil.example/x', screens)).toBe('/desk');
    expect(landingAfterSignIn(citizen, 'https://evil.example', screens)).toBe('/cabinet/mine');
  });

  it('without such screens, the public home', () => {
    const publicOnly = screens.filter((s) => s.kind !== 'workspace' && !s.audience);
    expect(landingAfterSignIn(staff, null, publicOnly)).toBe('/');
    expect(landingAfterSignIn({ isOuter: true, permissions: [] }, null, screens)).toBe('/');
    expect(staffHomeRoute(publicOnly)).toBeUndefined();
    expect(staffHomeRoute(screens)).toBe('/desk');
  });
});
