/**
 * Sign-in, tokens and permissions over the real API on both backends: password sign-in and
 * its one answer for every failure, throttling, the attempt log, rotating refresh tokens
 * with reuse detection, logout, and a role × entity × action matrix generated from
 * schemas/_access/access.json — with object-level and regional checks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { buildApp, REPO_ROOT } from '../../src/server/app.ts';
import { REFRESH_TOKEN_SECONDS, REMEMBER_REFRESH_SECONDS } from '../../src/server/auth/tokens.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { createAbility, rulesFromPermissions } from '../../src/shared/ability.ts';
import { backends } from '../support/databases.ts';
import { forgedToken, startTestApp, TEST_ADMIN_PASSWORD } from '../support/app.ts';
import { multipart, PNG } from '../support/multipart.ts';
import { createSampler } from '../support/sample-data.ts';
import { createEditRulesModel } from '../support/edit-rules-model.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const access = registry.access!;

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`sign-in and permissions on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
    });
    afterAll(async () => close?.());

    const anon = { authorization: '', 'accept-language': 'en' };
    const as = (token: string) => ({ authorization: `Bearer ${token}`, 'accept-language': 'en' });
    const signIn = (username: string, password: string, ip = '10.0.0.1', rememberMe?: boolean) =>
      app.inject({
        method: 'POST',
        url: '/api/auth-payload',
        payload: { username, password, ...(rememberMe === undefined ? {} : { rememberMe }) },
        headers: { ...anon, 'x-forwarded-for': ip },
        remoteAddress: ip,
      });
    /** How long a refresh token was issued for, in seconds, as stored (only its hash is). */
    const lifetimeOf = async (refreshToken: string) => {
      const { rows } = await app.db.query<{ seconds: number }>(
        'SELECT extract(epoch FROM expires_at - created_at)::int AS seconds FROM refresh_token WHERE token_hash = $1',
        [createHash('sha256').update(refreshToken).digest('hex')],
      );
      return rows[0]?.seconds;
    };
    const refreshWith = (refreshToken: string) =>
      app.inject({
        method: 'POST',
        url: '/api/o/token/',
        payload: { grant_type: 'refresh_token', refresh_token: refreshToken },
        headers: anon,
      });
    let made = 0;
    /** A user with the given roles and region, signed in; returns their token and id. */
    const userWith = async (roles: string[], extra: Record<string, unknown> = {}) => {
      made += 1;
      const username = `u${made}-${roles.join('-')}`.slice(0, 50);
      const created = await app.inject({
        method: 'POST',
        url: '/api/portal-user/create',
        payload: { username, firstName: 'Test', lastName: 'User', isOuter: false, canLogin: true, roles, ...extra },
      });
      expect(created.statusCode, created.body).toBe(200);
      const id = created.json().id as number;
      const set = await app.inject({
        method: 'POST',
        url: '/api/auth/set-password',
        payload: { userId: id, password: 'correct horse battery' },
      });
      expect(set.statusCode, set.body).toBe(200);
      const session = await signIn(username, 'correct horse battery', `10.1.${made}.1`);
      expect(session.statusCode, session.body).toBe(200);
      return {
        id,
        token: session.json().token as string,
        refreshToken: session.json().refreshToken as string,
        body: session.json(),
      };
    };

    it('signs in with the spec reply and says only that the pair is wrong otherwise', async () => {
      const ok = await userWith(['employee'], { regionId: 3 });
      expect(ok.body).toMatchObject({ id: ok.id, isOuter: false, employee: { firstName: 'Test', lastName: 'User' } });
      expect(ok.body.permissions).toContain('read Appeal');
      const wrong = await signIn('admin', 'not the password');
      const unknown = await signIn('nobody-at-all', 'whatever-password');
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.json()).toEqual(unknown.json());
      expect(wrong.json().message).toBe('Wrong username or password');
      const log = await app.db.query<{ outcome: string }>(
        `SELECT outcome FROM login_attempt WHERE username IN ('admin', 'nobody-at-all') ORDER BY id`,
      );
      expect(log.rows.map((r) => r.outcome)).toEqual(expect.arrayContaining(['ok', 'bad-credentials']));
    });

    it('throttles a username after 5 failures a minute with a localized 429', async () => {
      await userWith(['citizen']);
      const username = `u${made}-citizen`;
      for (let i = 0; i < 5; i++)
        expect((await signIn(username, 'wrong-password-x', `10.9.${i}.9`)).statusCode).toBe(401);
      const blocked = await app.inject({
        method: 'POST',
        url: '/api/auth-payload',
        payload: { username, password: 'correct horse battery' },
        headers: { ...anon, 'accept-language': 'ru' },
        remoteAddress: '10.9.99.9',
      });
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(blocked.json().message).toMatch(/^Слишком много попыток входа/);
    });

    it('rotates refresh tokens, revokes the family on reuse, and logs out', async () => {
      const user = await userWith(['employee'], { regionId: 2 });
      const first = await app.inject({
        method: 'POST',
        url: '/api/o/token/',
        payload: { grant_type: 'refresh_token', refresh_token: user.refreshToken },
        headers: anon,
      });
      expect(first.statusCode).toBe(200);
      const next = first.json() as { access_token: string; refresh_token: string };
      expect(
        (await app.inject({ method: 'GET', url: '/api/appeal/get/empty', headers: as(next.access_token) })).statusCode,
      ).toBe(200);
      // The old token again: stolen — the whole family ends, the new one too.
      const reuse = await app.inject({
        method: 'POST',
        url: '/api/o/token/',
        payload: { grant_type: 'refresh_token', refresh_token: user.refreshToken },
        headers: anon,
      });
      expect(reuse.statusCode).toBe(401);
      expect(reuse.json().detail).toBeTruthy();
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/api/o/token/',
            payload: { grant_type: 'refresh_token', refresh_token: next.refresh_token },
            headers: anon,
          })
        ).statusCode,
      ).toBe(401);

      const other = await userWith(['employee'], { regionId: 2 });
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/api/logout',
            payload: { refresh_token: other.refreshToken },
            headers: as(other.token),
          })
        ).statusCode,
      ).toBe(200);
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/api/o/token/',
            payload: { grant_type: 'refresh_token', refresh_token: other.refreshToken },
            headers: anon,
          })
        ).statusCode,
      ).toBe(401);
      // A forged or foreign token is refused, not treated as a guest.
      const forged = forgedToken(other.token);
      expect((await app.inject({ method: 'GET', url: '/api/appeal/get/empty', headers: as(forged) })).statusCode).toBe(
        401,
      );
    });

    it('answers a refresh with every field of the sign-in reply, uploadPath among them', async () => {
      const user = await userWith(['employee'], { regionId: 2 });
      // A new avatar after sign-in: the refresh reply carries it (spec §7: access_token, refresh_token, uploadPath).
      const route = [...registry.entities.values()].find((d) => d.manifest.photo?.route)!.manifest.photo!.route!;
      const photo = multipart([{ name: 'me.png', type: 'image/png', content: PNG }]);
      const uploaded = await app.inject({
        method: 'POST',
        url: `/api/file-entity/save/${route}/for-profile`,
        payload: photo.payload,
        headers: { ...photo.headers, ...as(user.token) },
      });
      expect(uploaded.statusCode, uploaded.body).toBe(200);
      const refreshed = await refreshWith(user.refreshToken);
      expect(refreshed.statusCode, refreshed.body).toBe(200);
      const body = refreshed.json();
      expect(Object.keys(body)).toEqual(expect.arrayContaining(Object.keys(user.body)));
      expect(body).toMatchObject({
        ...user.body,
        token: expect.any(String),
        refreshToken: expect.any(String),
        uploadPath: uploaded.json().uploadPath,
      });
      expect(body.uploadPath).toMatch(/^\/api\/file-entity\/get\//);
      expect(body).toMatchObject({
        access_token: body.token,
        refresh_token: body.refreshToken,
        token_type: 'Bearer',
        expires_in: body.expiresIn,
      });
      expect(
        (await app.inject({ method: 'GET', url: '/api/appeal/get/empty', headers: as(body.token) })).statusCode,
      ).toBe(200);
    });

    it('keeps a remember-me refresh token 30 days and any other one day, across rotation', async () => {
      const user = await userWith(['employee']);
      expect(await lifetimeOf(user.refreshToken)).toBe(REFRESH_TOKEN_SECONDS);
      expect(REFRESH_TOKEN_SECONDS).toBe(24 * 3600);
      const remembered = await signIn(`u${made}-employee`, 'correct horse battery', '10.2.0.1', true);
      expect(remembered.statusCode, remembered.body).toBe(200);
      expect(await lifetimeOf(remembered.json().refreshToken)).toBe(REMEMBER_REFRESH_SECONDS);
      expect(REMEMBER_REFRESH_SECONDS).toBe(30 * 24 * 3600);
      // The next token of a remembered family is remembered too; the other stays a day.
      expect(await lifetimeOf((await refreshWith(remembered.json().refreshToken)).json().refreshToken)).toBe(
        REMEMBER_REFRESH_SECONDS,
      );
      expect(await lifetimeOf((await refreshWith(user.refreshToken)).json().refreshToken)).toBe(REFRESH_TOKEN_SECONDS);
    });

    it('signs out one device: its access token is refused at once, another device keeps working', async () => {
      const laptop = await userWith(['employee'], { regionId: 2 });
      const phone = await signIn(`u${made}-employee`, 'correct horse battery', '10.3.0.1');
      const tablet = await signIn(`u${made}-employee`, 'correct horse battery', '10.3.0.2');
      const get = (token: string) => app.inject({ method: 'GET', url: '/api/appeal/get/empty', headers: as(token) });
      // Used once first, so that the token is in the verified-token cache.
      expect((await get(laptop.token)).statusCode).toBe(200);
      // As the web app signs out: the refresh token in the body, no bearer header.
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/api/logout',
            payload: { refresh_token: laptop.refreshToken },
            headers: anon,
          })
        ).statusCode,
      ).toBe(200);
      const refused = await get(laptop.token);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().message).toBeTruthy();
      expect((await get(phone.json().token)).statusCode).toBe(200);
      // A client with only its access token signs out by it (its family).
      expect(
        (await app.inject({ method: 'POST', url: '/api/logout', payload: {}, headers: as(tablet.json().token) }))
          .statusCode,
      ).toBe(200);
      expect((await get(tablet.json().token)).statusCode).toBe(401);
      expect((await refreshWith(tablet.json().refreshToken)).statusCode).toBe(401);
      expect((await get(phone.json().token)).statusCode).toBe(200);
    });

    it('signs out by the bearer token alone: no body, an empty JSON body or an empty object, as with the refresh token', async () => {
      const user = await userWith(['employee'], { regionId: 2 });
      const get = (token: string) => app.inject({ method: 'GET', url: '/api/appeal/get/empty', headers: as(token) });
      const ways: Array<{ name: string; request: (token: string, refreshToken: string) => InjectOptions }> = [
        { name: 'no body', request: (token) => ({ method: 'POST', url: '/api/logout', headers: as(token) }) },
        {
          name: 'JSON content type, no bytes',
          request: (token) => ({
            method: 'POST',
            url: '/api/logout',
            payload: '',
            headers: { ...as(token), 'content-type': 'application/json' },
          }),
        },
        {
          name: 'an empty object',
          request: (token) => ({ method: 'POST', url: '/api/logout', payload: {}, headers: as(token) }),
        },
        {
          name: 'the refresh token',
          request: (token, refreshToken) => ({
            method: 'POST',
            url: '/api/logout',
            payload: { refresh_token: refreshToken },
            headers: as(token),
          }),
        },
      ];
      for (const [i, way] of ways.entries()) {
        const device = await signIn(`u${made}-employee`, 'correct horse battery', `10.4.0.${i + 1}`);
        expect(device.statusCode, device.body).toBe(200);
        const { token, refreshToken } = device.json() as { token: string; refreshToken: string };
        expect((await get(token)).statusCode).toBe(200);
        const out = await app.inject(way.request(token, refreshToken));
        expect(out.statusCode, `${way.name}: ${out.body}`).toBe(200);
        expect((await get(token)).statusCode, way.name).toBe(401);
        expect((await refreshWith(refreshToken)).statusCode, way.name).toBe(401);
      }
      // The first device's session was none of these: it still works.
      expect((await get(user.token)).statusCode).toBe(200);
    });

    it.skipIf(backend.name !== 'postgres')(
      'ends a session signed out on another instance within the revocation poll',
      async () => {
        // A second instance on the same database, reading others' revocations every 50 ms.
        const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-test-'));
        const other = await buildApp({
          dataDir,
          databaseUrl: app.config.databaseUrl,
          adminPassword: TEST_ADMIN_PASSWORD,
          revocationPollMs: 50,
        });
        try {
          await other.ready();
          const user = await userWith(['employee'], { regionId: 2 });
          const get = () => other.inject({ method: 'GET', url: '/api/appeal/get/empty', headers: as(user.token) });
          expect((await get()).statusCode).toBe(200);
          expect(
            (
              await app.inject({
                method: 'POST',
                url: '/api/logout',
                payload: { refresh_token: user.refreshToken },
                headers: anon,
              })
            ).statusCode,
          ).toBe(200);
          await expect.poll(async () => (await get()).statusCode).toBe(401);
        } finally {
          await other.close();
          rmSync(dataDir, { recursive: true, force: true });
        }
      },
    );

    it('lets each default role do exactly what its permissions say, on every entity', async () => {
      const anyEntity = [...registry.entities.values()];
      // One record of every entity, made by the admin, to read, change and delete.
      const records = new Map<
        string,
        { id: number; version: number; data: Record<string, unknown>; status: string; owner: string }
      >();
      for (const def of anyEntity) {
        const sample = createSampler(def.schema, registry.references, createServerAjv())(77, { full: true });
        const res = await app.inject({ method: 'POST', url: `/api${def.manifest.base}/create`, payload: sample });
        expect(res.statusCode, res.body).toBe(200);
        records.set(def.id, {
          id: res.json().id,
          version: 1,
          data: sample,
          status: res.json().status,
          owner: res.json().owner,
        });
      }
      for (const role of access.roles.filter((r) => r.scope === 'ALL' && r.code !== 'admin')) {
        const user = await userWith([role.code]);
        const ability = createAbility(rulesFromPermissions(role.permissions));
        for (const def of anyEntity) {
          const base = `/api${def.manifest.base}`;
          const rec = records.get(def.id)!;
          const may = (action: string) => ability.can(action, def.manifest.subject);
          const expectStatus = (res: { statusCode: number; body: string }, allowed: boolean, what: string) =>
            expect(res.statusCode, `${role.code} ${what} ${def.id}: ${res.body.slice(0, 120)}`).toBe(
              allowed ? 200 : 403,
            );
          // A public registry (manifest publicRead) is read by anyone; writes keep the permissions.
          const mayRead = def.manifest.publicRead === true || may('read');
          expectStatus(
            await app.inject({ method: 'POST', url: `${base}/list-search`, payload: {}, headers: as(user.token) }),
            mayRead,
            'list',
          );
          expectStatus(
            await app.inject({ method: 'GET', url: `${base}/get/${rec.id}`, headers: as(user.token) }),
            mayRead,
            'read',
          );
          const update = await app.inject({
            method: 'PUT',
            url: `${base}/update/${rec.id}`,
            payload: { ...rec.data, version: rec.version },
            headers: as(user.token),
          });
          // …and the entity's edit rules in the record's status (schemas/<entity>/edit.json).
          const rules = createEditRulesModel(
            def.edit,
            def.manifest.workflow ? registry.machines.get(def.manifest.workflow) : undefined,
          );
          expectStatus(
            update,
            may('update') && rules.mayUpdate({ id: String(user.id), role: role.code, isOuter: false }, rec),
            'update',
          );
          if (update.statusCode === 200) rec.version += 1;
          const createData = createSampler(
            def.schema,
            registry.references,
            createServerAjv(),
          )(900 + made, { full: true });
          const created = await app.inject({
            method: 'POST',
            url: `${base}/create`,
            payload: createData,
            headers: as(user.token),
          });
          expectStatus(created, may('create'), 'create');
        }
      }
    });

    it('keeps citizens to their own records and regional staff to their region', async () => {
      const alice = await userWith(['citizen'], { isOuter: true });
      const bob = await userWith(['citizen'], { isOuter: true });
      const sample = createSampler(registry.entities.get('appeal')!.schema, registry.references, createServerAjv());
      const mine = await app.inject({
        method: 'POST',
        url: '/api/appeal/create',
        payload: sample(3, { full: true }),
        headers: as(alice.token),
      });
      expect(mine.statusCode, mine.body).toBe(200);
      expect(mine.json().owner).toBe(String(alice.id));
      const id = mine.json().id as number;
      // Bob guesses Alice's id: not found, cannot change it, cannot see it in lists.
      expect(
        (await app.inject({ method: 'GET', url: `/api/appeal/get/${id}`, headers: as(bob.token) })).statusCode,
      ).toBe(404);
      expect(
        (
          await app.inject({
            method: 'PUT',
            url: `/api/appeal/update/${id}`,
            payload: { ...sample(4, { full: true }), version: 1 },
            headers: as(bob.token),
          })
        ).statusCode,
      ).toBe(404);
      const bobsList = await app.inject({
        method: 'POST',
        url: '/api/appeal/list-search',
        payload: { itemsPerPage: 100 },
        headers: as(bob.token),
      });
      expect(bobsList.json().list.map((r: { id: number }) => r.id)).not.toContain(id);
      const alicesList = await app.inject({
        method: 'POST',
        url: '/api/appeal/list-search',
        payload: { itemsPerPage: 100 },
        headers: as(alice.token),
      });
      expect(alicesList.json().list.map((r: { id: number }) => r.id)).toEqual([id]);
      // Mass assignment: a body claiming another owner or status changes nothing.
      const forged = await app.inject({
        method: 'POST',
        url: '/api/appeal/create',
        payload: { ...sample(5, { full: true }), owner: String(bob.id), status: 'FINISHED' },
        headers: as(alice.token),
      });
      expect(forged.json()).toMatchObject({ owner: String(alice.id), status: 'CREATED' });
      // Anonymous: may file an appeal (a public service), may not read one.
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/api/appeal/create',
            payload: sample(6, { full: true }),
            headers: anon,
          })
        ).statusCode,
      ).toBe(200);
      expect((await app.inject({ method: 'GET', url: `/api/appeal/get/${id}`, headers: anon })).statusCode).toBe(401);
      expect(
        (await app.inject({ method: 'POST', url: '/api/appeal/list-search', payload: {}, headers: anon })).statusCode,
      ).toBe(401);

      // Regional staff: only their region, and cannot file into another region.
      const tashkent = await userWith(['employee'], { regionId: 14 });
      const inRegion = { ...sample(7, { full: true }), regionId: 14, districtId: 1401 };
      const outOfRegion = { ...sample(8, { full: true }), regionId: 1, districtId: 101 };
      const own = await app.inject({ method: 'POST', url: '/api/appeal/create', payload: inRegion });
      const foreign = await app.inject({ method: 'POST', url: '/api/appeal/create', payload: outOfRegion });
      expect(
        (await app.inject({ method: 'GET', url: `/api/appeal/get/${own.json().id}`, headers: as(tashkent.token) }))
          .statusCode,
      ).toBe(200);
      expect(
        (await app.inject({ method: 'GET', url: `/api/appeal/get/${foreign.json().id}`, headers: as(tashkent.token) }))
          .statusCode,
      ).toBe(404);
      const regional = await app.inject({
        method: 'POST',
        url: '/api/appeal/list-search?regionId=1',
        payload: {},
        headers: as(tashkent.token),
      });
      expect(regional.json().total).toBe(0);
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/api/appeal/create',
            payload: outOfRegion,
            headers: as(tashkent.token),
          })
        ).statusCode,
      ).toBe(403);
    });
  });
}
