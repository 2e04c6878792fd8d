/**
 * Sign-in throttling over the real API on both backends, with the app's clock injected and
 * moved instead of sleeping: per address (20 failures at any usernames) and per username (5),
 * waits that double with every further burst of failures however long one waits in between,
 * and only a successful sign-in (or a quiet day) starting afresh.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';
import {
  FIRST_WAIT_SECONDS,
  FORGET_AFTER_SECONDS,
  IP_FAILURES,
  MAX_WAIT_SECONDS,
  USERNAME_FAILURES,
} from '../../src/server/auth/throttle.ts';

const PASSWORD = 'correct horse battery';

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`sign-in throttling on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let now = Date.parse('2030-03-01T08:00:00Z');
    const later = (seconds: number) => {
      now += seconds * 1000;
    };
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name, { clock: () => new Date(now) }));
    });
    afterAll(async () => close?.());

    let addresses = 0;
    /** A fresh address, so that only the username's own count is tested. */
    const freshIp = () => `10.50.${Math.floor((addresses += 1) / 250)}.${(addresses % 250) + 1}`;
    const signIn = (username: string, password: string, ip: string, locale = 'en') =>
      app.inject({
        method: 'POST',
        url: '/api/auth-payload',
        payload: { username, password },
        headers: { authorization: '', 'accept-language': locale },
        remoteAddress: ip,
      });
    const userNamed = async (username: string) => {
      const created = await app.inject({
        method: 'POST',
        url: '/api/portal-user/create',
        payload: {
          username,
          firstName: 'Throttle',
          lastName: 'Test',
          isOuter: false,
          canLogin: true,
          roles: ['employee'],
        },
      });
      expect(created.statusCode, created.body).toBe(200);
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/api/auth/set-password',
            payload: { userId: created.json().id, password: PASSWORD },
          })
        ).statusCode,
      ).toBe(200);
      return username;
    };
    /** `count` failed sign-ins of the username, each from a fresh address; each must be let through (401). */
    const fail = async (username: string, count: number) => {
      for (let i = 0; i < count; i++)
        expect((await signIn(username, 'wrong password!', freshIp())).statusCode, `failure ${i + 1} of ${count}`).toBe(
          401,
        );
    };
    /** The next try is refused with 429 and this Retry-After. */
    const expectWait = async (username: string, seconds: number) => {
      const res = await signIn(username, PASSWORD, freshIp());
      expect(res.statusCode, res.body).toBe(429);
      expect(Number(res.headers['retry-after'])).toBe(seconds);
    };

    it(`slows an address down after ${IP_FAILURES} failures at distinct usernames; one's own account does not wash them out`, async () => {
      const mine = await userNamed('throttle-ip-owner');
      const ip = '10.40.0.1';
      for (let i = 0; i < IP_FAILURES - 1; i++)
        expect((await signIn(`sprayed-${i}`, 'guessed password', ip)).statusCode).toBe(401);
      // A success of one's own account forgives only that account's failures, not the tries at others.
      expect((await signIn(mine, PASSWORD, ip)).statusCode).toBe(200);
      expect((await signIn(`sprayed-${IP_FAILURES}`, 'guessed password', ip)).statusCode).toBe(401);
      const blocked = await signIn(mine, PASSWORD, ip, 'ru');
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBe(FIRST_WAIT_SECONDS);
      expect(blocked.json().message).toMatch(/^Слишком много попыток входа/);
      // Another address is not slowed down, and the address may try again once the wait is over.
      expect((await signIn(mine, PASSWORD, '10.40.0.2')).statusCode).toBe(200);
      later(FIRST_WAIT_SECONDS);
      expect((await signIn(mine, PASSWORD, ip)).statusCode).toBe(200);
    });

    it('doubles the wait with every further burst of failures, however long one waited, until a success', async () => {
      const name = await userNamed('throttle-grows');
      await fail(name, USERNAME_FAILURES);
      await expectWait(name, FIRST_WAIT_SECONDS);
      // Hammering during the wait tries nothing and does not lengthen it.
      later(30);
      await expectWait(name, FIRST_WAIT_SECONDS - 30);
      later(FIRST_WAIT_SECONDS - 30);
      // The next burst is let through, and earns twice the wait…
      await fail(name, USERNAME_FAILURES);
      await expectWait(name, 2 * FIRST_WAIT_SECONDS);
      // …which a minute of waiting does not end (the count is not per minute).
      later(FIRST_WAIT_SECONDS + 1);
      await expectWait(name, FIRST_WAIT_SECONDS - 1);
      later(FIRST_WAIT_SECONDS - 1);
      let wait = 2 * FIRST_WAIT_SECONDS;
      for (let burst = 3; burst <= 6; burst++) {
        await fail(name, USERNAME_FAILURES);
        wait = Math.min(MAX_WAIT_SECONDS, wait * 2);
        await expectWait(name, wait);
        later(wait);
      }
      expect(wait).toBe(MAX_WAIT_SECONDS);
      // The right password ends it: the next failures start from the first burst again.
      expect((await signIn(name, PASSWORD, freshIp())).statusCode).toBe(200);
      await fail(name, USERNAME_FAILURES);
      await expectWait(name, FIRST_WAIT_SECONDS);
      const log = await app.db.query<{ at: Date }>(
        `SELECT at FROM login_attempt WHERE username = $1 ORDER BY id DESC LIMIT 1`,
        [name],
      );
      // Attempts are logged at the app's clock (UTC), the same the waits are measured with.
      expect(new Date(log.rows[0]!.at).getTime()).toBe(now);
    });

    it('forgets failures after a quiet day', async () => {
      const name = await userNamed('throttle-forgets');
      await fail(name, USERNAME_FAILURES);
      await expectWait(name, FIRST_WAIT_SECONDS);
      later(FORGET_AFTER_SECONDS + 1);
      // A second burst a day later is a first burst again: a minute's wait, not two.
      await fail(name, USERNAME_FAILURES);
      await expectWait(name, FIRST_WAIT_SECONDS);
    });
  });
}
