/**
 * Edit rules bound to workflow states (schemas/<entity>/edit.json), as a citizen and staff meet
 * them on an appeal, on both backends: an executor cannot strip the applicant's evidence or
 * rewrite what the applicant filed; nobody rewrites a decided appeal; the applicant fixes a
 * returned appeal and sends it again; while it is reviewed both sides add files but only the
 * uploader removes one; delete only where a state allows it; uploads bound to a record follow
 * the same rules; and `GET /rights/{id}` tells the screens what the user may do. The matrix of
 * every entity × state × role is tests/contract/edit-rules-matrix.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { REPO_ROOT } from '../../src/server/app.ts';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { backends } from '../support/databases.ts';
import { createCaller, signIn, startTestApp } from '../support/app.ts';
import { createSampler } from '../support/sample-data.ts';
import { createRegionPlacer } from '../support/regions.ts';
import { multipart, PDF, PNG } from '../support/multipart.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const appealDef = registry.entities.get('appeal')!;
const sample = createSampler(appealDef.schema, registry.references, createServerAjv());
const { HOME, inRegion } = createRegionPlacer(registry);
const PASSWORD = 'a long enough test pass-phrase 7';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`edit rules of an appeal on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let admin: ReturnType<typeof createCaller>;
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
      admin = createCaller(app);
    });
    afterAll(async () => close?.());

    /** A user with one role in HOME, and a caller with their token. */
    const userWith = async (username: string, role: string, isOuter = false) => {
      const created = await admin('POST', '/api/portal-user/create', {
        username,
        firstName: 'Test',
        lastName: username,
        isOuter,
        canLogin: true,
        roles: [role],
        regionId: HOME,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expect(
        (await admin('POST', '/api/auth/set-password', { userId: created.body.id, password: PASSWORD })).status,
      ).toBe(200);
      const { token } = await signIn(app, username, PASSWORD);
      const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
        const res = await app.inject({
          method,
          url,
          payload: payload as never,
          headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
        });
        return { status: res.statusCode, body: res.json() as Body };
      };
      const upload = async (url: string, name: string, content: Buffer) => {
        const { payload, headers } = multipart([
          { name, type: name.endsWith('.png') ? 'image/png' : 'application/pdf', content },
        ]);
        const res = await app.inject({
          method: 'POST',
          url,
          payload,
          headers: { ...headers, authorization: `Bearer ${token}`, 'accept-language': 'en' },
        });
        return { status: res.statusCode, body: res.json() as Body };
      };
      return { id: String(created.body.id), call, upload };
    };
    const dataOf = (record: Body): Body => {
      const { id: _i, version: _v, status: _s, owner: _o, createdAt: _c, updatedAt: _u, ...data } = record;
      return data;
    };
    const rowOf = async (id: number) =>
      (
        await app.db.query<{ data: Body; version: number; status: string }>(
          'SELECT data, version, status FROM e_appeal WHERE id = $1',
          [id],
        )
      ).rows[0]!;

    let citizen: Awaited<ReturnType<typeof userWith>>;
    let executor: Awaited<ReturnType<typeof userWith>>;
    let head: Awaited<ReturnType<typeof userWith>>;
    beforeAll(async () => {
      citizen = await userWith('rules-citizen', 'citizen', true);
      executor = await userWith('rules-executor', 'executor');
      head = await userWith('rules-head', 'department-head');
    });

    /** An appeal the citizen filed in HOME with one attached file, as the API answers it. */
    const filedAppeal = async (seed: number): Promise<Body> => {
      const uploaded = await citizen.upload('/api/file-entity/save/appeal', 'evidence.pdf', PDF);
      expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
      const data = inRegion(appealDef, sample(seed, { full: true }), HOME);
      delete data.reviewDeadline;
      const filed = await citizen.call('POST', '/api/appeal/create', { ...data, files: [uploaded.body.list[0].id] });
      expect(filed.status, JSON.stringify(filed.body)).toBe(200);
      return filed.body;
    };
    const send = async (record: Body, event: string, payload?: Body): Promise<Body> => {
      const res = await admin('POST', `/api/appeal/transition/${record.id}`, {
        event,
        version: record.version,
        ...(payload ? { payload } : {}),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };

    it('an executor cannot strip the applicant’s files or rewrite what was filed (any state): 403 naming each field, nothing written', async () => {
      let appeal = await filedAppeal(1);
      for (const stage of ['received', 'under review']) {
        if (stage === 'under review') appeal = await send(appeal, 'TAKE_FOR_REVIEW');
        const before = await rowOf(appeal.id);
        const seen = (await executor.call('GET', `/api/appeal/get/${appeal.id}`)).body;
        const changed = {
          ...dataOf(seen),
          files: [],
          appealTypeId: seen.appealTypeId === 1 ? 2 : 1,
          street: 'Elsewhere 1',
          postIndex: '100999',
          locale: seen.locale === 'en' ? 'ru' : 'en',
          version: seen.version,
        };
        const res = await executor.call('PUT', `/api/appeal/update/${appeal.id}`, changed);
        expect(res.status, `${stage}: ${JSON.stringify(res.body)}`).toBe(403);
        expect(Object.keys(res.body.fieldErrors).sort(), stage).toEqual([
          '/appealTypeId',
          '/files',
          '/locale',
          '/postIndex',
          '/street',
        ]);
        expect(await rowOf(appeal.id)).toEqual(before);
      }
    });

    it('nobody rewrites a decided appeal, the applicant included; a repeated one takes the applicant’s new files only', async () => {
      let appeal = await filedAppeal(2);
      appeal = await send(appeal, 'TAKE_FOR_REVIEW');
      appeal = await send(appeal, 'MARK_SEEN');
      appeal = await send(appeal, 'REJECT', { grounds: 'Not a consumer matter' });
      expect(appeal.status).toBe('REJECTED');
      const before = await rowOf(appeal.id);
      const own = (await citizen.call('GET', `/api/appeal/get/${appeal.id}`)).body;
      const rewritten = await citizen.call('PUT', `/api/appeal/update/${appeal.id}`, {
        ...dataOf(own),
        content: 'Something else entirely',
        version: own.version,
      });
      expect(rewritten.status).toBe(403);
      expect(rewritten.body.message).toBe('You may not change this record in its current status');
      expect(rewritten.body.fieldErrors).toEqual({ '/content': 'You may not change this field' });
      // The administrator is bound too: a closed appeal is closed.
      const byAdmin = await admin('PUT', `/api/appeal/update/${appeal.id}`, {
        ...dataOf(own),
        content: 'Edited by admin',
        version: own.version,
      });
      expect(byAdmin.status).toBe(403);
      // Sending it back unchanged is still an update of a closed record.
      expect(
        (await citizen.call('PUT', `/api/appeal/update/${appeal.id}`, { ...dataOf(own), version: own.version })).status,
      ).toBe(403);
      expect(await rowOf(appeal.id)).toEqual(before);

      const repeated = (
        await citizen.call('POST', `/api/appeal/transition/${appeal.id}`, { event: 'REPEAT', version: own.version })
      ).body;
      expect(repeated.status).toBe('REPEATED');
      const more = await citizen.upload(`/api/file-entity/save/appeal?record=${appeal.id}`, 'more.png', PNG);
      expect(more.status, JSON.stringify(more.body)).toBe(200);
      const added = await citizen.call('PUT', `/api/appeal/update/${appeal.id}`, {
        ...dataOf(repeated),
        files: [...repeated.files, more.body.list[0].id],
        version: repeated.version,
      });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      expect(added.body.files).toHaveLength(2);
      const retold = await citizen.call('PUT', `/api/appeal/update/${appeal.id}`, {
        ...dataOf(added.body),
        content: 'A new story',
        version: added.body.version,
      });
      expect(retold.status).toBe(403);
      expect(Object.keys(retold.body.fieldErrors)).toEqual(['/content']);
    });

    it('the applicant fixes an appeal returned to them and sends it again; staff may not', async () => {
      let appeal = await filedAppeal(3);
      appeal = await send(appeal, 'RETURN', { reason: 'Please name the shop' });
      expect(appeal.status).toBe('RETURNED');
      const staffTry = await head.call('PUT', `/api/appeal/update/${appeal.id}`, {
        ...dataOf(appeal),
        content: 'Staff wording',
        version: appeal.version,
      });
      expect(staffTry.status).toBe(403);
      const fixed = await citizen.call('PUT', `/api/appeal/update/${appeal.id}`, {
        ...dataOf(appeal),
        content: 'The shop is Baraka market, stall 12',
        version: appeal.version,
      });
      expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
      const resent = await citizen.call('POST', `/api/appeal/transition/${appeal.id}`, {
        event: 'RESUBMIT',
        version: fixed.body.version,
      });
      expect(resent.status, JSON.stringify(resent.body)).toBe(200);
      expect(resent.body).toMatchObject({ status: 'CREATED', content: 'The shop is Baraka market, stall 12' });
    });

    it('while reviewed, staff and the applicant add files; only the uploader removes one', async () => {
      let appeal = await filedAppeal(4);
      appeal = await send(appeal, 'TAKE_FOR_REVIEW');
      const [evidence] = appeal.files as string[];
      // Staff attach a file to the record (upload bound to it), then link it.
      const unbound = await executor.upload('/api/file-entity/save/appeal', 'answer.pdf', PDF);
      expect(unbound.status).toBe(403);
      expect(unbound.body.message).toBe('Name the record the files are for: you may only change existing records');
      const staffFile = await executor.upload(`/api/file-entity/save/appeal?record=${appeal.id}`, 'answer.pdf', PDF);
      expect(staffFile.status, JSON.stringify(staffFile.body)).toBe(200);
      const staffId = staffFile.body.list[0].id as string;
      let current = (await executor.call('GET', `/api/appeal/get/${appeal.id}`)).body;
      const added = await executor.call('PUT', `/api/appeal/update/${appeal.id}`, {
        ...dataOf(current),
        files: [evidence, staffId],
        version: current.version,
      });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      current = added.body;
      // The executor may not take the applicant's evidence out, even while adding.
      const stripped = await executor.call('PUT', `/api/appeal/update/${appeal.id}`, {
        ...dataOf(current),
        files: [staffId],
        version: current.version,
      });
      expect(stripped.status).toBe(403);
      expect(stripped.body.fieldErrors).toEqual({ '/files': 'Only whoever attached a file may remove it' });
      // Nor may the applicant remove the executor's file; each removes their own.
      const byCitizen = await citizen.call('PUT', `/api/appeal/update/${appeal.id}`, {
        ...dataOf(current),
        files: [evidence],
        version: current.version,
      });
      expect(byCitizen.status).toBe(403);
      expect(byCitizen.body.fieldErrors).toEqual({ '/files': 'Only whoever attached a file may remove it' });
      const info = await citizen.call('GET', `/api/file-entity/info?ids=${evidence},${staffId}`);
      expect(Object.fromEntries(info.body.list.map((f: Body) => [f.id, f.removable]))).toEqual({
        [evidence!]: true,
        [staffId]: false,
      });
      const own = await executor.call('PUT', `/api/appeal/update/${appeal.id}`, {
        ...dataOf(current),
        files: [evidence],
        version: current.version,
      });
      expect(own.status, JSON.stringify(own.body)).toBe(200);
      // The review deadline changes only by the machine's events.
      const deadline = await executor.call('PUT', `/api/appeal/update/${appeal.id}`, {
        ...dataOf(own.body),
        reviewDeadline: '2030-01-01',
        version: own.body.version,
      });
      expect(deadline.status).toBe(403);
      expect(Object.keys(deadline.body.fieldErrors)).toEqual(['/reviewDeadline']);
    });

    it('deletes only where a state allows it (and the role may delete)', async () => {
      const fresh = await filedAppeal(5);
      expect((await executor.call('DELETE', `/api/appeal/delete/${fresh.id}`)).status).toBe(403);
      const taken = await send(await filedAppeal(6), 'TAKE_FOR_REVIEW');
      const refused = await head.call('DELETE', `/api/appeal/delete/${taken.id}`);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('You may not delete this record in its current status');
      expect((await rowOf(taken.id)).status).toBe('UNDER_REVIEW');
      expect((await head.call('DELETE', `/api/appeal/delete/${fresh.id}`)).status).toBe(200);
    });

    it('tells the screens what the user may do now (GET /rights/{id})', async () => {
      const appeal = await filedAppeal(7);
      const mine = await citizen.call('GET', `/api/appeal/rights/${appeal.id}`);
      expect(mine.status).toBe(200);
      expect(mine.body.update).toBe(true);
      expect(mine.body.delete).toBe(false);
      // What nobody changes by update, and the citizen role's own read-only fields.
      expect(mine.body.readOnly).toEqual(
        expect.arrayContaining(['/applicantType', '/customer/pnfl', '/reviewDeadline']),
      );
      expect(mine.body.readOnly).not.toContain('/content');
      const theirs = await executor.call('GET', `/api/appeal/rights/${appeal.id}`);
      expect(theirs.body).toMatchObject({ update: false, delete: false });
      expect(theirs.body.readOnly).toContain('/content');
      expect((await head.call('GET', `/api/appeal/rights/${appeal.id}`)).body).toMatchObject({
        update: false,
        delete: true,
      });
      const taken = await send(appeal, 'TAKE_FOR_REVIEW');
      const reviewing = (await executor.call('GET', `/api/appeal/rights/${taken.id}`)).body;
      expect(reviewing.update).toBe(true);
      expect(reviewing.readOnly).not.toContain('/files');
      expect(reviewing.readOnly).toContain('/content');
      // Another user's appeal: not found, as everywhere.
      const stranger = await userWith('rules-stranger', 'citizen', true);
      expect((await stranger.call('GET', `/api/appeal/rights/${appeal.id}`)).status).toBe(404);
    });
  });
}
