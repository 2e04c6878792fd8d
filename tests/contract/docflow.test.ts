/**
 * The document workflow's own calls (issue #19, docflow), on both databases, one app each:
 * the chain of a document (root → replies, resolutions, child documents) with the reader's
 * scope — a document of another region stays in its place as "restricted", without data;
 * a commission session refused without a quorum ("no quorum") and held with one; closing a
 * project without its document refused with the spec's message; a letter registered from an
 * uploaded file in one step, and nothing left behind when the record is refused.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { createCaller, createStaffUser, signIn, STAFF_PASSWORD, startTestApp } from '../support/app.ts';
import { PDF } from '../support/multipart.ts';

const doc = (number: string, regionId: number, more: Record<string, unknown> = {}) => ({
  number,
  date: '2026-05-04',
  type: 'LETTER',
  regionId,
  ...more,
});

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`docflow on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let admin: ReturnType<typeof createCaller>;
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
      admin = createCaller(app);
    }, 120_000);
    afterAll(async () => close?.());

    /** A staff user of the roles in the region, and a caller signed in as them. */
    const staff = async (username: string, roles: string[], regionId: number) =>
      (await createStaffUser(app, username, roles, regionId)).call;
    const create = async (body: Record<string, unknown>) => {
      const res = await admin('POST', '/api/document/create', body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { id: number };
    };

    describe('commission sessions and closing a project', () => {
      const send = (id: number, version: number, event: string, payload?: Record<string, unknown>) =>
        admin('POST', `/api/project/transition/${id}`, { event, version, ...(payload ? { payload } : {}) });
      let project: { id: number; version: number };
      // The members: staff users who may sign in (a project's employees are staff users).
      const m: number[] = [];
      beforeAll(async () => {
        for (const n of [1, 2, 3, 4]) {
          const user = await admin('POST', '/api/portal-user/create', {
            username: `commission-member-${n}`,
            firstName: 'Member',
            lastName: `No ${n}`,
            isOuter: false,
            canLogin: true,
            roles: ['employee'],
            regionId: 1,
          });
          expect(user.status, JSON.stringify(user.body)).toBe(200);
          m.push(user.body.id as number);
        }
        const created = await admin('POST', '/api/project/create', {
          name: 'Market study',
          projectType: 'COMMISSION',
          employeeIds: [m[0], m[1], m[2], m[3]],
        });
        expect(created.status, JSON.stringify(created.body)).toBe(200);
        const sent = await send(created.body.id, created.body.version, 'SEND_TO_COMMISSION_CHAIR');
        expect(sent.status, JSON.stringify(sent.body)).toBe(200);
        project = sent.body as { id: number; version: number };
      });

      it('refuses a session without a quorum (half of the members or fewer present, strangers not counted) with "no quorum", writing nothing', async () => {
        for (const present of [[m[0], m[1]], [m[0], m[1], 99, 98], []]) {
          const res = await send(project.id, project.version, 'HOLD_SESSION', {
            sessionDate: '2026-05-04',
            presentMemberIds: present,
          });
          expect(res.status, JSON.stringify(present)).toBe(409);
          expect(res.body.message).toBe("No quorum: more than half of the commission's members must be present");
        }
        const ru = await app.inject({
          method: 'POST',
          url: `/api/project/transition/${project.id}`,
          payload: {
            event: 'HOLD_SESSION',
            version: project.version,
            payload: { sessionDate: '2026-05-04', presentMemberIds: [m[0]] },
          },
          headers: { 'accept-language': 'ru' },
        });
        expect(ru.json().message).toMatch(/^Нет кворума/);
        const after = await admin('GET', `/api/project/get/${project.id}`);
        expect(after.body.version).toBe(project.version);
        expect(after.body.sessionDate).toBeUndefined();
      });

      it('holds a session with more than half of the members present, recording its date and who was there', async () => {
        const res = await send(project.id, project.version, 'HOLD_SESSION', {
          sessionDate: '2026-05-04',
          presentMemberIds: [m[0], m[1], m[2]],
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body).toMatchObject({
          status: 'BEING_SEEN',
          sessionDate: '2026-05-04',
          presentMemberIds: [m[0], m[1], m[2]],
        });
        project = res.body as { id: number; version: number };
      });

      it("offers finishing without the required document and refuses it with the spec's message; with it the project closes", async () => {
        const offered = await admin('GET', `/api/project/events/${project.id}`);
        expect(offered.body.events.map((e: { type: string }) => e.type)).toContain('FINISH_WORK');
        const refused = await send(project.id, project.version, 'FINISH_WORK');
        expect(refused.status).toBe(409);
        expect(refused.body.message).toMatch(/^Required documents to close project not found/);
        const named = await admin('PUT', `/api/project/update/${project.id}`, { ...project, documentId: 1 });
        expect(named.status, JSON.stringify(named.body)).toBe(200);
        const done = await send(project.id, named.body.version, 'FINISH_WORK');
        expect(done.status, JSON.stringify(done.body)).toBe(200);
        expect(done.body.status).toBe('REVIEW_FINISHED');
      });
    });

    describe('registering a letter from an uploaded file', () => {
      /** A multipart body of text fields and one file (or none). */
      const form = (fields: Record<string, string>, file?: { name: string; type: string; content: Buffer }) => {
        const boundary = `----docflow${Math.random().toString(16).slice(2)}`;
        const parts: Buffer[] = Object.entries(fields).map(([name, value]) =>
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
        );
        if (file)
          parts.push(
            Buffer.from(
              `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
            ),
            file.content,
            Buffer.from('\r\n'),
          );
        parts.push(Buffer.from(`--${boundary}--\r\n`));
        return {
          payload: Buffer.concat(parts),
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        };
      };
      const upload = async (body: ReturnType<typeof form>, authorization?: string) => {
        const res = await app.inject({
          method: 'POST',
          url: '/api/letter/upload',
          payload: body.payload,
          headers: { ...body.headers, 'accept-language': 'en', ...(authorization ? { authorization } : {}) },
        });
        return { status: res.statusCode, body: res.json() as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
      };
      const counts = async () => ({
        files: (await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM file_entity')).rows[0]!.n,
        documents: (await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM e_correspondence')).rows[0]!.n,
      });
      const letter = { name: 'letter-17.pdf', type: 'application/pdf', content: PDF };
      const fields = { regNumber: 'UP-17', date: '2026-05-06', docTypeId: 'LETTER', regionId: '1' };

      it('registers the document with its file in one step: number, date, type and the file name', async () => {
        const res = await upload(form(fields, letter));
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body).toMatchObject({
          number: 'UP-17',
          date: '2026-05-06',
          type: 'LETTER',
          regionId: 1,
          status: 'CREATED',
        });
        expect(res.body.files).toHaveLength(1);
        const file = await app.db.query<{ name: string; kind: string }>(
          'SELECT name, kind FROM file_entity WHERE id = $1',
          [res.body.files[0]],
        );
        expect(file.rows[0]).toEqual({ name: 'letter-17.pdf', kind: 'correspondence' });
        expect(await app.fileStorage.head(res.body.files[0])).toEqual({ size: expect.any(Number) });
      });

      it('leaves nothing behind when the record is refused after the file was taken: no file row, no stored file, no record', async () => {
        const before = await counts();
        const put = vi.spyOn(app.fileStorage, 'put');
        const res = await upload(form({ ...fields, docTypeId: 'NO_SUCH_TYPE' }, letter));
        expect(res.status).toBe(400);
        expect(Object.keys(res.body.fieldErrors ?? {})).toContain('/type');
        // The file was stored before the transaction, and removed when it failed.
        expect(put).toHaveBeenCalledTimes(1);
        expect(await app.fileStorage.head(put.mock.calls[0]![0])).toBeUndefined();
        put.mockRestore();
        expect(await counts()).toEqual(before);
        // Without a file, nothing either; a role that may not create documents is refused.
        expect((await upload(form(fields))).status).toBe(400);
        await staff('upload-curator', ['curator'], 1);
        const token = (await signIn(app, 'upload-curator', STAFF_PASSWORD)).token;
        expect((await upload(form(fields, letter), `Bearer ${token}`)).status).toBe(403);
        expect(await counts()).toEqual(before);
      });
    });

    describe('the chain of a document', () => {
      let root: { id: number };
      let reply: { id: number };
      let resolution: { id: number };
      let foreign: { id: number };
      let grandchild: { id: number };
      beforeAll(async () => {
        root = await create(doc('CH-1', 1));
        reply = await create(doc('CH-1/R', 1, { parentId: root.id, linkKind: 'REPLY' }));
        resolution = await create(doc('CH-1/Res', 1, { parentId: root.id, linkKind: 'RESOLUTION' }));
        foreign = await create(doc('CH-1/X', 2, { parentId: root.id, linkKind: 'CHILD' }));
        grandchild = await create(doc('CH-1/X/1', 1, { parentId: foreign.id, linkKind: 'REPLY' }));
        await create(doc('OTHER-1', 1));
      });

      it('answers the whole chain from any of its documents: root first, children in order, with link kinds and states', async () => {
        for (const from of [root, grandchild]) {
          const res = await admin('GET', `/api/document/chain/${from.id}`);
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          const list = res.body.list as Array<Record<string, unknown>>;
          expect(list.map((n) => n.label)).toEqual(['CH-1', 'CH-1/R', 'CH-1/Res', 'CH-1/X', 'CH-1/X/1']);
          expect(list.map((n) => n.link)).toEqual([null, 'REPLY', 'RESOLUTION', 'CHILD', 'REPLY']);
          expect(list.map((n) => n.parent)).toEqual([null, 0, 0, 0, 3]);
          expect(list.map((n) => n.depth)).toEqual([0, 1, 1, 1, 2]);
          expect(list.every((n) => n.status === 'CREATED' && n.date === '2026-05-04' && !n.restricted)).toBe(true);
          expect(list.filter((n) => n.current).map((n) => n.id)).toEqual([from.id]);
        }
        // A document on its own is a chain of one.
        const alone = await admin('GET', `/api/document/chain/${reply.id + 4}`);
        expect(alone.body.list).toHaveLength(1);
      });

      it("shows a regional reader another region's document as restricted, without its data, and keeps its children", async () => {
        const reader = await staff('chain-reader', ['employee'], 1);
        const res = await reader('GET', `/api/document/chain/${resolution.id}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const list = res.body.list as Array<Record<string, unknown>>;
        expect(list).toHaveLength(5);
        expect(list[3]).toEqual({ parent: 0, depth: 1, restricted: true, current: false });
        expect(list[4]).toMatchObject({ id: grandchild.id, parent: 3, label: 'CH-1/X/1', restricted: false });
        // The other region's document itself is not found for them, and an unknown one is 404.
        expect((await reader('GET', `/api/document/chain/${foreign.id}`)).status).toBe(404);
        expect((await admin('GET', '/api/document/chain/999999')).status).toBe(404);
        // A reader without the permission is refused.
        const blind = await staff('chain-blind', ['price-monitor'], 1);
        expect((await blind('GET', `/api/document/chain/${root.id}`)).status).toBe(403);
      });

      it('lists the children of a document by the parentId filter', async () => {
        const res = await admin('POST', `/api/document/list-search?parentId=${root.id}`, {});
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.total).toBe(3);
      });
    });
  });
}
