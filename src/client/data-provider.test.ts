// @vitest-environment happy-dom
/**
 * The data provider's methods over a recording HTTP client: each sends the request the API
 * expects — method, path under the entity's base, query, JSON body or multipart form,
 * headers — and unwraps the reply the way the screens read it.
 */
import { describe, expect, it, vi } from 'vitest';
import { createDataProvider } from './data-provider.ts';
import type { HttpClient, RequestOptions } from './http.ts';
import { manifests } from '../definitions/client.ts';

/** A provider whose requests are recorded and answered by `reply` (by method and path). */
function recording(reply: (method: string, path: string) => unknown = () => ({})) {
  const request = vi.fn(async (method: string, path: string, _options?: RequestOptions) => reply(method, path));
  const http: HttpClient = {
    request: request as HttpClient['request'],
    url: (path) => path,
    download: () => Promise.reject(new Error('no downloads here')),
  };
  return { dp: createDataProvider(http), request, last: () => request.mock.calls.at(-1)! };
}

/** The fields of a multipart form, in order (files by name). */
const formFields = (options: RequestOptions | undefined) =>
  [...(options?.form?.entries() ?? [])].map(([k, v]) => [k, typeof v === 'string' ? v : (v as File).name]);

// Any entity with a manifest: the provider builds paths from its `base`.
const [entity, manifest] = [...manifests.entries()][0]!;
const base = `/api${manifest.base}`;

describe('record methods', () => {
  it('merge posts the ids; an unknown entity is refused before any request', async () => {
    const { dp, request, last } = recording();
    await dp.merge(entity, [3, 4]);
    expect(last()).toEqual(['POST', `${base}/merge`, { body: { ids: [3, 4] } }]);
    expect(() => dp.getOne('no-such-entity', 1)).toThrow(/unknown entity/);
    expect(request).toHaveBeenCalledTimes(1);
  });

  it('reads the audit trail as its list', async () => {
    const { dp, last } = recording(() => ({ list: [{ id: 1 }] }));
    expect(await dp.getAudit(entity, 7)).toEqual([{ id: 1 }]);
    expect(last().slice(0, 2)).toEqual(['GET', `${base}/audit/7`]);
  });
});

describe('workflow methods', () => {
  it('lists the events allowed now, sends an event with the version read, and reads the path taken', async () => {
    const { dp, request } = recording((method, path) =>
      path.includes('/events/')
        ? { status: 'OPEN', events: [{ type: 'START' }] }
        : path.includes('/history/')
          ? { list: [{ id: 1 }] }
          : { id: 5 },
    );
    expect(await dp.getEvents(entity, 5)).toEqual([{ type: 'START' }]);
    expect(await dp.transition(entity, 5, { event: 'START', version: 2, comment: 'on it' })).toEqual({ id: 5 });
    expect(await dp.getTransitions(entity, 5)).toEqual([{ id: 1 }]);
    expect(request.mock.calls).toEqual([
      ['GET', `${base}/events/5`],
      ['POST', `${base}/transition/5`, { body: { event: 'START', version: 2, comment: 'on it' } }],
      ['GET', `${base}/history/5`],
    ]);
  });
});

describe('messenger methods', () => {
  it('asks each list for its first page, with a search only when one is typed', async () => {
    const { dp, request } = recording(() => ({ list: [], total: 0 }));
    await dp.getChats({ itemsPerPage: 100, search: '' });
    await dp.getGroupChats({ itemsPerPage: 50, search: 'bozor' });
    await dp.getContacts({ itemsPerPage: 200 });
    await dp.getGroupMembers(7, { itemsPerPage: 200 });
    expect(request.mock.calls.map(([m, p, o]) => [m, p, o?.body, o?.query?.search])).toEqual([
      ['POST', '/api/chat/list', { page: 0, itemsPerPage: 100 }, undefined],
      ['POST', '/api/groupChat/list', { page: 0, itemsPerPage: 50 }, 'bozor'],
      ['POST', '/api/employee/get-by-chat', { page: 0, itemsPerPage: 200 }, undefined],
      ['POST', '/api/groupChat/members/7', { page: 0, itemsPerPage: 200 }, undefined],
    ]);
  });

  it("reads a chat's pages older than a message, or its matches, by the chat's kind", async () => {
    const { dp, request } = recording(() => ({ list: [], total: 0 }));
    await dp.getMessages({ kind: 'chat', id: 10 }, { itemsPerPage: 30 });
    await dp.getMessages({ kind: 'group', id: 7 }, { itemsPerPage: 30, beforeId: 41 });
    await dp.getMessages({ kind: 'chat', id: 10 }, { itemsPerPage: 50, search: 'отчёт' });
    expect(request.mock.calls).toEqual([
      ['POST', '/api/chat-message/get-by-chatId/10', { body: { page: 0, itemsPerPage: 30 } }],
      ['POST', '/api/groupChat/get-by-chatId/7', { body: { page: 0, itemsPerPage: 30, beforeId: 41 } }],
      [
        'POST',
        '/api/chat-message/get-by-chatId/10',
        { body: { page: 0, itemsPerPage: 50 }, query: { search: 'отчёт' } },
      ],
    ]);
  });

  it('sends, replies, edits, deletes, forwards and marks read', async () => {
    const { dp, request } = recording();
    const file = new File(['x'], 'a.pdf', { type: 'application/pdf' });
    await dp.sendMessage({ kind: 'chat', id: 10 }, { text: 'Salom', ownerId: 1 });
    await dp.sendMessage({ kind: 'group', id: 7 }, { text: 'Hammaga', ownerId: 1, file });
    await dp.sendMessage({ kind: 'group', id: 7 }, { text: 'Ha', ownerId: 1, replyTo: 41 });
    const [chat, group, reply] = request.mock.calls;
    expect([chat![1], formFields(chat![2])]).toEqual([
      '/api/chat-message/sendMessage',
      [
        ['chatId', '10'],
        ['message', 'Salom'],
        ['ownerId', '1'],
      ],
    ]);
    expect([group![1], formFields(group![2])]).toEqual([
      '/api/groupChat/chat-message/sendMessage',
      [
        ['groupChatId', '7'],
        ['message', 'Hammaga'],
        ['ownerId', '1'],
        ['file', 'a.pdf'],
      ],
    ]);
    expect([reply![1], formFields(reply![2])]).toEqual([
      '/api/chat-message/reply-message',
      [
        ['groupChatId', '7'],
        ['message', 'Ha'],
        ['ownerId', '1'],
        ['id', '41'],
      ],
    ]);
    request.mockClear();
    await dp.editMessage(41, 'Ha, albatta');
    await dp.deleteMessage(41);
    await dp.forwardMessage(41, { kind: 'group', id: 7 });
    await dp.forwardMessage(41, { kind: 'person', id: 3 });
    await dp.markRead({ kind: 'chat', id: 10 });
    await dp.markRead({ kind: 'group', id: 7 });
    await dp.openChat(3);
    expect(request.mock.calls).toEqual([
      ['POST', '/api/chat-message/edit', { body: { id: 41, message: 'Ha, albatta' } }],
      ['DELETE', '/api/chat-message/delete/41'],
      ['POST', '/api/chat-message/forward-message', { body: { id: 41, groupChatId: 7 } }],
      ['POST', '/api/chat-message/forward-message', { body: { id: 41, receiverId: 3 } }],
      ['POST', '/api/chat-message/make-read', { body: { chatId: 10 } }],
      ['POST', '/api/chat-message/make-read', { body: { groupChatId: 7 } }],
      ['POST', '/api/chat/create/3'],
    ]);
  });

  it('creates, renames, re-photographs, re-staffs and deletes a group', async () => {
    const { dp, request } = recording();
    const photo = new File(['x'], 'g.png', { type: 'image/png' });
    await dp.createGroup('Bozor', [2, 3]);
    await dp.renameGroup(7, 'Bozor tahlili');
    await dp.addGroupMembers(7, [4]);
    await dp.removeGroupMembers(7, [2]);
    await dp.deleteGroup(7);
    await dp.uploadGroupPhoto(7, photo);
    const calls = request.mock.calls;
    expect(calls.slice(0, 5)).toEqual([
      ['POST', '/api/groupChat/create', { body: { name: 'Bozor', memberIds: [2, 3] } }],
      ['POST', '/api/groupChat/edit', { body: { id: 7, name: 'Bozor tahlili' } }],
      ['POST', '/api/groupChat/add-members/7', { body: { memberIds: [4] } }],
      ['POST', '/api/groupChat/delete-members/7', { body: { memberIds: [2] } }],
      ['POST', '/api/groupChat/delete', { body: { id: 7 } }],
    ]);
    expect([calls[5]![1], formFields(calls[5]![2])]).toEqual([
      '/api/groupChat/uploadPhoto',
      [
        ['groupChatId', '7'],
        ['file', 'g.png'],
      ],
    ]);
  });
});

describe('questionnaire methods', () => {
  it('reads the open ones, one form, its results, and answers with the idempotency key', async () => {
    const { dp, request } = recording((method, path) =>
      path.endsWith('/questionnaire') ? { list: [{ id: 1 }] } : { id: 1 },
    );
    expect(await dp.getQuestionnaires(entity)).toEqual([{ id: 1 }]);
    await dp.getQuestionnaire(entity, '1');
    await dp.getQuestionnaireResults(entity, 1);
    await dp.answerQuestionnaire(entity, '1', { q1: 0 }, 'key-1');
    expect(request.mock.calls).toEqual([
      ['GET', `${base}/questionnaire`],
      ['GET', `${base}/questionnaire/1`],
      ['GET', `${base}/questionnaire/1/results`],
      [
        'POST',
        `${base}/questionnaire/1/answer`,
        { body: { answers: { q1: 0 } }, headers: { 'idempotency-key': 'key-1' } },
      ],
    ]);
  });
});

describe('account methods', () => {
  it('signs in at the endpoints the screen names', async () => {
    const { dp, request } = recording();
    await dp.getSignInMethods('/api/auth/methods');
    await dp.getSignInChallenge('/api/auth/challenge');
    await dp.getSignInChallenge('/api/auth/challenge', { PNFL: '12345678901234' });
    await dp.signIn('/api/auth-payload', { username: 'u', password: 'p' });
    expect(request.mock.calls).toEqual([
      ['GET', '/api/auth/methods'],
      ['GET', '/api/auth/challenge', { query: undefined }],
      ['GET', '/api/auth/challenge', { query: { PNFL: '12345678901234' } }],
      ['POST', '/api/auth-payload', { body: { username: 'u', password: 'p' } }],
    ]);
  });

  it("reads the profile, changes the password, uploads the photo as the staff card's file", async () => {
    const { dp, request } = recording();
    const photo = new File(['x'], 'me.jpg', { type: 'image/jpeg' });
    await dp.getProfile();
    await dp.changePassword({ oldPassword: 'a', newPassword: 'b', confirmPassword: 'b' });
    await dp.uploadProfilePhoto('employee', photo);
    const calls = request.mock.calls;
    expect(calls.slice(0, 2)).toEqual([
      ['GET', '/api/auth/profile'],
      ['POST', '/api/auth/change-password', { body: { oldPassword: 'a', newPassword: 'b', confirmPassword: 'b' } }],
    ]);
    expect([calls[2]![1], formFields(calls[2]![2])]).toEqual([
      '/api/file-entity/save/employee/for-profile',
      [['employeePhoto', 'me.jpg']],
    ]);
  });

  it('finds staff users by id or by name (no request for no ids), and reads the counters', async () => {
    const { dp, request } = recording(() => ({ list: [{ id: 12, name: 'Karimov Aziz', unit: null }] }));
    expect(await dp.getStaffUsers([])).toEqual([]);
    expect(await dp.getStaffUsers([12, 15])).toEqual([{ id: 12, name: 'Karimov Aziz', unit: null }]);
    await dp.searchStaffUsers('Kar', 20);
    await dp.getCounters();
    expect(request.mock.calls).toEqual([
      ['GET', '/api/staff-users', { query: { ids: '12,15' } }],
      ['GET', '/api/staff-users', { query: { search: 'Kar', limit: 20 } }],
      ['GET', '/api/letter/get-all-count'],
    ]);
  });
});

describe('endpoints a definition names', () => {
  it('calls a flow step or record action as spelled out: a GET with its query, a POST with body and query', async () => {
    const { dp, request } = recording();
    await dp.callEndpoint({ method: 'GET', path: '/api/x/start', query: { who: 'p' }, body: { ignored: true } });
    await dp.callEndpoint({ method: 'POST', path: '/api/x/a-done', query: { uid: 'u' }, body: { code: '1' } });
    await dp.callEndpoint({ method: 'POST', path: '/api/x/resend' });
    expect(request.mock.calls).toEqual([
      ['GET', '/api/x/start', { query: { who: 'p' } }],
      ['POST', '/api/x/a-done', { body: { code: '1' }, query: { uid: 'u' } }],
      ['POST', '/api/x/resend', { body: {} }],
    ]);
  });

  it("asks a lookup's endpoint as its options say, its counters, and a dashboard panel's rows", async () => {
    const { dp, request } = recording(() => ({ list: [{ n: 1 }] }));
    await dp.lookup({ endpoint: '/api/l' }, { number: '1-2' });
    await dp.lookup({ endpoint: '/api/l', method: 'POST' }, { number: '1-2' });
    await dp.lookup({ endpoint: '/api/l/list-search', method: 'POST', send: 'query' }, { note: 'x' });
    await dp.getLookupStats('/api/l/stats');
    expect(await dp.getPanelRows({ endpoint: '/api/a' }, { month: '2026-01' })).toEqual([{ n: 1 }]);
    await dp.getPanelRows({ endpoint: '/api/a/list-search', method: 'POST', body: { page: 0 } }, { region: '1' });
    await dp.getPanelPage({ endpoint: '/api/a/list-search', method: 'POST', body: { itemsPerPage: 20 } }, {}, 3);
    expect(request.mock.calls).toEqual([
      ['GET', '/api/l', { query: { number: '1-2' } }],
      ['POST', '/api/l', { body: { number: '1-2' } }],
      ['POST', '/api/l/list-search', { body: {}, query: { note: 'x' } }],
      ['GET', '/api/l/stats', { query: undefined }],
      ['GET', '/api/a', { query: { month: '2026-01' } }],
      ['POST', '/api/a/list-search', { body: { page: 0 }, query: { region: '1' } }],
      ['POST', '/api/a/list-search', { body: { itemsPerPage: 20, page: 3 }, query: {} }],
    ]);
  });
});
