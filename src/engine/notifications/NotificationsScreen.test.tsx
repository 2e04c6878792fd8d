// @vitest-environment happy-dom
/**
 * The notifications screen with a scripted REST side: the box's tabs, unread rows bold with a
 * dot, the record link only where the server gives one, opening a row (click) marks it read
 * and leads to the record, "mark all as read", "show more", and the spec's "no notifications".
 * A push on the live channel reads the list again.
 */
import { describe, expect, it, vi } from 'vitest';
import { act, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { ScreenDefinition } from '../../generated/meta.ts';
import { createScriptedDataProvider, renderWithProviders } from '../form/testing.tsx';
import NotificationsScreen from './NotificationsScreen.tsx';

const live = vi.hoisted(() => ({ handlers: new Map<string, (body: Record<string, unknown>) => void>() }));
vi.mock('../../client/live.ts', () => ({
  subscribeLive: (channel: string, handler: (body: Record<string, unknown>) => void) => {
    live.handlers.set(channel, handler);
    return () => live.handlers.delete(channel);
  },
}));

const SCREEN = {
  id: 'notifications',
  route: '/admin/notifications',
  kind: 'notifications',
  titleKey: 'notifications.menu.all',
  options: { box: 'all' },
} as unknown as ScreenDefinition;

const item = (id: number, over: Record<string, unknown> = {}) => ({
  id,
  box: 'incoming',
  text: `Notice ${id}`,
  entity: 'correspondence',
  recordId: id,
  recordLabel: `R-${id}`,
  link: `/admin/documents/${id}`,
  sender: { id: '1', name: 'Admin' },
  recipient: { id: '5', name: 'Me' },
  createdAt: '2026-11-26T10:00:00.000Z',
  read: false,
  ...over,
});

function setup(pages: Array<{ list: unknown[]; total: number }>) {
  let listed = 0;
  const send = vi.fn(async (method: string, path: string) => {
    if (method === 'GET' && path.startsWith('/api/notifications?')) return pages[Math.min(listed++, pages.length - 1)];
    if (method === 'POST' && path.endsWith('/read')) return { count: 0 };
    if (method === 'POST' && path === '/api/notifications/read-all') return { count: 0 };
    throw new Error(`unexpected ${method} ${path}`);
  });
  const view = renderWithProviders(
    <MemoryRouter initialEntries={['/admin/notifications']}>
      <Routes>
        <Route path="/admin/notifications" element={<NotificationsScreen screen={SCREEN} />} />
        <Route path="/admin/documents/:id" element={<p data-opened="record">record</p>} />
      </Routes>
    </MemoryRouter>,
    { dataProvider: createScriptedDataProvider(send) },
  );
  return { ...view, send, listed: () => listed };
}
const rows = () => [...document.querySelectorAll<HTMLElement>('[data-notification]')];

describe('notifications screen', () => {
  it('says there are no notifications', async () => {
    setup([{ list: [], total: 0 }]);
    await waitFor(() => expect(document.querySelector('[data-state="empty"]')?.textContent).toBe('No notifications'));
    expect([...document.querySelectorAll('[data-box]')].map((t) => t.getAttribute('data-box'))).toEqual([
      'all',
      'incoming',
      'outgoing',
    ]);
  });

  it('shows unread bold with a dot, the link only when given, who from or to; opening marks read and opens the record', async () => {
    const { user, send } = setup([
      {
        list: [
          item(3),
          item(2, { read: true, link: null }),
          item(1, { box: 'outgoing', sender: { id: '5', name: 'Me' }, recipient: { id: '7', name: 'Bobur' } }),
        ],
        total: 3,
      },
    ]);
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows().map((r) => r.dataset.read)).toEqual(['false', 'true', 'true']);
    expect(rows()[0]!.textContent).toContain('From: Admin');
    expect(rows()[1]!.textContent).toContain('The record is not available to you');
    expect(rows()[2]!.textContent).toContain('To: Bobur');
    expect(rows()[0]!.querySelector('a')?.getAttribute('href')).toBe('/admin/documents/3');
    await user.click(rows()[0]!);
    await waitFor(() => expect(document.querySelector('[data-opened="record"]')).not.toBeNull());
    expect(send.mock.calls.map(([m, path]) => `${m} ${path}`)).toContain('POST /api/notifications/3/read');
  });

  it('marks all read, shows more, and reads the list again on a push', async () => {
    const { user, send, listed } = setup([
      { list: [item(2), item(1)], total: 3 },
      { list: [item(2, { read: true }), item(1, { read: true })], total: 3 },
    ]);
    await waitFor(() => expect(rows()).toHaveLength(2));
    await user.click(document.querySelector<HTMLElement>('[data-action="mark-all-read"]')!);
    await waitFor(() => expect(rows().map((r) => r.dataset.read)).toEqual(['true', 'true']));
    expect(send.mock.calls.map(([m, path]) => `${m} ${path}`)).toContain('POST /api/notifications/read-all');
    const before = listed();
    await act(async () => live.handlers.get('notification')?.({ action: 'NEW', unread: 1 }));
    await waitFor(() => expect(listed()).toBeGreaterThan(before));
    await user.click(document.querySelector<HTMLElement>('[data-action="more"]')!);
    await waitFor(() =>
      expect(send.mock.calls.some(([, path]) => String(path).includes('itemsPerPage=40'))).toBe(true),
    );
  });
});
