/**
 * What an applicant (an outer user, role citizen) sees of their own record's workflow: they
 * read their own appeal, its status history and its audit — with the dates and the steps but
 * no staff ids or names and no internal comments — and nothing of another citizen's appeal.
 * Staff still see everything. On both backends.
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

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const sample = createSampler(registry.entities.get('appeal')!.schema, registry.references, createServerAjv());
const PASSWORD = 'correct horse battery';

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`an applicant's own appeal on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let admin: ReturnType<typeof createCaller>;
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name, { clock: () => new Date('2026-05-02T20:00:00Z') }));
      admin = createCaller(app);
    });
    afterAll(async () => close?.());

    /** A citizen who can sign in, and a caller with their token. */
    const citizen = async (username: string) => {
      const created = await admin('POST', '/api/portal-user/create', {
        username,
        firstName: 'Aziz',
        lastName: username,
        isOuter: true,
        canLogin: true,
        roles: ['citizen'],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expect(
        (await admin('POST', '/api/auth/set-password', { userId: created.body.id, password: PASSWORD })).status,
      ).toBe(200);
      const { token } = await signIn(app, username, PASSWORD);
      const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
        const res = await app.inject({
          method,
          url,
          payload: payload as never,
          headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
        });
        return { status: res.statusCode, body: res.json() as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
      };
      return { id: String(created.body.id), call };
    };

    it('reads its own appeal, history and audit without staff names or comments; not another citizen’s', async () => {
      const alice = await citizen('applicant-a');
      const bob = await citizen('applicant-b');
      const data = sample(7, { full: true });
      delete data.reviewDeadline;
      const filed = await alice.call('POST', '/api/appeal/create', data);
      expect(filed.status, JSON.stringify(filed.body)).toBe(200);
      const id = filed.body.id as number;

      const taken = await admin('POST', `/api/appeal/transition/${id}`, {
        event: 'TAKE_FOR_REVIEW',
        version: filed.body.version,
        comment: 'internal: ask the shop first',
      });
      expect(taken.status, JSON.stringify(taken.body)).toBe(200);
      // Taken at 01:00 on 3 May in Tashkent: due 15 Tashkent days later.
      expect(taken.body.reviewDeadline).toBe('2026-05-18');
      const seen = await admin('POST', `/api/appeal/transition/${id}`, {
        event: 'MARK_SEEN',
        version: taken.body.version,
      });
      expect(seen.status).toBe(200);

      const own = await alice.call('GET', `/api/appeal/get/${id}`);
      expect(own.status).toBe(200);
      expect(own.body).toMatchObject({ status: 'SEEN', reviewDeadline: '2026-05-18' });
      const history = await alice.call('GET', `/api/appeal/history/${id}`);
      expect(history.status).toBe(200);
      expect(
        history.body.list.map((h: Record<string, unknown>) => [h.event, h.to, h.actor, h.actorName, h.comment]),
      ).toEqual([
        ['TAKE_FOR_REVIEW', 'UNDER_REVIEW', null, null, null],
        ['MARK_SEEN', 'SEEN', null, null, null],
      ]);
      expect(history.body.list.every((h: Record<string, unknown>) => typeof h.at === 'string')).toBe(true);
      // The audit shows their own change as theirs and the staff's as nobody's.
      const audit = await alice.call('GET', `/api/appeal/audit/${id}`);
      expect(audit.status).toBe(200);
      expect(new Set(audit.body.list.map((a: { actor: string | null }) => a.actor))).toEqual(new Set([alice.id, null]));
      // Named by the user directory in the same reply: their own rows by their name, the staff's by no one.
      type Named = { actor: string | null; actorName: string | null };
      for (const row of audit.body.list as Named[])
        expect(row.actorName === null, JSON.stringify(row)).toBe(row.actor === null);
      expect((audit.body.list as Named[]).find((a) => a.actor === alice.id)!.actorName).toMatch(/\S/);
      const listed = await alice.call('POST', '/api/appeal/list-search', { page: 0, itemsPerPage: 100 });
      expect(listed.body.list.map((r: { id: number }) => r.id)).toContain(id);

      // Staff see who did it and the internal comment.
      const staffView = await admin('GET', `/api/appeal/history/${id}`);
      expect(staffView.body.list[0]).toMatchObject({
        comment: 'internal: ask the shop first',
        actorName: expect.any(String),
      });
      expect(staffView.body.list[0].actor).not.toBeNull();
      // The change history names the staff member too, not their id.
      const staffAudit = await admin('GET', `/api/appeal/audit/${id}`);
      const byStaff = (staffAudit.body.list as Named[]).filter((a) => a.actor !== null && a.actor !== alice.id);
      expect(byStaff.length).toBeGreaterThan(0);
      for (const row of byStaff) expect(row.actorName, JSON.stringify(row)).toMatch(/\S/);
      expect(byStaff.every((row) => row.actorName !== row.actor)).toBe(true);

      // Another citizen reaches none of it.
      for (const url of [
        `/api/appeal/get/${id}`,
        `/api/appeal/history/${id}`,
        `/api/appeal/audit/${id}`,
        `/api/appeal/events/${id}`,
      ]) {
        const res = await bob.call('GET', url);
        expect([403, 404], `${url}: ${res.status}`).toContain(res.status);
        expect(JSON.stringify(res.body)).not.toContain('internal');
      }
      const theirs = await bob.call('POST', '/api/appeal/list-search', { page: 0, itemsPerPage: 100 });
      expect(theirs.body.list.map((r: { id: number }) => r.id)).not.toContain(id);
      const refused = await bob.call('POST', `/api/appeal/transition/${id}`, {
        event: 'REPEAT',
        version: seen.body.version,
      });
      expect([403, 404]).toContain(refused.status);
    });
  });
}
