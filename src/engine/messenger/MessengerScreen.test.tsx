// @vitest-environment happy-dom
/**
 * The messenger screen with a scripted REST side (under the real data provider) and no socket: contact and group photos (with
 * the initials where there is none), forwarding a message to a group chosen in a dialog,
 * searching the open chat through the REST `search`, attachments with their kind's icon
 * and a size in the reader's units, and the open chat read again after the socket came back.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, waitFor } from '@testing-library/react';
import type { ScreenDefinition } from '../../generated/meta.ts';
import { createScriptedDataProvider, renderWithProviders } from '../form/testing.tsx';
import { setSetting } from '../../client/settings.ts';
// The whole Russian locale, entities' and machines' texts merged in (vite.config.ts `mergedLocales`).
import ru from '../../i18n/locales/ru.json';
import MessengerScreen from './MessengerScreen.tsx';

// The socket's state, moved by the tests: up at first.
const live = vi.hoisted(() => ({ up: true, listeners: new Set<(connected: boolean) => void>() }));
vi.mock('../../client/live.ts', () => ({
  subscribeLive: () => () => undefined,
  onLiveStatus: (listener: (connected: boolean) => void) => {
    live.listeners.add(listener);
    listener(live.up);
    return () => live.listeners.delete(listener);
  },
  publishLive: () => false,
}));
const setLive = (up: boolean) =>
  act(() => {
    live.up = up;
    for (const l of live.listeners) l(up);
  });

const ME = 1;
const message = (id: number, text: string, ownerId = 2) => ({
  id,
  chatId: 10,
  groupChatId: null,
  message: text,
  isRead: 'READ',
  edited: false,
  ownerId,
  ownerName: 'Toshmatov Bobur',
  file: null,
  replyTo: null,
  forwardedFrom: null,
  createdAt: '2026-11-23T10:00:00.000Z',
});
const chats = [
  {
    chatId: 10,
    employeeId: 2,
    firstName: 'Bobur',
    lastName: 'Toshmatov',
    uploadPath: '/api/employee/photo/2',
    lastMessage: 'Salom',
    unreadCount: 0,
  },
  {
    chatId: 11,
    employeeId: 3,
    firstName: 'Kamola',
    lastName: 'Rahimova',
    uploadPath: null,
    lastMessage: 'Hayr',
    unreadCount: 2,
  },
];
const groups = [
  { id: 7, name: 'Bozor tahlili', photo: null, count: 3, unreadCount: 0, lastMessage: null, ownerId: ME },
];

function fakeRest(history: () => unknown[] = () => [message(4, 'Hisobot tayyor'), message(5, 'ОТЧЁТ за квартал')]) {
  return vi.fn(
    async (
      method: string,
      path: string,
      options?: { body?: Record<string, unknown>; query?: Record<string, unknown> },
    ) => {
      if (path === '/api/chat/list') return { list: chats, total: chats.length };
      if (path === '/api/groupChat/list') return { list: groups, total: 1 };
      if (path === '/api/employee/get-by-chat')
        return {
          list: chats.map(({ chatId: _c, lastMessage: _l, unreadCount: _u, ...c }) => ({ ...c, chatId: null })),
          total: 2,
        };
      if (path === '/api/chat-message/make-read') return { read: 0 };
      if (path === '/api/chat-message/forward-message') return message(99, 'Hisobot tayyor', ME);
      if (path === '/api/chat-message/get-by-chatId/10') {
        if (options?.query?.search) return { list: [message(5, 'ОТЧЁТ за квартал')], total: 1 };
        const list = history();
        return { list, total: list.length };
      }
      throw new Error(`unexpected ${method} ${path}`);
    },
  );
}

const el = (selector: string) => document.querySelector<HTMLElement>(selector);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('messenger screen', () => {
  beforeEach(() => {
    setSetting('userId', ME);
    setSetting('accessToken', 'tok');
    // Photos come with the bearer token; only Bobur has one.
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        const auth = (init?.headers as Record<string, string> | undefined)?.authorization;
        return url === '/api/employee/photo/2' && auth === 'Bearer tok'
          ? new Response(PNG, { headers: { 'content-type': 'image/png' } })
          : new Response(null, { status: 404 });
      }),
    );
    if (!URL.createObjectURL) URL.createObjectURL = () => 'blob:photo';
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    live.up = true;
  });

  it('shows photos or initials, forwards a message to a chosen group, and searches the open chat', async () => {
    const send = fakeRest();
    const { user } = renderWithProviders(
      <MessengerScreen
        screen={
          {
            id: 'messenger',
            route: '/admin/messenger',
            kind: 'messenger',
            titleKey: 'messenger.title',
          } as unknown as ScreenDefinition
        }
      />,
      { dataProvider: createScriptedDataProvider(send) },
    );

    // Photos in the chat list: Bobur's image, Kamola's initials.
    await waitFor(() => expect(el('[data-row="user-2"] [data-photo="image"]')).toBeTruthy());
    expect(el('[data-row="user-3"] [data-photo="initials"]')).toBeTruthy();
    expect(el('[data-row="user-3"] [data-unread="2"]')).toBeTruthy();
    // The page has its one h1 (the screen's title), as every screen does.
    expect([...document.querySelectorAll('h1')].map((h) => h.textContent)).toEqual(['Messenger']);

    // Open Bobur's chat and forward his first message to the group.
    await user.click(el('[data-row="user-2"]')!);
    await waitFor(() => expect(el('[data-message="4"]')).toBeTruthy());
    // Its time is Tashkent's, 24-hour, with the date since it is not today's (not the browser's 12-hour clock).
    expect(el('[data-message="4"] [data-time]')?.textContent).toBe('23.11.2026 15:00');
    await user.click(el('[data-message="4"] [data-action="forward"]')!);
    await waitFor(() => expect(el('[data-target="group-7"]')).toBeTruthy());
    expect(el('[data-target="person-3"]')).toBeTruthy();
    expect((el('[data-action="forward-send"]') as HTMLButtonElement).disabled).toBe(true);
    await user.click(el('[data-target="group-7"]')!);
    await user.click(el('[data-action="forward-send"]')!);
    await waitFor(() =>
      expect(send).toHaveBeenCalledWith('POST', '/api/chat-message/forward-message', {
        body: { id: 4, groupChatId: 7 },
      }),
    );
    await waitFor(() => expect(el('[data-region="forward"]')).toBeNull());

    // Search in the chat: the REST search answers, the results replace the history.
    await user.click(el('[data-action="search-chat"]')!);
    await user.type(el('[data-input="chat-search"]')!, 'отчёт');
    await waitFor(() => expect(el('[data-region="search-results"] [data-message="5"]')).toBeTruthy());
    expect(send).toHaveBeenCalledWith('POST', '/api/chat-message/get-by-chatId/10', {
      body: { page: 0, itemsPerPage: 50 },
      query: { search: 'отчёт' },
    });
    expect(el('[data-region="search-results"] [data-message="4"]')).toBeNull();
    expect(el('[data-found]')?.textContent).toBe('Found: 1');
    // Closing the search brings the history back.
    await user.click(el('[data-action="search-chat"]')!);
    await waitFor(() => expect(el('[data-region="messages"] [data-message="4"]')).toBeTruthy());
  });

  it('shows each attachment with its kind (spec §9), name and size up to GB, in the reader’s units', async () => {
    const withFile = (id: number, name: string, mime: string, size: number) => ({
      ...message(id, ''),
      file: { id: `f${id}`, name, mime, size },
    });
    const files = [
      withFile(21, 'photo.JPG', 'image/jpeg', 532),
      withFile(22, 'notes.txt', 'text/plain', 1536),
      withFile(23, 'act.pdf', 'application/pdf', 1_234_567),
      withFile(
        24,
        'slides.pptx',
        'application/vnd.openxmlformats-officedocument.presentationml.presentation',
        3 * 1024 ** 2,
      ),
      withFile(25, 'bundle.zip', 'application/zip', 3 * 1024 ** 3),
      withFile(26, 'table.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 10_240),
      withFile(27, 'letter.doc', 'application/x-cfb', 2048),
      withFile(28, 'letter.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 4096),
      withFile(29, 'scan', 'application/pdf', 100),
      withFile(30, 'drawing.dwg', 'application/octet-stream', 0),
    ];
    const send = fakeRest(() => files);
    const { user, i18n } = renderWithProviders(
      <MessengerScreen
        screen={
          {
            id: 'messenger',
            route: '/admin/messenger',
            kind: 'messenger',
            titleKey: 'messenger.title',
          } as unknown as ScreenDefinition
        }
      />,
      { dataProvider: createScriptedDataProvider(send) },
    );
    await waitFor(() => expect(el('[data-row="user-2"]')).toBeTruthy());
    await user.click(el('[data-row="user-2"]')!);
    await waitFor(() => expect(el('[data-message="30"] [data-file]')).toBeTruthy());

    const shown = (id: number) => {
      const a = el(`[data-message="${id}"] [data-file]`)!;
      return [
        a.dataset.fileType,
        a.querySelector('[data-file-name]')!.textContent,
        a.querySelector('[data-file-size]')!.textContent,
      ];
    };
    expect(files.map((f) => shown(f.id))).toEqual([
      ['image', 'photo.JPG', '532 Bytes'],
      ['txt', 'notes.txt', '1.5 KB'],
      ['pdf', 'act.pdf', '1.18 MB'],
      ['pptx', 'slides.pptx', '3 MB'],
      ['zip', 'bundle.zip', '3 GB'],
      ['xlsx', 'table.xlsx', '10 KB'],
      ['doc', 'letter.doc', '2 KB'],
      ['docx', 'letter.docx', '4 KB'],
      ['pdf', 'scan', '100 Bytes'],
      ['other', 'drawing.dwg', '0 Bytes'],
    ]);
    // Every kind has an icon of its own, except doc and docx (both Word).
    const svgOf = (id: number) => el(`[data-message="${id}"] [data-file] svg`)!.outerHTML;
    expect(new Set(files.map((f) => svgOf(f.id))).size).toBe(8);
    expect(svgOf(27)).toBe(svgOf(28));

    // The units follow the language.
    i18n.addResourceBundle('ru', 'translation', ru);
    await act(() => i18n.changeLanguage('ru'));
    await waitFor(() => expect(shown(22)[2]).toBe('1.5 КБ'));
    expect(shown(25)[2]).toBe('3 ГБ');
  });

  it('reads the open chat and the lists again after the socket came back, and marks what arrived meanwhile read', async () => {
    let history = [message(4, 'Hisobot tayyor'), message(5, 'ОТЧЁТ за квартал')];
    const send = fakeRest(() => history);
    const { user } = renderWithProviders(
      <MessengerScreen
        screen={
          {
            id: 'messenger',
            route: '/admin/messenger',
            kind: 'messenger',
            titleKey: 'messenger.title',
          } as unknown as ScreenDefinition
        }
      />,
      { dataProvider: createScriptedDataProvider(send) },
    );
    await waitFor(() => expect(el('[data-row="user-2"]')).toBeTruthy());
    await user.click(el('[data-row="user-2"]')!);
    await waitFor(() => expect(el('[data-message="5"]')).toBeTruthy());
    const calls = (path: string) => send.mock.calls.filter((c) => c[1] === path).length;
    await waitFor(() => expect(calls('/api/chat-message/make-read')).toBe(1));
    const [historyReads, listReads] = [calls('/api/chat-message/get-by-chatId/10'), calls('/api/chat/list')];

    // While the socket is down, Bob's answer is written and message 4 edited; no event reaches this screen.
    await setLive(false);
    history = [
      { ...message(4, 'Hisobot tayyor, ilova bilan'), edited: true },
      message(5, 'ОТЧЁТ за квартал'),
      message(6, 'Yubordim'),
    ];
    expect(calls('/api/chat-message/get-by-chatId/10')).toBe(historyReads);
    await setLive(true);
    await waitFor(() => expect(el('[data-message="6"]')?.textContent).toContain('Yubordim'));
    expect(el('[data-message="4"] [data-text]')?.textContent).toBe('Hisobot tayyor, ilova bilan');
    await waitFor(() => expect(calls('/api/chat-message/make-read')).toBe(2));
    expect(calls('/api/chat/list')).toBeGreaterThan(listReads);

    // Another "connected" without a drop between reads nothing again.
    await setLive(true);
    expect(calls('/api/chat-message/get-by-chatId/10')).toBe(historyReads + 1);
  });
});
