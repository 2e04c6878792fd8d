/**
 * Project task boards on both backends: columns (project-task) and cards (project-task-card)
 * through the generic verbs; the order capability's moves within and across columns, a stale
 * version answered 409 with the current order, two racing moves leaving places 0…n-1; the
 * permissions (a reader may not move, a role that may not read projects sees no board); and
 * the currentUser filter of my tasks, which lists only the caller's cards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { createCaller, signIn, startTestApp } from '../support/app.ts';

type Caller = ReturnType<typeof createCaller>;
type Entry = { id: number; group: number; position: number; version: number };
const PASSWORD = 'Str0ng-enough-passw0rd!';

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`task boards on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let admin: Caller;
    const users: Record<string, { id: number; call: Caller }> = {};
    let projectId: number;

    /** A caller with this user's token. */
    const callerOf =
      (token: string): Caller =>
      async (method, url, payload) => {
        const res = await app.inject({
          method,
          url,
          payload: payload as never,
          headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
        });
        return { status: res.statusCode, body: res.json() };
      };

    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
      admin = createCaller(app);
      for (const [username, role] of [
        ['member', 'commission-member'],
        ['reader', 'substitute'],
        ['outsider', 'employee'],
      ] as const) {
        const created = await admin('POST', '/api/portal-user/create', {
          username,
          firstName: 'Test',
          lastName: username,
          isOuter: false,
          canLogin: true,
          roles: [role],
          regionId: 14,
        });
        expect(created.status, JSON.stringify(created.body)).toBe(200);
        await admin('POST', '/api/auth/set-password', { userId: created.body.id, password: PASSWORD });
        const { token } = await signIn(app, username, PASSWORD);
        users[username] = { id: Number(created.body.id), call: callerOf(token) };
      }
      const project = await admin('POST', '/api/project/create', { name: 'Board project', projectType: 'COMMISSION' });
      expect(project.status, JSON.stringify(project.body)).toBe(200);
      projectId = project.body.id;
    }, 120_000);
    afterAll(async () => close?.());

    const column = async (name: string, position: number, call: Caller = admin) => {
      const res = await call('POST', '/api/project-task/create', { name, projectId, position });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { id: number; version: number };
    };
    const card = async (name: string, taskId: number, position: number, employeeIds: number[] = []) => {
      const res = await admin('POST', '/api/project-task-card/create', {
        name,
        taskId,
        projectId,
        position,
        color: 'green',
        employeeIds,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { id: number; version: number };
    };
    /** The cards of a column as `name@position`, in the board's order. */
    const cardsOf = async (taskId: number): Promise<string[]> => {
      const res = await admin('POST', `/api/project-task-card/list-search?taskId=${taskId}`, {
        sortBy: ['position', 'id'],
        itemsPerPage: 100,
      });
      expect(res.status).toBe(200);
      return res.body.list.map((c: { name: string; position: number }) => `${c.name}@${c.position}`);
    };
    const versionOf = async (id: number) => (await admin('GET', `/api/project-task-card/get/${id}`)).body.version;

    it('creates, lists, renames and deletes columns and cards of a project', async () => {
      const todo = await column('To do', 0);
      await column('Done', 1);
      const list = await admin('POST', `/api/project-task/list-search?projectId=${projectId}`, {
        sortBy: ['position'],
      });
      expect(list.body.list.map((c: { name: string }) => c.name)).toEqual(['To do', 'Done']);
      const renamed = await admin('PUT', `/api/project-task/update/${todo.id}`, {
        name: 'Backlog',
        projectId,
        position: 0,
        version: todo.version,
      });
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
      const c = await card('Write the memo', todo.id, 0);
      expect(await cardsOf(todo.id)).toEqual(['Write the memo@0']);
      const removed = await admin('DELETE', `/api/project-task-card/delete/${c.id}`);
      expect(removed.status).toBe(200);
      expect(await cardsOf(todo.id)).toEqual([]);
    });

    it('moves a card within its column and into another one, renumbering both', async () => {
      const a = await column('A', 10);
      const b = await column('B', 11);
      const [c1, c2, c3] = [await card('c1', a.id, 0), await card('c2', a.id, 1), await card('c3', a.id, 2)];
      const d1 = await card('d1', b.id, 0);
      // c3 to the top of A.
      const up = await admin('PUT', `/api/project-task-card/order/${c3.id}`, { index: 0, version: c3.version });
      expect(up.status, JSON.stringify(up.body)).toBe(200);
      expect(await cardsOf(a.id)).toEqual(['c3@0', 'c1@1', 'c2@2']);
      // c1 into B after d1; A closes the gap.
      const across = await admin('PUT', `/api/project-task-card/order/${c1.id}`, {
        group: b.id,
        index: 1,
        version: await versionOf(c1.id),
      });
      expect(across.status, JSON.stringify(across.body)).toBe(200);
      expect(await cardsOf(a.id)).toEqual(['c3@0', 'c2@1']);
      expect(await cardsOf(b.id)).toEqual(['d1@0', 'c1@1']);
      const moved = (await admin('GET', `/api/project-task-card/get/${c1.id}`)).body;
      expect(moved.taskId).toBe(b.id);
      // The reply's order carries the new versions, so the next move needs no reload.
      const entry = (across.body.order as Entry[]).find((e) => e.id === c2.id)!;
      expect(entry.version).toBe(await versionOf(c2.id));
      expect(d1.id).toBeGreaterThan(0);
      // Columns move too (the board's parent is the group).
      const col = await admin('PUT', `/api/project-task/order/${b.id}`, {
        index: 0,
        version: (await admin('GET', `/api/project-task/get/${b.id}`)).body.version,
      });
      expect(col.status, JSON.stringify(col.body)).toBe(200);
      expect((col.body.order as Entry[])[0]!.id).toBe(b.id);
      // The move is in the record's history.
      const audit = await admin('GET', `/api/project-task-card/audit/${c1.id}`);
      expect(audit.body.list[0].action).toBe('update');
    });

    it('answers a stale version with 409 and the current order, and changes nothing', async () => {
      const col = await column('Stale', 20);
      const x = await card('x', col.id, 0);
      await card('y', col.id, 1);
      const first = await admin('PUT', `/api/project-task-card/order/${x.id}`, { index: 1, version: x.version });
      expect(first.status).toBe(200);
      const stale = await admin('PUT', `/api/project-task-card/order/${x.id}`, { index: 0, version: x.version });
      expect(stale.status).toBe(409);
      expect(stale.body.details.order.map((e: Entry) => e.position)).toEqual([0, 1]);
      expect(stale.body.details.order[1].id).toBe(x.id);
      expect(await cardsOf(col.id)).toEqual(['y@0', 'x@1']);
    });

    it('two racing moves in one column leave every place taken once', async () => {
      const col = await column('Race', 30);
      const cards = [];
      for (let i = 0; i < 6; i++) cards.push(await card(`r${i}`, col.id, i));
      const [p, q] = [cards[0]!, cards[5]!];
      const results = await Promise.all([
        admin('PUT', `/api/project-task-card/order/${p.id}`, { index: 4, version: p.version }),
        admin('PUT', `/api/project-task-card/order/${q.id}`, { index: 0, version: q.version }),
      ]);
      // Both succeed or the later one was refused as stale (its version bumped by the other's renumbering).
      expect(results.map((r) => r.status).every((s) => s === 200 || s === 409)).toBe(true);
      expect(results.some((r) => r.status === 200)).toBe(true);
      const places = (await cardsOf(col.id)).map((s) => Number(s.split('@')[1]));
      expect(places).toEqual([0, 1, 2, 3, 4, 5]);
    });

    it('lets a reader read but not move or create, and a role without projects see nothing', async () => {
      const col = await column('Perm', 40);
      const c = await card('p', col.id, 0);
      const reader = users.reader!.call;
      expect((await reader('GET', `/api/project-task-card/get/${c.id}`)).status).toBe(200);
      expect(
        (await reader('PUT', `/api/project-task-card/order/${c.id}`, { index: 0, version: c.version })).status,
      ).toBe(403);
      expect(
        (await reader('POST', '/api/project-task-card/create', { name: 'n', taskId: col.id, projectId })).status,
      ).toBe(403);
      const outsider = users.outsider!.call;
      expect((await outsider('POST', `/api/project-task-card/list-search?taskId=${col.id}`, {})).status).toBe(403);
      expect((await outsider('PUT', `/api/project-task/order/${col.id}`, { index: 0, version: 1 })).status).toBe(403);
      // A member moves (update rights on the board).
      const member = users.member!.call;
      expect(
        (await member('PUT', `/api/project-task-card/order/${c.id}`, { index: 0, version: c.version })).status,
      ).toBe(200);
      // A move into a column that does not exist is a bad request.
      const bad = await admin('PUT', `/api/project-task-card/order/${c.id}`, {
        group: 999999,
        index: 0,
        version: await versionOf(c.id),
      });
      expect(bad.status).toBe(400);
    });

    it('refuses malformed moves with 400 and unknown records with 404', async () => {
      const col = await column('Bad', 60);
      const c = await card('b', col.id, 0);
      for (const body of [
        { index: -1, version: c.version },
        { index: 0 },
        { index: 0, version: c.version, group: 'three' },
        { index: 0, version: c.version, extra: true },
      ])
        expect((await admin('PUT', `/api/project-task-card/order/${c.id}`, body)).status, JSON.stringify(body)).toBe(
          400,
        );
      expect((await admin('PUT', '/api/project-task-card/order/999999', { index: 0, version: 1 })).status).toBe(404);
      expect(await cardsOf(col.id)).toEqual(['b@0']);
    });

    it('my tasks lists only the cards whose employees include the caller', async () => {
      const col = await column('Mine', 50);
      const member = users.member!;
      const reader = users.reader!;
      await card('for member', col.id, 0, [member.id]);
      await card('for both', col.id, 1, [reader.id, member.id]);
      await card('for reader', col.id, 2, [reader.id]);
      const names = async (call: Caller) =>
        (await call('POST', '/api/project-task-card/list-search?mine=true', { sortBy: ['id'] })).body.list
          .map((c: { name: string }) => c.name)
          .sort();
      expect(await names(member.call)).toEqual(['for both', 'for member']);
      expect(await names(reader.call)).toEqual(['for both', 'for reader']);
      expect(await names(admin)).toEqual([]);
    });
  });
}
