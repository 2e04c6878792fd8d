/**
 * In-app notifications (notify/inbox.ts, routes/notifications/, docs/notifications.md), on both
 * backends, one app each:
 *  - a transition's `inApp` notice (workflows/document.machine.json: the assigned executor) is
 *    written in the transition's own transaction to the named user, with the actor as sender;
 *    a refused transition, or one failing after its notices were written, writes none; nobody is
 *    told of their own step;
 *  - the boxes: incoming to the recipient, outgoing to the sender, nobody else (404); read and
 *    unread, read-all; texts in the reader's language;
 *  - the record link only for a reader who may read the record;
 *  - notes by hand: `announce Message`, a record the sender may read, staff recipients only;
 *  - live: the real @stomp/stompjs client gets `{action: "NEW", unread}` on `notification` after
 *    the commit, and the header counters keep their own channel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { tableName } from '../../src/server/db/entity-table.ts';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';
import { createSampler } from '../support/sample-data.ts';
import { connectLive, createStaff, type LiveClient } from '../support/stomp.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const ENTITY = 'correspondence';
const def = registry.entities.get(ENTITY)!;
const base = `/api${def.manifest.base}`;
const sample = createSampler(def.schema, registry.references, createServerAjv());

type User = { id: string; token: string };
type Item = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`in-app notifications on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let adminId: number;
    let url: string;
    /** The executor (reads every document), a colleague without documents (security), a bystander. */
    let executor: User;
    let guard: User;
    let bystander: User;
    const sockets: LiveClient[] = [];

    const call = async (
      user: User | undefined,
      method: 'GET' | 'POST',
      path: string,
      payload?: unknown,
      lang = 'en',
    ) => {
      const res = await app.inject({
        method,
        url: path,
        payload: payload as never,
        headers: { 'accept-language': lang, ...(user ? { authorization: `Bearer ${user.token}` } : {}) },
      });
      return { status: res.statusCode, body: res.json() as Item };
    };
    const rowsOf = async (recordId: number) =>
      (
        await app.db.query<{ recipient: string; sender: string | null; template: string }>(
          `SELECT recipient_id::text AS recipient, sender_id::text AS sender, template_key AS template
             FROM notification WHERE entity = $1 AND record_id = $2 ORDER BY id`,
          [ENTITY, recordId],
        )
      ).rows;
    /** Sends an event as the admin; returns the status and body. */
    const send = async (id: number, event: string, payload?: Record<string, unknown>, version?: number) => {
      const current = version ?? (await call(undefined, 'GET', `${base}/get/${id}`)).body.version;
      return call(undefined, 'POST', `${base}/transition/${id}`, {
        event,
        version: current,
        ...(payload ? { payload } : {}),
      });
    };
    /** A registered document seen by the chair: the next step assigns the executor. */
    const seenDocument = async (seed: number): Promise<{ id: number; label: string }> => {
      const data: Record<string, unknown> = { ...sample(seed, { full: false, minimal: true }), signerId: adminId };
      delete data.deadline;
      const created = await call(undefined, 'POST', `${base}/create`, data);
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const id = created.body.id as number;
      expect((await send(id, 'SEND_TO_COMMISSION_CHAIR')).status).toBe(200);
      expect((await send(id, 'MARK_SEEN')).status).toBe(200);
      const labelField = def.manifest.labelField;
      const label = labelField ? String(created.body[labelField.slice(1)] ?? id) : String(id);
      return { id, label };
    };
    const box = async (user: User, query = '', lang = 'en') => {
      const res = await call(user, 'GET', `/api/notifications${query}`, undefined, lang);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { list: Item[]; total: number };
    };
    const unread = async (user: User) => (await call(user, 'GET', '/api/notifications/unread-count')).body.count;

    beforeAll(async () => {
      ({ app, close, adminId } = await startTestApp(backend.name));
      await app.listen({ port: 0, host: '127.0.0.1' });
      url = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/gs-guide-websocket`;
      executor = await createStaff(app, 'nexecutor', ['director']);
      guard = await createStaff(app, 'nguard', ['security']);
      bystander = await createStaff(app, 'nbystander', ['director']);
    });
    afterAll(async () => {
      await Promise.all(sockets.map((s) => s.close()));
      await close?.();
    });

    it('writes the notice to the named executor in the transition, with the actor as sender; a refused or failed transition writes none; nobody is told of their own step', async () => {
      const doc = await seenDocument(1);
      // Refused: a stale version (409) and a payload naming nobody valid (400) write nothing.
      const { version } = (await call(undefined, 'GET', `${base}/get/${doc.id}`)).body;
      expect((await send(doc.id, 'ASSIGN_EXECUTOR', { executorId: Number(executor.id) }, version + 5)).status).toBe(
        409,
      );
      expect((await send(doc.id, 'ASSIGN_EXECUTOR', { executorId: 999999 })).status).toBe(400);
      expect(await rowsOf(doc.id)).toEqual([]);

      // Failing after the notice was written (the status update, last): the whole step is undone.
      const table = tableName(ENTITY);
      await app.db.query(`CREATE OR REPLACE FUNCTION test_refuse_assign() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.status = 'BEING_SEEN' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$`);
      await app.db.query(
        `CREATE TRIGGER test_refuse_assign BEFORE UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION test_refuse_assign()`,
      );
      try {
        expect((await send(doc.id, 'ASSIGN_EXECUTOR', { executorId: Number(executor.id) })).status).toBe(500);
      } finally {
        await app.db.query(`DROP TRIGGER test_refuse_assign ON ${table}`);
      }
      expect(await rowsOf(doc.id)).toEqual([]);

      expect((await send(doc.id, 'ASSIGN_EXECUTOR', { executorId: Number(executor.id) })).status).toBe(200);
      expect(await rowsOf(doc.id)).toEqual([
        { recipient: executor.id, sender: String(adminId), template: 'workflow.document.notices.assigned' },
      ]);
      // Handing the work to oneself tells nobody.
      expect((await send(doc.id, 'ASSIGN_EXECUTOR', { executorId: adminId })).status).toBe(200);
      expect(await rowsOf(doc.id)).toHaveLength(1);
    });

    it('shows incoming to the recipient and outgoing to the sender, in the reader’s language, and to nobody else', async () => {
      const doc = await seenDocument(2);
      const before = await unread(executor);
      expect((await send(doc.id, 'ASSIGN_EXECUTOR', { executorId: Number(executor.id) })).status).toBe(200);
      expect(await unread(executor)).toBe(before + 1);

      const incoming = await box(executor, '?box=incoming');
      const item = incoming.list[0]!;
      expect(item).toMatchObject({
        box: 'incoming',
        text: `Document ${doc.label} has been assigned to you for execution.`,
        entity: ENTITY,
        recordId: doc.id,
        link: `/admin/documents/${doc.id}`,
        recipient: { id: executor.id, name: 'Test nexecutor' },
        read: false,
        readAt: null,
      });
      expect(item.sender.id).toBe(String(adminId));
      expect((await box(executor, '?box=incoming', 'ru')).list[0]!.text).toBe(
        `Вам поручено исполнение документа ${doc.label}.`,
      );
      // The spec's aliases.
      expect((await call(executor, 'GET', '/api/income-notifications')).body.list[0].id).toBe(item.id);
      expect((await call(executor, 'GET', '/api/outgoing-notifications')).body.list).toEqual([]);
      expect((await box(executor, '?box=outgoing')).total).toBe(0);

      const admin = { id: String(adminId), token: '' };
      const sent = await call(undefined, 'GET', '/api/notifications?box=outgoing');
      expect(sent.body.list.map((i: Item) => [i.id, i.box])).toContainEqual([item.id, 'outgoing']);
      expect((await call(undefined, 'GET', '/api/notifications')).body.list.map((i: Item) => i.id)).toContain(item.id);
      void admin;

      // Someone else's: 404 to read, to open and to mark; the sender cannot mark it read either.
      expect((await call(bystander, 'GET', `/api/notifications/${item.id}`)).status).toBe(404);
      expect((await call(bystander, 'POST', `/api/notifications/${item.id}/read`)).status).toBe(404);
      expect((await call(undefined, 'POST', `/api/notifications/${item.id}/read`)).status).toBe(404);
      expect((await box(bystander)).list.map((i) => i.id)).not.toContain(item.id);
      expect((await call(undefined, 'GET', `/api/notifications/${item.id}`)).body.box).toBe('outgoing');
      // A visitor: 401, and 0 for the bell.
      const visitor = await app.inject({ method: 'GET', url: '/api/notifications', headers: { authorization: '' } });
      expect(visitor.statusCode).toBe(401);
      const visitorCount = await app.inject({
        method: 'GET',
        url: '/api/notifications/unread-count',
        headers: { authorization: '' },
      });
      expect(visitorCount.json()).toEqual({ count: 0 });
    });

    it('marks read once and all read; the unread filter follows', async () => {
      for (const seed of [3, 4]) {
        const doc = await seenDocument(seed);
        expect((await send(doc.id, 'ASSIGN_EXECUTOR', { executorId: Number(executor.id) })).status).toBe(200);
      }
      const unreadNow = await unread(executor);
      expect(unreadNow).toBeGreaterThanOrEqual(2);
      const mine = await box(executor, '?box=incoming&unread=true&itemsPerPage=1');
      expect(mine.total).toBe(unreadNow);
      expect(mine.list).toHaveLength(1);
      const first = mine.list[0]!;
      expect((await call(executor, 'POST', `/api/notifications/${first.id}/read`)).body).toEqual({
        count: unreadNow - 1,
      });
      const opened = (await call(executor, 'GET', `/api/notifications/${first.id}`)).body;
      expect(opened).toMatchObject({ read: true });
      // A second read keeps the first time.
      await call(executor, 'POST', `/api/notifications/${first.id}/read`);
      expect((await call(executor, 'GET', `/api/notifications/${first.id}`)).body.readAt).toBe(opened.readAt);
      expect((await box(executor, '?unread=false')).list.map((i) => i.id)).toContain(first.id);
      expect((await box(executor, '?unread=true')).list.map((i) => i.id)).not.toContain(first.id);

      expect((await call(executor, 'POST', '/api/notifications/read-all')).body).toEqual({ count: 0 });
      expect(await unread(executor)).toBe(0);
      expect((await box(executor, '?unread=true')).total).toBe(0);
    });

    it('shows the record link only to a reader who may read the record', async () => {
      const doc = await seenDocument(5);
      // The security officer may not read documents: told, but without the link.
      expect((await send(doc.id, 'ASSIGN_EXECUTOR', { executorId: Number(guard.id) })).status).toBe(200);
      const [told] = (await box(guard, '?box=incoming')).list;
      expect(told).toMatchObject({ recordId: doc.id, link: null });
      expect(told!.text).toContain(doc.label);
      expect((await call(undefined, 'GET', `/api/notifications/${told!.id}`)).body.link).toBe(
        `/admin/documents/${doc.id}`,
      );
    });

    it('sends a note by hand about a readable record to staff, with announce Message only', async () => {
      const doc = await seenDocument(6);
      const note = {
        entity: ENTITY,
        recordId: doc.id,
        userIds: [Number(executor.id), Number(guard.id)],
        message: 'Please look',
      };
      expect((await call(undefined, 'POST', '/api/notifications', note)).body).toEqual({ notified: 2 });
      const [got] = (await box(executor, '?box=incoming')).list;
      expect(got).toMatchObject({
        text: `About ${doc.label}: Please look`,
        link: `/admin/documents/${doc.id}`,
        read: false,
      });
      expect((await box(guard, '?box=incoming')).list[0]).toMatchObject({
        text: `About ${doc.label}: Please look`,
        link: null,
      });

      // Without announce Message (security): 403; a recipient who is not staff: 400; an unknown record: 404.
      expect(
        (await call(guard, 'POST', '/api/notifications', { ...note, userIds: [Number(executor.id)] })).status,
      ).toBe(403);
      const stranger = await call(undefined, 'POST', '/api/notifications', {
        ...note,
        userIds: [Number(executor.id), 987654],
      });
      expect(stranger.status).toBe(400);
      expect(stranger.body.fieldErrors).toHaveProperty('/userIds/1');
      expect((await call(undefined, 'POST', '/api/notifications', { ...note, recordId: 987654 })).status).toBe(404);
      expect((await call(undefined, 'POST', '/api/notifications', { ...note, entity: 'no-such' })).status).toBe(404);
      // Nothing more was written by the refused notes.
      expect(await rowsOf(doc.id)).toHaveLength(2);
    });

    it('pushes a new notification live to the recipient after the commit, beside the header counters', async () => {
      const socket = await connectLive(url, executor.token, executor.id);
      sockets.push(socket);
      await socket.subscribe('notification');
      await socket.subscribe('notificationMsg');
      // The header counters keep their channel and shape.
      expect(await socket.next('notificationMsg')).toHaveProperty('total');
      const doc = await seenDocument(7);
      const before = await unread(executor);
      expect((await send(doc.id, 'ASSIGN_EXECUTOR', { executorId: Number(executor.id) })).status).toBe(200);
      expect(await socket.next('notification', (b) => b.action === 'NEW' && b.unread === before + 1)).toEqual({
        action: 'NEW',
        unread: before + 1,
      });
      // Reading elsewhere tells this socket the new count.
      const [latest] = (await box(executor, '?box=incoming&unread=true')).list;
      await call(executor, 'POST', `/api/notifications/${latest!.id}/read`);
      expect(await socket.next('notification', (b) => b.action === 'READ')).toEqual({ action: 'READ', unread: before });
    });
  });
}
