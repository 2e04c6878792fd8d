/**
 * Tracking a publicly sent appeal by its reference number together with the phone or PINFL it
 * was filed with (appeal publicLookups.status, issue #17): the status, the date of the last
 * change and the review deadline; a wrong reference and a wrong phone get the same empty
 * answer (no enumeration); a reference alone is refused; the per-address limit of the other
 * lookups applies. A signed-in applicant reads the reference numbers of their own submitted
 * appeals (the cabinet's cards), nobody else's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { createCaller, signIn, startTestApp } from '../support/app.ts';
import { appealInput, submission } from '../support/public-samples.ts';

const STATUS = '/api/public-lookup/appeal/status';
let address = 0;
const nextIp = () => `10.17.${Math.floor(++address / 250)}.${address % 250}`;

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`appeal tracking by reference on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
    });
    afterAll(async () => close?.());

    const lookup = (query: Record<string, string>, ip: string) =>
      app.inject({
        method: 'GET',
        url: `${STATUS}?${new URLSearchParams(query)}`,
        remoteAddress: ip,
        headers: { authorization: '', 'accept-language': 'en' },
      });
    const send = async (i: number, overrides: Record<string, unknown>) => {
      const body = submission(appealInput(i, overrides));
      const res = await app.inject({
        method: 'POST',
        url: '/api/outer-cabinet/send-appeal',
        payload: body.payload,
        remoteAddress: nextIp(),
        headers: { ...body.headers, authorization: '' },
      });
      expect(res.statusCode).toBe(200);
      return res.json() as { id: number; referenceNumber: string };
    };

    it('answers the status, the last change and the deadline for the reference with its phone or PINFL — and nothing else', async () => {
      const phone = '+99893-171-71-71';
      const pinfl = '31205890017017';
      const sent = await send(170, { phone, customer: { surname: 'Karimov', name: 'Jasur', pnfl: pinfl } });
      const byPhone = await lookup({ reference: sent.referenceNumber, phone }, nextIp());
      expect(byPhone.statusCode).toBe(200);
      expect(byPhone.json()).toEqual({
        list: [{ status: 'CREATED', changedAt: expect.any(String), deadline: null }],
      });
      expect(byPhone.body).not.toContain('Karimov');
      const byPinfl = await lookup({ reference: sent.referenceNumber, pinfl }, nextIp());
      expect(byPinfl.json().list).toHaveLength(1);

      // A step of the machine shows as the new status and the review deadline.
      const record = (await app.inject({ method: 'GET', url: `/api/appeal/get/${sent.id}` })).json();
      const taken = await app.inject({
        method: 'POST',
        url: `/api/appeal/transition/${sent.id}`,
        payload: { event: 'TAKE_FOR_REVIEW', version: record.version },
      });
      expect(taken.statusCode).toBe(200);
      const after = (await lookup({ reference: sent.referenceNumber, phone }, nextIp())).json();
      expect(after.list[0]).toMatchObject({
        status: 'UNDER_REVIEW',
        deadline: expect.stringMatching(/^\d{4}-\d\d-\d\d/),
      });
    });

    it('a wrong reference and a wrong phone get the same empty answer; a reference alone is refused', async () => {
      const phone = '+99893-171-71-72';
      const sent = await send(171, { phone });
      const other = await send(172, { phone: '+99893-171-71-73' });
      const wrongPhone = await lookup({ reference: sent.referenceNumber, phone: '+99893-171-71-73' }, nextIp());
      const wrongReference = await lookup({ reference: 'M-2020-999999', phone }, nextIp());
      const othersReference = await lookup({ reference: other.referenceNumber, phone }, nextIp());
      for (const res of [wrongPhone, wrongReference, othersReference]) {
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ list: [] });
      }
      const alone = await lookup({ reference: sent.referenceNumber }, nextIp());
      expect(alone.statusCode).toBe(400);
      expect(Object.keys(alone.json().fieldErrors).sort()).toEqual(['/phone', '/pinfl']);
      expect((await lookup({ phone }, nextIp())).statusCode).toBe(400);
    });

    it('shares the per-address limit of the public lookups (429 with retry-after)', async () => {
      const ip = nextIp();
      for (let i = 0; i < 30; i++)
        expect((await lookup({ reference: 'M-2020-000001', phone: '+99893-171-71-74' }, ip)).statusCode).toBe(200);
      const refused = await lookup({ reference: 'M-2020-000001', phone: '+99893-171-71-74' }, ip);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      const hashed = await app.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM public_lookup_log WHERE ip = $1 AND lookup = 'status' AND params_hash LIKE '%M-2020%'`,
        [ip],
      );
      expect(hashed.rows[0]!.n).toBe(0);
    });
    it("a signed-in applicant reads the reference numbers of their own submitted appeals, not another's", async () => {
      const admin = createCaller(app);
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
        await admin('POST', '/api/auth/set-password', { userId: created.body.id, password: 'correct horse battery' });
        return (await signIn(app, username, 'correct horse battery')).token;
      };
      const alice = await citizen('journey-a');
      const bob = await citizen('journey-b');
      const body = submission(appealInput(173));
      const filed = await app.inject({
        method: 'POST',
        url: '/api/outer-cabinet/send-appeal',
        payload: body.payload,
        remoteAddress: nextIp(),
        headers: { ...body.headers, authorization: `Bearer ${alice}` },
      });
      expect(filed.statusCode).toBe(200);
      const { id, referenceNumber } = filed.json();
      const anonymous = await send(174, {});
      const references = (token: string) =>
        app.inject({
          method: 'GET',
          url: `/api/public-submit/appeal/references?ids=${id},${anonymous.id}`,
          headers: { authorization: token ? `Bearer ${token}` : '' },
        });
      expect((await references(alice)).json()).toEqual({ list: [{ id, referenceNumber }] });
      expect((await references(bob)).json()).toEqual({ list: [] });
      expect((await references('')).statusCode).toBe(401);
    });
  });
}
