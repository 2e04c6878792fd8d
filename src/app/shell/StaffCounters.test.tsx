// @vitest-environment happy-dom
/**
 * The header's notification counters for staff, with fake timers and a stand-in STOMP client
 * under the app's real live client: figures pushed on notificationMsg replace the shown ones
 * at once; GET /api/letter/get-all-count is polled every 15 s (spec §7) as the fallback while
 * nothing is pushed; a poll answered after a push does not bring older figures back; a failed
 * poll is ignored (spec §8).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { createScriptedDataProvider, renderWithProviders } from '../../engine/form/testing.tsx';
import { FakeStompClient } from '../../client/live-testing.ts';
import { closeLive } from '../../client/live.ts';
import { setSetting } from '../../client/settings.ts';
import StaffCounters, { COUNTER_KEYS } from './StaffCounters.tsx';

vi.mock('@stomp/stompjs', async () => ({ Client: (await import('../../client/live-testing.ts')).FakeStompClient }));

const ME = 5;
const CHANNEL = `/user/${ME}/notificationMsg`;
const POLL = '/api/letter/get-all-count';
/** Counters whose seven figures are `base`, `base + 1`, … and their total. */
const counters = (base: number) => {
  const figures = Object.fromEntries(COUNTER_KEYS.map((k, i) => [k, base + i]));
  return { ...figures, total: Object.values(figures).reduce((a, b) => a + b, 0) };
};
/**
 * Lets what is due settle: an answer travels a few promise steps and zero-delay timers before
 * React renders it, and fake timers set during a tick with no delay run 1 ms later. So the
 * clock moves a few milliseconds; the poll checks below keep a 100 ms margin for that.
 */
const settle = async () => {
  for (let i = 0; i < 3; i++) await act(() => vi.advanceTimersByTimeAsync(1));
};
/** Moves the clock, then lets what became due settle (an answer, React's render). */
const wait = async (ms: number) => {
  await act(() => vi.advanceTimersByTimeAsync(ms));
  await settle();
};
const shownTotal = () => document.querySelector<HTMLElement>('[data-counters-total]')?.dataset.countersTotal;

const UNREAD = '/api/notifications/unread-count';
const NOTES = `/user/${ME}/notification`;
/** A received notification as the server lists it. */
const note = (id: number, read = false) => ({
  id,
  box: 'incoming',
  text: `Document R-${id} has been assigned to you for execution.`,
  entity: 'correspondence',
  recordId: id,
  link: `/admin/documents/${id}`,
  sender: { id: '1', name: 'Admin' },
  recipient: { id: String(ME), name: 'Me' },
  createdAt: '2026-11-26T10:00:00.000Z',
  read,
});

function setup(
  answers: Array<() => Promise<unknown>>,
  notifications: {
    unread?: () => Promise<unknown>;
    latest?: () => Promise<unknown>;
    read?: (path: string) => Promise<unknown>;
  } = {},
) {
  let next = 0;
  const send = vi.fn(async (method: string, path: string) => {
    if (method === 'GET' && path === UNREAD) return (notifications.unread ?? (async () => ({ count: 0 })))();
    if (method === 'GET' && path.startsWith('/api/notifications?'))
      return (notifications.latest ?? (async () => ({ list: [], total: 0 })))();
    if (method === 'POST' && path.startsWith('/api/notifications/') && notifications.read)
      return notifications.read(path);
    if (method !== 'GET' || path !== POLL) throw new Error(`unexpected ${method} ${path}`);
    return answers[Math.min(next++, answers.length - 1)]!();
  });
  renderWithProviders(
    <MemoryRouter>
      <StaffCounters />
    </MemoryRouter>,
    { dataProvider: createScriptedDataProvider(send) },
  );
  return {
    polls: () => send.mock.calls.filter(([, path]) => path === POLL).length,
    calls: (prefix: string) => send.mock.calls.filter(([, path]) => path.startsWith(prefix)).length,
  };
}
const badge = () => document.querySelector<HTMLElement>('[data-notifications-unread]')?.dataset.notificationsUnread;

describe('header counters', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    setSetting('accessToken', 'token');
    setSetting('userId', ME);
    setSetting('isOuter', false);
  });
  afterEach(async () => {
    await closeLive();
    vi.useRealTimers();
  });

  it('shows the fetched figures and replaces them at once with what the server pushes on notificationMsg', async () => {
    const { polls } = setup([async () => counters(0)]);
    await settle();
    expect(shownTotal()).toBe(String(counters(0).total));
    const client = FakeStompClient.last();
    await act(() => client.open());
    expect(client.subscribed(CHANNEL)).toHaveLength(1);

    await act(async () => client.deliver(CHANNEL, counters(10), 'c-1'));
    await settle();
    expect(shownTotal()).toBe(String(counters(10).total));
    expect(polls()).toBe(1);
    expect(client.acks).toEqual(['c-1']);
    // Each of the seven figures and the total, in the popover.
    fireEvent.click(document.querySelector('[data-action="counters"]')!);
    await settle();
    const shown = Object.fromEntries(
      [...document.querySelectorAll<HTMLElement>('[data-counter]')].map((e) => [
        e.dataset.counter,
        Number(e.textContent),
      ]),
    );
    expect(shown).toEqual(counters(10));
    // Each count leads somewhere: the user's own assigned records to "my work" on the staff home.
    vi.useRealTimers();
    await waitFor(() => {
      const targets = [...document.querySelectorAll<HTMLAnchorElement>('[data-region="counters"] a')].map((a) =>
        a.getAttribute('href'),
      );
      expect(targets).toContain('/admin#my-work');
      expect(targets).toContain('/admin');
    });
  });

  it('polls every 15 s while nothing is pushed; a push puts the next poll 15 s after it', async () => {
    const { polls } = setup([async () => counters(1)]);
    await settle();
    expect(polls()).toBe(1);
    // The socket is not even up: the poll is all there is.
    await wait(14_900);
    expect(polls()).toBe(1);
    await wait(100);
    expect(polls()).toBe(2);
    await wait(15_000);
    expect(polls()).toBe(3);

    const client = FakeStompClient.last();
    await act(() => client.open());
    await wait(5_000);
    await act(async () => client.deliver(CHANNEL, counters(2)));
    await settle();
    // Fresh figures came 5 s into the interval: no poll 10 s later, but 15 s after the push.
    await wait(14_900);
    expect(polls()).toBe(3);
    await wait(100);
    expect(polls()).toBe(4);
  });

  it('keeps pushed figures when a poll asked before the push is answered after it', async () => {
    let answerLate!: (value: unknown) => void;
    const { polls } = setup([
      async () => counters(1),
      () =>
        new Promise((resolve) => {
          answerLate = resolve;
        }),
      async () => counters(30),
    ]);
    await settle();
    const client = FakeStompClient.last();
    await act(() => client.open());
    await wait(15_000);
    expect(polls()).toBe(2);
    // The poll is on its way when the server pushes newer figures; then the poll's older answer arrives.
    await act(async () => client.deliver(CHANNEL, counters(20)));
    await settle();
    await act(async () => answerLate(counters(1)));
    await settle();
    expect(shownTotal()).toBe(String(counters(20).total));
    // The fallback goes on.
    await wait(15_000);
    expect(polls()).toBe(3);
    expect(shownTotal()).toBe(String(counters(30).total));
  });

  it('ignores a failed poll: the figures stay and the next poll comes 15 s later', async () => {
    const { polls } = setup([
      async () => counters(3),
      async () => {
        throw new Error('503');
      },
      async () => counters(4),
    ]);
    await settle();
    await wait(15_000);
    expect(polls()).toBe(2);
    expect(shownTotal()).toBe(String(counters(3).total));
    await wait(15_000);
    expect(polls()).toBe(3);
    expect(shownTotal()).toBe(String(counters(4).total));
  });

  it('shows the unread notifications on the bell, replaced by the count pushed on notification, and 0 when the count fails', async () => {
    const { calls } = setup([async () => counters(0)], { unread: async () => ({ count: 2 }) });
    await settle();
    expect(badge()).toBe('2');
    const client = FakeStompClient.last();
    await act(() => client.open());
    expect(client.subscribed(NOTES)).toHaveLength(1);
    await act(async () => client.deliver(NOTES, { action: 'NEW', unread: 3 }, 'n-1'));
    await settle();
    expect(badge()).toBe('3');
    // The header counters keep their channel beside it.
    await act(async () => client.deliver(CHANNEL, counters(7)));
    await settle();
    expect(shownTotal()).toBe(String(counters(7).total));
    expect(calls(UNREAD)).toBe(1);
  });

  it('lists the latest in the popover, unread first bold, with see all; opening one marks it read', async () => {
    const read = vi.fn(async () => ({ count: 0 }));
    setup([async () => counters(0)], {
      unread: async () => ({ count: 1 }),
      latest: async () => ({ list: [note(9), note(8, true)], total: 2 }),
      read,
    });
    await settle();
    fireEvent.click(document.querySelector('[data-action="counters"]')!);
    await settle();
    const rows = [...document.querySelectorAll<HTMLElement>('[data-region="bell-notifications"] [data-notification]')];
    expect(rows.map((r) => [r.dataset.notification, r.dataset.read])).toEqual([
      ['9', 'false'],
      ['8', 'true'],
    ]);
    expect(rows[0]!.textContent).toContain('R-9');
    expect(document.querySelector('[data-action="see-all"]')?.getAttribute('href')).toBe('/admin/notifications');
    // The keyboard opens it too.
    fireEvent.keyDown(rows[0]!, { key: 'Enter' });
    await settle();
    expect(read).toHaveBeenCalledWith('/api/notifications/9/read');
  });

  it('says there are no notifications when there are none', async () => {
    setup([async () => counters(0)]);
    await settle();
    fireEvent.click(document.querySelector('[data-action="counters"]')!);
    await settle();
    expect(document.querySelector('[data-region="bell-notifications"] [data-state="empty"]')?.textContent).toBe(
      'No notifications',
    );
  });
});
