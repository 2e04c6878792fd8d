/**
 * The password policy (src/shared/password-policy.ts) where a password is set — registration,
 * "forgot password", changing one's own, an administrator's "Set password" — on both backends:
 * `12345678`, `123456789`, `password1234` and a password containing the username are refused
 * with 400 on the password field and a reason in the caller's language, nothing is written,
 * and a strong password is accepted. A user whose old password predates the policy still
 * signs in with it: sign-in never re-checks a stored password.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { backends } from '../support/databases.ts';
import { signIn, startTestApp } from '../support/app.ts';
import { codeIn, startSmsGateway, waitFor, type Received } from '../support/mailboxes.ts';
import { hashPassword, NEW_PASSWORD_CHECKS_PER_MINUTE } from '../../src/server/auth/passwords.ts';

const STRONG = 'olive kettle marathon 42';
const STRONGER = 'amber-violin-harbour-7';

/** The refusals every route gives, in English: password → message. */
const WEAK = {
  '12345678': 'At least 12 characters (now 8)',
  '123456789': 'At least 12 characters (now 9)',
  password1234: 'Too easy to guess: it is similar to a commonly used password',
} as const;
const CONTAINS_USERNAME = 'The password must not contain the username';
const CONTAINS_EMAIL = 'The password must not contain the name of the e-mail address (the part before @)';

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`the password policy on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let sms: Awaited<ReturnType<typeof startSmsGateway>>;
    const userTable = () => app.tables.get(app.definitions.access!.userEntity)!.table;
    const count = async (table: string) =>
      (await app.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;
    const hashOf = async (id: number) =>
      (await app.db.query<{ h: string }>('SELECT password_hash AS h FROM credential WHERE user_id = $1', [String(id)]))
        .rows[0]?.h;

    beforeAll(async () => {
      sms = await startSmsGateway();
      ({ app, close } = await startTestApp(backend.name, { smsGatewayUrl: sms.url }));
    });
    afterAll(async () => {
      await close?.();
      await sms?.close();
    });

    let ipSeq = 0;
    /** A visitor from an address of their own (the per-address limits do not meet), in `lang`. */
    const visitor = () => {
      ipSeq += 1;
      const ip = `10.20.${ipSeq}.1`;
      return async (method: 'GET' | 'POST', url: string, payload?: unknown, lang = 'en') => {
        const res = await app.inject({
          method,
          url,
          payload: payload as InjectOptions['payload'],
          headers: { authorization: '', 'accept-language': lang },
          remoteAddress: ip,
        });
        return { status: res.statusCode, body: res.json() as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
      };
    };
    const nextSms = (to: string, seen: number): Promise<Received> =>
      waitFor(() => sms.received.filter((m) => m.to === to)[seen]);
    const seenBy = (to: string) => sms.received.filter((m) => m.to === to).length;

    let seq = 0;
    const fresh = () => {
      seq += 1;
      const n = String(seq).padStart(2, '0');
      return {
        pinfl: `302029900${n}456`.slice(0, 14),
        passport: `AC00000${n}`,
        phone: `+99891-2${n}-45-67`,
        digits: `998912${n}4567`,
        username: `guli${n}`,
      };
    };

    /** A registration session confirmed by SMS, ready to finish. */
    const confirmed = async (call: ReturnType<typeof visitor>, v: ReturnType<typeof fresh>): Promise<string> => {
      const uid = (await call('GET', `/api/registration/check-inn?isYur=false&pinfl=${v.pinfl}`)).body.uid as string;
      const seen = seenBy(v.digits);
      expect(
        (
          await call('POST', `/api/registration/send/confirmation/code/to-confirmation?uid=${uid}`, {
            contact: v.phone,
          })
        ).status,
      ).toBe(200);
      const code = codeIn(await nextSms(v.digits, seen));
      expect(
        (
          await call(
            'POST',
            `/api/registration/confirmation/phone-confirmed?uid=${uid}&token=${code}&username=${v.username}`,
          )
        ).status,
      ).toBe(200);
      return uid;
    };

    /** A staff user made by the admin (with an e-mail address), with a password set the old way: straight into the table. */
    const staffUser = async (username: string, email: string, oldPassword: string): Promise<number> => {
      const created = await app.inject({
        method: 'POST',
        url: '/api/portal-user/create',
        payload: {
          username,
          firstName: 'Zarina',
          lastName: 'Rahimova',
          email,
          isOuter: false,
          canLogin: true,
          roles: ['employee'],
          regionId: 1,
        },
      });
      expect(created.statusCode, created.body).toBe(200);
      const id = created.json().id as number;
      await app.db.query('INSERT INTO credential (user_id, password_hash) VALUES ($1, $2)', [
        String(id),
        await hashPassword(oldPassword),
      ]);
      return id;
    };

    it("registration refuses weak passwords and one with the username, in the caller's language, creating nobody", async () => {
      const call = visitor();
      const v = fresh();
      const uid = await confirmed(call, v);
      const finish = (password: string, lang?: string) =>
        call(
          'POST',
          '/api/registration/finish',
          {
            uid,
            lastName: 'Rahimova',
            firstName: 'Gulnora',
            passport: v.passport,
            password,
            confirmPassword: password,
          },
          lang,
        );
      const users = await count(userTable());
      const credentials = await count('credential');
      for (const [password, message] of Object.entries(WEAK)) {
        const res = await finish(password);
        expect(res.status, password).toBe(400);
        expect(res.body.fieldErrors, password).toEqual({ '/password': message });
      }
      const named = await finish(`${v.username.toUpperCase()} river lantern`);
      expect(named.body.fieldErrors).toEqual({ '/password': CONTAINS_USERNAME });
      expect((await finish('12345678', 'ru')).body.fieldErrors).toEqual({
        '/password': 'Не менее 12 символов (сейчас 8)',
      });
      expect((await finish('password1234', 'uz')).body.fieldErrors).toEqual({
        '/password': 'Topish juda oson: keng tarqalgan parolga oʻxshaydi',
      });
      expect(await count(userTable())).toBe(users);
      expect(await count('credential')).toBe(credentials);
      const done = await finish(STRONG);
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect((await call('POST', '/api/auth-payload', { username: v.username, password: STRONG })).status).toBe(200);
    });

    it('"forgot password" refuses them too and keeps the code good; a strong one then resets', async () => {
      const call = visitor();
      const v = fresh();
      const uid = await confirmed(call, v);
      expect(
        (
          await call('POST', '/api/registration/finish', {
            uid,
            lastName: 'A',
            firstName: 'B',
            passport: v.passport,
            password: STRONG,
            confirmPassword: STRONG,
          })
        ).status,
      ).toBe(200);
      // Asked by phone: the username is the account's own, told only after a right code.
      const seen = seenBy(v.digits);
      const asked = await call('POST', '/api/auth/forgot-password/send-code', { login: v.phone });
      const code = codeIn(await nextSms(v.digits, seen));
      const reset = (password: string, lang?: string) =>
        call(
          'POST',
          '/api/auth/forgot-password/reset',
          { uid: asked.body.uid, code, password, confirmPassword: password },
          lang,
        );
      for (const [password, message] of Object.entries(WEAK))
        expect((await reset(password)).body.fieldErrors, password).toEqual({ '/password': message });
      expect((await reset(`my-${v.username}-river-lantern`)).body.fieldErrors).toEqual({
        '/password': CONTAINS_USERNAME,
      });
      expect((await reset(`my-${v.username}-river-lantern`, 'ru')).body.fieldErrors).toEqual({
        '/password': 'Пароль не должен содержать логин',
      });
      expect((await call('POST', '/api/auth-payload', { username: v.username, password: STRONG })).status).toBe(200);
      const done = await reset(STRONGER);
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect((await call('POST', '/api/auth-payload', { username: v.username, password: STRONGER })).status).toBe(200);
      expect((await call('POST', '/api/auth-payload', { username: v.username, password: STRONG })).status).toBe(401);
    });

    it('checks at most 30 new passwords a minute per address on the public routes (zxcvbn costs CPU)', async () => {
      const call = visitor();
      const asked = await call('POST', '/api/auth/forgot-password/send-code', { login: 'nobody-at-all' });
      const tries = async (n: number) => {
        const statuses: number[] = [];
        for (let i = 0; i < n; i++)
          statuses.push(
            (
              await call('POST', '/api/auth/forgot-password/reset', {
                uid: asked.body.uid,
                code: '000000',
                password: '12345678',
                confirmPassword: '12345678',
              })
            ).status,
          );
        return statuses;
      };
      expect(new Set(await tries(NEW_PASSWORD_CHECKS_PER_MINUTE))).toEqual(new Set([400]));
      expect(await tries(1)).toEqual([429]);
      const uid = await confirmed(visitor(), fresh());
      expect(
        (
          await call('POST', '/api/registration/finish', {
            uid,
            lastName: 'A',
            firstName: 'B',
            passport: 'AD0000001',
            password: STRONG,
            confirmPassword: STRONG,
          })
        ).status,
      ).toBe(429);
    });

    it("changing one's own password refuses them, leaving the old one; a user with an old short password still signs in", async () => {
      const id = await staffUser('zarina', 'rahimova.z@example.uz', 'short123');
      const session = await signIn(app, 'zarina', 'short123');
      const before = await hashOf(id);
      const change = async (newPassword: string, lang = 'en') => {
        const res = await app.inject({
          method: 'POST',
          url: '/api/auth/change-password',
          headers: { authorization: `Bearer ${session.token}`, 'accept-language': lang },
          payload: { oldPassword: 'short123', newPassword, confirmPassword: newPassword },
        });
        return { status: res.statusCode, body: res.json() as Record<string, unknown> };
      };
      for (const [password, message] of Object.entries(WEAK)) {
        const res = await change(password);
        expect(res.status, password).toBe(400);
        expect(res.body.fieldErrors, password).toEqual({ '/newPassword': message });
      }
      expect((await change('Zarina-harbour-violin')).body.fieldErrors).toEqual({ '/newPassword': CONTAINS_USERNAME });
      expect((await change('violin-RAHIMOVA.Z-harbour')).body.fieldErrors).toEqual({ '/newPassword': CONTAINS_EMAIL });
      expect((await change('my.mail-harbour-violin')).status).toBe(200);
      expect(await hashOf(id)).not.toBe(before);
      const fresh2 = await signIn(app, 'zarina', 'my.mail-harbour-violin');
      expect(fresh2.id).toBe(id);
      // In Uzbek (Cyrillic) the reason is said in it.
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/change-password',
        headers: { authorization: `Bearer ${fresh2.token}`, 'accept-language': 'uz-Cyrl' },
        payload: { oldPassword: 'my.mail-harbour-violin', newPassword: 'x rahimova.z violin 7' },
      });
      expect(res.json().fieldErrors).toEqual({
        '/newPassword': 'Паролда электрон почта номи (@ дан олдинги қисми) бўлмаслиги керак',
      });
    });

    it('an administrator\'s "Set password" refuses them on /password and changes nothing; a strong one is set', async () => {
      const id = await staffUser('otabek', 'o.karimov@example.uz', 'old-pass');
      await expect(signIn(app, 'otabek', 'old-pass')).resolves.toMatchObject({ id });
      const before = await hashOf(id);
      const set = async (password: string, lang = 'en') => {
        const res = await app.inject({
          method: 'POST',
          url: '/api/auth/set-password',
          headers: { 'accept-language': lang },
          payload: { userId: id, password, confirmPassword: password },
        });
        return { status: res.statusCode, body: res.json() as Record<string, unknown> };
      };
      for (const [password, message] of Object.entries(WEAK)) {
        const res = await set(password);
        expect(res.status, password).toBe(400);
        expect(res.body.fieldErrors, password).toEqual({ '/password': message });
      }
      expect((await set('Otabek harbour violin')).body.fieldErrors).toEqual({ '/password': CONTAINS_USERNAME });
      expect((await set('Otabek harbour violin', 'ru')).body.fieldErrors).toEqual({
        '/password': 'Пароль не должен содержать логин',
      });
      expect((await set('violin O.KARIMOV 77 harbour')).body.fieldErrors).toEqual({ '/password': CONTAINS_EMAIL });
      expect(await hashOf(id)).toBe(before);
      await expect(signIn(app, 'otabek', 'old-pass')).resolves.toMatchObject({ id });
      expect((await set(STRONG)).status).toBe(200);
      await expect(signIn(app, 'otabek', STRONG)).resolves.toMatchObject({ id });
    });
  });
}
