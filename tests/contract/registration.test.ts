/**
 * Registration of citizens and business users and "forgot password" over the real API on
 * both backends, with codes delivered for real: SMS through a local HTTP gateway, e-mail
 * through a local SMTP server. The clock of the codes is the test's, moved instead of slept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';
import { codeIn, startSmsGateway, startSmtpServer, waitFor, type Received } from '../support/mailboxes.ts';
import { createOutboxSender } from '../../src/server/notify/outbox.ts';

const PASSWORD = 'registered pass 1';

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`registration and password reset on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
    let sms: Awaited<ReturnType<typeof startSmsGateway>>;
    let now = Date.parse('2026-03-01T09:00:00Z');
    const later = (seconds: number) => {
      now += seconds * 1000;
    };
    beforeAll(async () => {
      smtp = await startSmtpServer();
      sms = await startSmsGateway();
      ({ app, close } = await startTestApp(backend.name, {
        clock: () => new Date(now),
        smtpUrl: smtp.url,
        smtpFrom: 'portal@test.uz',
        smsGatewayUrl: sms.url,
      }));
    });
    afterAll(async () => {
      await close?.();
      await smtp?.close();
      await sms?.close();
    });

    let ipSeq = 0;
    /** Every scenario from its own address, so the per-address limits do not meet. */
    const client = () => {
      ipSeq += 1;
      const ip = `10.9.${ipSeq}.1`;
      return async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
        const res = await app.inject({
          method,
          url,
          payload: payload as InjectOptions['payload'],
          headers: { authorization: '', 'accept-language': 'en' },
          remoteAddress: ip,
        });
        return { status: res.statusCode, body: res.json() as Record<string, any>, headers: res.headers }; // eslint-disable-line @typescript-eslint/no-explicit-any
      };
    };
    /** The newest message to `to` that arrived after `seen` others to it. */
    const nextMessage = async (box: Received[], to: string, seen: number): Promise<Received> =>
      waitFor(() => {
        const mine = box.filter((m) => m.to === to);
        return mine.length > seen ? mine[mine.length - 1] : undefined;
      });
    const countTo = (box: Received[], to: string) => box.filter((m) => m.to === to).length;
    const userCount = async () =>
      (
        await app.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${app.tables.get(app.definitions.access!.userEntity)!.table}`,
        )
      ).rows[0]!.n;

    let seq = 0;
    /** Unique test values: a PINFL, a STIR, a passport, a phone. */
    const fresh = () => {
      seq += 1;
      const n = String(seq).padStart(2, '0');
      return {
        pinfl: `301019900${n}123`.slice(0, 14),
        tin: `3010199${n}`,
        passport: `AB00000${n}`,
        phone: `+99890-1${n}-45-67`,
        digits: `998901${n}4567`,
        email: `person${n}@example.uz`,
        username: `person${n}`,
      };
    };

    /** Check-inn, a code by SMS, its confirmation: the session ready to finish. */
    const confirmedCitizen = async (call: ReturnType<typeof client>, v: ReturnType<typeof fresh>) => {
      const inn = await call('GET', `/api/registration/check-inn?isYur=false&pinfl=${v.pinfl}`);
      expect(inn.status, JSON.stringify(inn.body)).toBe(200);
      const uid = inn.body.uid as string;
      const before = countTo(sms.received, v.digits);
      const sent = await call('POST', `/api/registration/send/confirmation/code/to-confirmation?uid=${uid}`, {
        contact: v.phone,
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      expect(sent.body).toMatchObject({ uid, channel: 'phone', expiresIn: 300, resendIn: 60 });
      const message = await nextMessage(sms.received, v.digits, before);
      const confirmed = await call(
        'POST',
        `/api/registration/confirmation/phone-confirmed?uid=${uid}&token=${codeIn(message)}&username=${v.username}`,
      );
      expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
      return uid;
    };

    it('registers a citizen by SMS code and signs them in', async () => {
      const call = client();
      const v = fresh();
      const free = await call('GET', `/api/user/check/no-username?username=${v.username}`);
      expect(free.body).toEqual({ available: true });
      const uid = await confirmedCitizen(call, v);
      const message = sms.received.filter((m) => m.to === v.digits).at(-1)!;
      expect(message.text).toMatch(/^Your registration code: \d{6}\. It is valid for 5 minutes/);
      const done = await call('POST', '/api/registration/finish', {
        uid,
        lastName: 'Karimov',
        firstName: 'Aziz',
        passport: v.passport,
        password: PASSWORD,
        confirmPassword: PASSWORD,
      });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(done.body).toMatchObject({
        username: v.username,
        isOuter: true,
        employee: { firstName: 'Aziz', lastName: 'Karimov' },
      });
      expect(done.body.token).toEqual(expect.any(String));
      expect(done.body.permissions).toContain('create Appeal');
      const user = await app.inject({ method: 'GET', url: `/api/portal-user/get/${done.body.id}` });
      expect(user.json()).toMatchObject({
        isOuter: true,
        canLogin: true,
        roles: ['citizen'],
        pinfl: v.pinfl,
        phone: v.phone,
        passport: v.passport,
      });
      const audit = await app.db.query<{ action: string }>(
        `SELECT action FROM audit_log WHERE entity = $1 AND record_id = $2`,
        [app.definitions.access!.userEntity, done.body.id],
      );
      expect(audit.rows.map((r) => r.action)).toEqual(['create']);
      const signIn = await call('POST', '/api/auth-payload', { username: v.username, password: PASSWORD });
      expect(signIn.status).toBe(200);
      // The session is used up: finishing again creates nobody.
      const again = await call('POST', '/api/registration/finish', {
        uid,
        lastName: 'K',
        firstName: 'A',
        passport: 'ZZ9999999',
        password: PASSWORD,
        confirmPassword: PASSWORD,
      });
      expect(again.status).toBe(400);
      expect(again.body.message).toBe('The registration or reset has expired. Please start again');
    });

    it('registers a business user by e-mail code with the business role', async () => {
      const call = client();
      const v = fresh();
      const inn = await call('GET', `/api/registration/check-inn?isYur=true&tin=${v.tin}&position=Director`);
      expect(inn.status, JSON.stringify(inn.body)).toBe(200);
      const uid = inn.body.uid as string;
      const sent = await call('POST', `/api/registration/send/confirmation/code/to-confirmation?uid=${uid}`, {
        contact: v.email,
      });
      expect(sent.body).toMatchObject({ channel: 'mail', sentTo: `p***@example.uz` });
      const mail = await nextMessage(smtp.received, v.email, 0);
      expect(mail.text).toContain('Subject: Registration confirmation code');
      // The code of the e-mail is not accepted as a phone confirmation.
      const wrongRoute = await call(
        'POST',
        `/api/registration/confirmation/phone-confirmed?uid=${uid}&token=${codeIn(mail)}&username=${v.username}`,
      );
      expect(wrongRoute.status).toBe(400);
      const confirmed = await call(
        'POST',
        `/api/registration/confirmation/mail-confirmed?uid=${uid}&token=${codeIn(mail)}&username=${v.username}`,
      );
      expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
      const done = await call('POST', '/api/registration/finish', {
        uid,
        lastName: 'Usmonova',
        firstName: 'Dilnoza',
        middleName: 'Akbarovna',
        passport: v.passport,
        password: PASSWORD,
        confirmPassword: PASSWORD,
      });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(done.body.permissions).toContain('create OnlineReport');
      const user = await app.inject({ method: 'GET', url: `/api/portal-user/get/${done.body.id}` });
      expect(user.json()).toMatchObject({
        roles: ['business'],
        tin: v.tin,
        position: 'Director',
        email: v.email,
        isOuter: true,
      });
    });

    it('says a username is taken or malformed, live and at confirmation, without spending a try', async () => {
      const call = client();
      expect((await call('GET', '/api/user/check/no-username?username=admin')).body).toEqual({
        available: false,
        message: 'This username is already used',
      });
      expect((await call('GET', '/api/user/check/no-username?username=A%20B')).body.available).toBe(false);
      const v = fresh();
      const uid = (await call('GET', `/api/registration/check-inn?isYur=false&pinfl=${v.pinfl}`)).body.uid;
      await call('POST', `/api/registration/send/confirmation/code/to-confirmation?uid=${uid}`, { contact: v.phone });
      const code = codeIn(await nextMessage(sms.received, v.digits, 0));
      const taken = await call(
        'POST',
        `/api/registration/confirmation/phone-confirmed?uid=${uid}&token=${code}&username=admin`,
      );
      expect(taken.status).toBe(400);
      expect(taken.body.fieldErrors).toEqual({ '/username': 'This username is already used' });
      const attempts = await app.db.query<{ attempts: number }>(
        'SELECT attempts FROM confirmation_session WHERE uid = $1',
        [uid],
      );
      expect(attempts.rows[0]!.attempts).toBe(0);
      expect(
        (
          await call(
            'POST',
            `/api/registration/confirmation/phone-confirmed?uid=${uid}&token=${code}&username=${v.username}`,
          )
        ).status,
      ).toBe(200);
    });

    it('refuses a tax ID that is invalid or already registered', async () => {
      const call = client();
      const v = fresh();
      const uid = await confirmedCitizen(call, v);
      expect(
        (
          await call('POST', '/api/registration/finish', {
            uid,
            lastName: 'A',
            firstName: 'B',
            passport: v.passport,
            password: PASSWORD,
            confirmPassword: PASSWORD,
          })
        ).status,
      ).toBe(200);
      const again = await call('GET', `/api/registration/check-inn?isYur=false&pinfl=${v.pinfl}`);
      expect(again.status).toBe(400);
      expect(again.body.fieldErrors).toEqual({ '/pinfl': 'This tax ID already exists' });
      const short = await call('GET', '/api/registration/check-inn?isYur=true&tin=12345');
      expect(short.body.fieldErrors).toEqual({ '/tin': 'Enter a real tax ID' });
      const pinflAsTin = await call('GET', `/api/registration/check-inn?isYur=true&tin=${v.pinfl}`);
      expect(pinflAsTin.body.fieldErrors).toEqual({ '/tin': 'Enter a real tax ID' });
      const missing = await call('GET', '/api/registration/check-inn?isYur=false');
      expect(missing.body.fieldErrors).toEqual({ '/pinfl': 'Mandatory field' });
    });

    it('lets a code expire after five minutes', async () => {
      const call = client();
      const v = fresh();
      const uid = (await call('GET', `/api/registration/check-inn?isYur=false&pinfl=${v.pinfl}`)).body.uid;
      await call('POST', `/api/registration/send/confirmation/code/to-confirmation?uid=${uid}`, { contact: v.phone });
      const code = codeIn(await nextMessage(sms.received, v.digits, 0));
      later(301);
      const late = await call(
        'POST',
        `/api/registration/confirmation/phone-confirmed?uid=${uid}&token=${code}&username=${v.username}`,
      );
      expect(late.status).toBe(400);
      expect(late.body.fieldErrors).toEqual({ '/token': 'The code has expired. Request a new one' });
      const resent = await call('POST', `/api/registration/send/confirmation/code/to-confirmation?uid=${uid}`, {
        contact: v.phone,
      });
      expect(resent.status).toBe(200);
      const fresh2 = codeIn(await nextMessage(sms.received, v.digits, 1));
      expect(
        (
          await call(
            'POST',
            `/api/registration/confirmation/phone-confirmed?uid=${uid}&token=${fresh2}&username=${v.username}`,
          )
        ).status,
      ).toBe(200);
    });

    it('kills a code after five wrong tries', async () => {
      const call = client();
      const v = fresh();
      const uid = (await call('GET', `/api/registration/check-inn?isYur=false&pinfl=${v.pinfl}`)).body.uid;
      await call('POST', `/api/registration/send/confirmation/code/to-confirmation?uid=${uid}`, { contact: v.phone });
      const code = codeIn(await nextMessage(sms.received, v.digits, 0));
      const wrong = code === '000000' ? '111111' : '000000';
      const messages: string[] = [];
      for (let i = 0; i < 5; i++)
        messages.push(
          (
            await call(
              'POST',
              `/api/registration/confirmation/phone-confirmed?uid=${uid}&token=${wrong}&username=${v.username}`,
            )
          ).body.fieldErrors['/token'],
        );
      expect(messages).toEqual([
        'Wrong code (4 attempts left)',
        'Wrong code (3 attempts left)',
        'Wrong code (2 attempts left)',
        'Wrong code (1 attempts left)',
        'Too many wrong codes. Request a new code',
      ]);
      const right = await call(
        'POST',
        `/api/registration/confirmation/phone-confirmed?uid=${uid}&token=${code}&username=${v.username}`,
      );
      expect(right.status).toBe(400);
      expect(right.body.fieldErrors).toEqual({ '/token': 'Too many wrong codes. Request a new code' });
      expect(
        (
          await call('POST', '/api/registration/finish', {
            uid,
            lastName: 'A',
            firstName: 'B',
            passport: v.passport,
            password: PASSWORD,
            confirmPassword: PASSWORD,
          })
        ).status,
      ).toBe(400);
    });

    it('keeps a minute between two codes, with a localized wait', async () => {
      const call = client();
      const v = fresh();
      const uid = (await call('GET', `/api/registration/check-inn?isYur=false&pinfl=${v.pinfl}`)).body.uid;
      expect(
        (
          await call('POST', `/api/registration/send/confirmation/code/to-confirmation?uid=${uid}`, {
            contact: v.phone,
          })
        ).status,
      ).toBe(200);
      later(20);
      const soon = await call('POST', `/api/registration/send/confirmation/code/to-confirmation?uid=${uid}`, {
        contact: v.phone,
      });
      expect(soon.status).toBe(429);
      expect(soon.body.message).toBe('A new code can be sent in 40 s');
      expect(soon.headers['retry-after']).toBe('40');
      const ru = await app.inject({
        method: 'POST',
        url: `/api/registration/send/confirmation/code/to-confirmation?uid=${uid}`,
        payload: { contact: v.phone },
        headers: { authorization: '', 'accept-language': 'ru' },
        remoteAddress: '10.99.0.1',
      });
      expect(ru.json().message).toBe('Новый код можно отправить через 40 с');
      later(41);
      expect(
        (
          await call('POST', `/api/registration/send/confirmation/code/to-confirmation?uid=${uid}`, {
            contact: v.phone,
          })
        ).status,
      ).toBe(200);
      const rows = await app.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox WHERE recipient = $1`, [
        v.digits,
      ]);
      expect(rows.rows[0]!.n).toBe(2);
    });

    it('refuses mismatched passwords and a used passport, writing nothing', async () => {
      const call = client();
      const first = fresh();
      const uid1 = await confirmedCitizen(call, first);
      const mismatch = await call('POST', '/api/registration/finish', {
        uid: uid1,
        lastName: 'A',
        firstName: 'B',
        passport: first.passport,
        password: PASSWORD,
        confirmPassword: `${PASSWORD}x`,
      });
      expect(mismatch.status).toBe(400);
      expect(mismatch.body.fieldErrors).toEqual({ '/confirmPassword': 'Passwords do not match' });
      const short = await call('POST', '/api/registration/finish', {
        uid: uid1,
        lastName: 'A',
        firstName: 'B',
        passport: first.passport,
        password: 'short',
        confirmPassword: 'short',
      });
      expect(short.body.fieldErrors).toEqual({ '/password': 'At least 12 characters (now 5)' });
      expect(
        (
          await call('POST', '/api/registration/finish', {
            uid: uid1,
            lastName: 'A',
            firstName: 'B',
            passport: first.passport,
            password: PASSWORD,
            confirmPassword: PASSWORD,
          })
        ).status,
      ).toBe(200);

      const second = fresh();
      const uid2 = await confirmedCitizen(call, second);
      const users = await userCount();
      const audits = (await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log')).rows[0]!.n;
      const credentials = (await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM credential')).rows[0]!.n;
      const used = await call('POST', '/api/registration/finish', {
        uid: uid2,
        lastName: 'A',
        firstName: 'B',
        passport: first.passport,
        password: PASSWORD,
        confirmPassword: PASSWORD,
      });
      expect(used.status).toBe(400);
      expect(used.body.fieldErrors).toEqual({ '/passport': 'This passport number is already used' });
      const badFormat = await call('POST', '/api/registration/finish', {
        uid: uid2,
        lastName: 'A',
        firstName: 'B',
        passport: 'ab12',
        password: PASSWORD,
        confirmPassword: PASSWORD,
      });
      expect(Object.keys(badFormat.body.fieldErrors)).toEqual(['/passport']);
      expect(await userCount()).toBe(users);
      expect((await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log')).rows[0]!.n).toBe(audits);
      expect((await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM credential')).rows[0]!.n).toBe(
        credentials,
      );
      // The session survives the refusal: the same person finishes with their own passport.
      expect(
        (
          await call('POST', '/api/registration/finish', {
            uid: uid2,
            lastName: 'A',
            firstName: 'B',
            passport: second.passport,
            password: PASSWORD,
            confirmPassword: PASSWORD,
          })
        ).status,
      ).toBe(200);
    });

    it('resets a forgotten password by code and ends the old sessions', async () => {
      const call = client();
      const v = fresh();
      const uid = await confirmedCitizen(call, v);
      const session = (
        await call('POST', '/api/registration/finish', {
          uid,
          lastName: 'A',
          firstName: 'B',
          passport: v.passport,
          password: PASSWORD,
          confirmPassword: PASSWORD,
        })
      ).body;
      const seen = countTo(sms.received, v.digits);
      const asked = await call('POST', '/api/auth/forgot-password/send-code', { login: v.phone });
      expect(asked.status).toBe(200);
      const message = await nextMessage(sms.received, v.digits, seen);
      expect(message.text).toMatch(/^Your password reset code: \d{6}/);
      const reset = {
        uid: asked.body.uid,
        code: codeIn(message),
        password: 'a brand new password',
        confirmPassword: 'a brand new password',
      };
      const mismatch = await call('POST', '/api/auth/forgot-password/reset', {
        ...reset,
        confirmPassword: 'something else',
      });
      expect(mismatch.body.fieldErrors).toEqual({ '/confirmPassword': 'Passwords do not match' });
      const wrong = await call('POST', '/api/auth/forgot-password/reset', {
        ...reset,
        code: reset.code === '000000' ? '111111' : '000000',
      });
      expect(wrong.body.fieldErrors).toEqual({ '/code': 'Wrong code (4 attempts left)' });
      expect((await call('POST', '/api/auth/forgot-password/reset', reset)).status).toBe(200);
      const refreshed = await call('POST', '/api/o/token/', {
        grant_type: 'refresh_token',
        refresh_token: session.refreshToken,
      });
      expect(refreshed.status).toBe(401);
      expect((await call('POST', '/api/auth-payload', { username: v.username, password: PASSWORD })).status).toBe(401);
      expect(
        (await call('POST', '/api/auth-payload', { username: v.username, password: 'a brand new password' })).status,
      ).toBe(200);
      // The code is used up.
      expect((await call('POST', '/api/auth/forgot-password/reset', reset)).status).toBe(400);
    });

    it('answers the same for an unknown login and sends nothing', async () => {
      const call = client();
      const outbox = async () =>
        (await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox')).rows[0]!.n;
      const before = await outbox();
      const unknown = await call('POST', '/api/auth/forgot-password/send-code', { login: 'nobody-here' });
      const known = await call('POST', '/api/auth/forgot-password/send-code', { login: 'admin' });
      expect(unknown.status).toBe(200);
      expect(known.status).toBe(200);
      expect(Object.keys(unknown.body).sort()).toEqual(Object.keys(known.body).sort());
      expect({ ...unknown.body, uid: 'x' }).toEqual({ ...known.body, uid: 'x' });
      // admin has neither phone nor e-mail: no message either; nothing for the unknown login.
      expect(await outbox()).toBe(before);
      const soon = await call('POST', '/api/auth/forgot-password/send-code', { login: 'nobody-here' });
      expect(soon.status).toBe(429);
      const guess = await call('POST', '/api/auth/forgot-password/reset', {
        uid: unknown.body.uid,
        code: '123456',
        password: PASSWORD,
        confirmPassword: PASSWORD,
      });
      expect(guess.status).toBe(400);
      expect(Object.keys(guess.body.fieldErrors)).toEqual(['/code']);
    });

    it('documents its routes with their schemas in the OpenAPI document', async () => {
      const doc = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
        paths: Record<string, Record<string, { tags?: string[]; parameters?: Array<{ name: string }> }>>;
      };
      for (const route of ['/api/user/check/no-username', '/api/registration/check-inn'])
        expect(doc.paths[route]?.get?.tags).toEqual(['Registration']);
      for (const route of [
        '/api/registration/send/confirmation/code/to-confirmation',
        '/api/registration/confirmation/phone-confirmed',
        '/api/registration/confirmation/mail-confirmed',
        '/api/registration/finish',
        '/api/auth/forgot-password/send-code',
        '/api/auth/forgot-password/reset',
      ]) {
        expect(doc.paths[route]?.post, route).toBeDefined();
      }
      expect(doc.paths['/api/registration/check-inn']!.get!.parameters!.map((p) => p.name).sort()).toEqual([
        'isYur',
        'pinfl',
        'position',
        'tin',
        'uid',
      ]);
    });

    it('keeps messages without a transport as undeliverable, and retries a failing gateway', async () => {
      const offline = createOutboxSender(
        app.db,
        app.translator,
        () => [],
        () => undefined,
      );
      const id = await offline.send({
        channel: 'sms',
        to: '998900000000',
        templateKey: 'confirmation.message.registration',
        params: { code: '123456', minutes: 5 },
        locale: 'ru',
      });
      const row = await app.db.query<{ status: string; body: string }>(
        'SELECT status, body FROM outbox WHERE id = $1',
        [id],
      );
      expect(row.rows[0]).toEqual({
        status: 'undeliverable',
        body: 'Ваш код регистрации: 123456. Действует 5 минут. Никому его не сообщайте.',
      });

      const call = client();
      const v = fresh();
      sms.failFor.add(v.digits);
      const uid = (await call('GET', `/api/registration/check-inn?isYur=false&pinfl=${v.pinfl}`)).body.uid;
      await call('POST', `/api/registration/send/confirmation/code/to-confirmation?uid=${uid}`, { contact: v.phone });
      const failed = await waitFor(async () => {
        await app.notify.worker.runOnce();
        const r = (
          await app.db.query<{ status: string; attempts: number; last_error: string | null }>(
            'SELECT status, attempts, last_error FROM outbox WHERE recipient = $1',
            [v.digits],
          )
        ).rows[0];
        return r && r.attempts > 0 ? r : undefined;
      });
      expect(failed).toMatchObject({ status: 'pending', attempts: 1 });
      expect(failed.last_error).toContain('503');
    });
  });
}
