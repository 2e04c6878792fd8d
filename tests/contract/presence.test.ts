import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';
import { connectLive, createStaff, type LiveClient } from '../support/stomp.ts';
import { PRESENCE_EXPIRY_MS } from '../../src/server/messenger/presence.ts';

interface Online {
  list: Array<{ userId: string; fullName: string; department: string | null; region: number | null; since: string }>;
  total: number;
}

const waitUntil = async (check: () => boolean | Promise<boolean>, what: string) => {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`gave up waiting for ${what}`);
};

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`employees online now (live presence) on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let url: string;
    // The app's clock: moved, never slept on.
    let now = Date.parse('2026-03-02T09:00:00Z');
    const open: LiveClient[] = [];
    type User = { id: string; token: string };
    let alice: User; // employee of region 2, connects
    let bob: User; // employee of region 3, connects then leaves
    let carol: User; // employee of region 2, never connects
    let jurist: User; // scope ALL
    let citizen: User; // an outer user
    const online = async (user: User | undefined) => {
      const res = await app.inject({
        method: 'GET',
        url: '/api/presence/online',
        headers: { authorization: user ? `Bearer ${user.token}` : '', 'accept-language': 'en' },
      });
      return { status: res.statusCode, body: res.json() as Online };
    };
    const ids = async (user: User) => (await online(user)).body.list.map((u) => u.userId).sort();

    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name, { clock: () => new Date(now) }));
      await app.listen({ port: 0, host: '127.0.0.1' });
      url = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/gs-guide-websocket`;
      alice = await createStaff(app, 'alice', ['employee'], { regionId: 2 });
      bob = await createStaff(app, 'bob', ['employee'], { regionId: 3 });
      carol = await createStaff(app, 'carol', ['employee'], { regionId: 2 });
      jurist = await createStaff(app, 'jurist', ['jurist'], { regionId: 15 });
      citizen = await createStaff(app, 'citizen', ['citizen'], { isOuter: true });
    });
    afterAll(async () => {
      await Promise.all(open.map((c) => c.close()));
      await close?.();
    });

    it('lists two staff users connected with the real STOMP client, with name, region and since when', async () => {
      expect((await online(jurist)).body).toEqual({ list: [], total: 0 });
      open.push(await connectLive(url, alice.token, alice.id));
      open.push(await connectLive(url, bob.token, bob.id));
      const { status, body } = await online(jurist);
      expect(status).toBe(200);
      expect(body.total).toBe(2);
      expect(body.list.map((u) => u.userId).sort()).toEqual([alice.id, bob.id].sort());
      const a = body.list.find((u) => u.userId === alice.id)!;
      expect(a).toMatchObject({ fullName: 'Test alice', region: 2 });
      expect(a.since).toBe(new Date(now).toISOString());
    });

    it('keeps to the caller’s scope: a REGION role sees its region, ALL sees everyone', async () => {
      expect(await ids(alice)).toEqual([alice.id]);
      expect(await ids(carol)).toEqual([alice.id]);
      expect(await ids(bob)).toEqual([bob.id]);
      expect(await ids(jurist)).toEqual([alice.id, bob.id].sort());
    });

    it('refuses outer users (403) and visitors (401)', async () => {
      expect((await online(citizen)).status).toBe(403);
      expect((await online(undefined)).status).toBe(401);
    });

    it('drops a user whose socket disconnects', async () => {
      const b = open.splice(1, 1)[0]!;
      await b.close();
      await waitUntil(async () => !(await ids(jurist)).includes(bob.id), 'bob to go offline');
      expect(await ids(jurist)).toEqual([alice.id]);
      const { rows } = await app.db.query('SELECT 1 FROM live_presence WHERE user_id = $1', [bob.id]);
      expect(rows).toHaveLength(0);
    });

    it('counts another instance’s sockets and forgets a stopped instance’s rows once they expire', async () => {
      const at = (ms: number) => new Date(now + ms).toISOString();
      await app.db.query(
        `INSERT INTO live_presence (session_id, user_id, instance, connected_at, last_seen) VALUES
           ('peer-1', $1, 'peer', $3, $3), ('crashed-1', $2, 'crashed', $4, $4)`,
        [carol.id, bob.id, at(-1000), at(-PRESENCE_EXPIRY_MS - 1000)],
      );
      expect(await ids(jurist)).toEqual([alice.id, carol.id].sort());
      await app.presence.beat();
      const { rows } = await app.db.query<{ session_id: string }>('SELECT session_id FROM live_presence');
      expect(rows.map((r) => r.session_id)).not.toContain('crashed-1');
      expect(rows.map((r) => r.session_id)).toContain('peer-1');
      await app.db.query(`DELETE FROM live_presence WHERE instance = 'peer'`);
    });

    it('keeps its own sockets alive with the heartbeat; without it they expire', async () => {
      now += PRESENCE_EXPIRY_MS + 1000;
      // This instance has not beaten since: to the others it looks stopped.
      expect(await ids(jurist)).toEqual([]);
      await app.presence.beat();
      expect(await ids(jurist)).toEqual([alice.id]);
      // "since" stays the time the socket connected.
      expect((await online(jurist)).body.list[0]!.since).toBe(new Date(now - PRESENCE_EXPIRY_MS - 1000).toISOString());
    });
  });
}
