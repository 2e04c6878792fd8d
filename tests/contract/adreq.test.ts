/**
 * Advertising passport requests and the passport's monthly payment (issue #20 item 3a), on
 * both backends: a business files a request whose person type decides which block is
 * required; it may not write the review's result; a department head takes it for review (the
 * "seen" list), rejects only with grounds, approves; "Issue passport" creates the passport
 * from the request (prefill) and the server computes K, M and the monthly payment = M × K ×
 * area from the fee rates (tariff), whatever the client sends, again on every update.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { signIn, startTestApp } from '../support/app.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const PASSWORD = 'adreq-pass-12345';
const PAGE = { page: 0, itemsPerPage: 50 };
const REGION = 1;
/** A district of that region (schemas/_reference/district.json). */
const DISTRICT = 101;
const LEGAL = {
  name: 'Reklama Servis MChJ',
  tin: '301234567',
  director: 'Karimov A.',
  phone: '+99890-123-45-67',
  account: '20208000900123456001',
};

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`advertising passport requests on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let business: string;
    let head: string;
    const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, token?: string) => {
      const res = await app.inject({
        method,
        url,
        payload: payload as never,
        headers: { 'accept-language': 'en', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      });
      return { status: res.statusCode, body: res.json() as Json };
    };
    const user = async (username: string, roles: string[], isOuter: boolean): Promise<string> => {
      const created = await call('POST', '/api/portal-user/create', {
        username,
        firstName: 'Test',
        lastName: username,
        isOuter,
        canLogin: true,
        roles,
        ...(isOuter ? {} : { regionId: REGION }),
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expect(
        (await call('POST', '/api/auth/set-password', { userId: created.body.id, password: PASSWORD })).status,
      ).toBe(200);
      return (await signIn(app, username, PASSWORD)).token;
    };
    const request = (extra: Json = {}) => ({
      personType: 'LEGAL',
      adKind: 'CONSTRUCTION',
      regionId: REGION,
      districtId: DISTRICT,
      legalPerson: LEGAL,
      placement: { address: 'Tashkent, Amir Temur avenue 1' },
      ...extra,
    });
    const send = async (id: number, event: string, token: string, payload?: Json) => {
      const { body: rec } = await call('GET', `/api/advertising-passport-request/get/${id}`, undefined, token);
      return call(
        'POST',
        `/api/advertising-passport-request/transition/${id}`,
        { event, payload, version: rec.version },
        token,
      );
    };

    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
      business = await user('adreq-business', ['business'], true);
      head = await user('adreq-head', ['department-head'], false);
    }, 600_000);
    afterAll(async () => close?.());

    it('requires only the block of the chosen person type, and the vehicle only for a vehicle', async () => {
      const noBlock = await call(
        'POST',
        '/api/advertising-passport-request/create',
        request({ legalPerson: undefined }),
        business,
      );
      expect(noBlock.status, JSON.stringify(noBlock.body)).toBe(400);
      const physicalWithoutBlock = await call(
        'POST',
        '/api/advertising-passport-request/create',
        request({ personType: 'PHYSICAL' }),
        business,
      );
      expect(physicalWithoutBlock.status, JSON.stringify(physicalWithoutBlock.body)).toBe(400);
      const vehicleWithout = await call(
        'POST',
        '/api/advertising-passport-request/create',
        request({ adKind: 'VEHICLE' }),
        business,
      );
      expect(vehicleWithout.status, JSON.stringify(vehicleWithout.body)).toBe(400);
      const physical = await call(
        'POST',
        '/api/advertising-passport-request/create',
        request({
          personType: 'PHYSICAL',
          legalPerson: undefined,
          physicalPerson: {
            name: 'Aliyev Vali',
            passport: 'AA1234567',
            pinfl: '31234567890123',
            phone: '+99890-765-43-21',
          },
          adKind: 'VEHICLE',
          vehicle: { certificateSeries: 'AAF1234567', stateNumber: '01A123BC' },
        }),
        business,
      );
      expect(physical.status, JSON.stringify(physical.body)).toBe(200);
      expect(physical.body.status).toBe('SUBMITTED');
    });

    // Finding: an applicant's create stored a result field it sent. The result fields are the
    // server's (readOnly): a client's value is ignored on create and the stored one kept on update.
    it('does not let the applicant write the review result', async () => {
      const res = await call(
        'POST',
        '/api/advertising-passport-request/create',
        request({ rejectionGrounds: 'self-approved', seenAt: '2026-01-01T00:00:00Z', reviewerId: 1 }),
        business,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).not.toHaveProperty('rejectionGrounds');
      expect(res.body).not.toHaveProperty('seenAt');
      expect(res.body).not.toHaveProperty('reviewerId');
      const { id, version, createdAt, updatedAt, status, ...data } = res.body;
      const updated = await call(
        'PUT',
        `/api/advertising-passport-request/update/${id}`,
        { ...data, version, decidedAt: '2026-01-02T00:00:00Z', rejectionGrounds: 'by hand' },
        head,
      );
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
      expect(updated.body).not.toHaveProperty('decidedAt');
      expect(updated.body).not.toHaveProperty('rejectionGrounds');
      expect([createdAt, updatedAt, status].every(Boolean)).toBe(true);
    });

    let requestId: number;
    it('arrives, is taken for review with a department, is rejected only with grounds, is approved', async () => {
      const created = await call('POST', '/api/advertising-passport-request/create', request(), business);
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      requestId = created.body.id;
      const arrived = await call(
        'POST',
        '/api/advertising-passport-request/list-search?statusId=SUBMITTED',
        PAGE,
        head,
      );
      expect(arrived.status, JSON.stringify(arrived.body)).toBe(200);
      expect(arrived.body.list.map((r: Json) => r.id)).toContain(requestId);
      const early = await send(requestId, 'APPROVE', head);
      expect(early.status, JSON.stringify(early.body)).toBe(409);
      // The regional department of region 1 (department seed: id 2); the central office is not in the head's region.
      const seen = await send(requestId, 'MARK_SEEN', head, { departmentId: 2 });
      expect(seen.status, JSON.stringify(seen.body)).toBe(200);
      expect(seen.body).toMatchObject({ status: 'SEEN', reviewDepartmentId: 2 });
      expect(seen.body.reviewerId).toBeGreaterThan(0);
      expect(seen.body.seenAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      const seenList = await call('POST', '/api/advertising-passport-request/list-search?statusId=SEEN', PAGE, head);
      expect(seenList.body.list.map((r: Json) => r.id)).toContain(requestId);
      const noGrounds = await send(requestId, 'REJECT', head, {});
      expect(noGrounds.status, JSON.stringify(noGrounds.body)).toBe(400);
      const byApplicant = await send(requestId, 'APPROVE', business);
      expect(byApplicant.status, JSON.stringify(byApplicant.body)).toBe(403);
      const approved = await send(requestId, 'APPROVE', head);
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
      expect(approved.body.status).toBe('APPROVED');
      expect(approved.body.decidedAt).toBeTruthy();
    });

    let passport: Json;
    it('issues the passport from the request with the payment M × K × area from the rate, ignoring what the client sent', async () => {
      const res = await call(
        'POST',
        '/api/advertising-passport/create',
        {
          requestId,
          passportNumber: 'AP-0001',
          passportDate: '2026-01-15',
          constructionType: 'BILLBOARD',
          sides: 2,
          width: 3,
          length: 6,
          volume: 36,
          zone: 1,
          regionGroup: 1,
          coefficientK: 99,
          minimumCollectionM: 1,
          monthlyPayment: 1,
        },
        head,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      passport = res.body;
      // The seeded rate Z1_G1: K = 2, M = 60 000 UZS per m² a month.
      expect(passport).toMatchObject({
        requestId,
        districtId: DISTRICT,
        ownerName: LEGAL.name,
        ownerStir: LEGAL.tin,
        ownerPhone: LEGAL.phone,
        regionId: REGION,
        address: 'Tashkent, Amir Temur avenue 1',
        coefficientK: 2,
        minimumCollectionM: 60000,
        monthlyPayment: 60000 * 2 * 36,
      });
    });

    it('recomputes on update from the new zone, and leaves the payment empty without a rate', async () => {
      const moved = await call(
        'PUT',
        `/api/advertising-passport/update/${passport.id}`,
        { ...dataOf(passport), zone: 3, volume: 12.5, monthlyPayment: 5, version: passport.version },
        head,
      );
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      // Z3_G1: K = 1, M = 60 000; 60 000 × 1 × 12.5.
      expect(moved.body).toMatchObject({ coefficientK: 1, minimumCollectionM: 60000, monthlyPayment: 750000 });
      const noRate = await call(
        'PUT',
        `/api/advertising-passport/update/${passport.id}`,
        { ...dataOf(moved.body), regionGroup: 9, version: moved.body.version },
        head,
      );
      expect(noRate.status, JSON.stringify(noRate.body)).toBe(200);
      expect(noRate.body.monthlyPayment).toBeUndefined();
      expect(noRate.body.coefficientK).toBeUndefined();
    });

    /** Saves the issued passport as stored now, with `changes`, as the holder of `token`. */
    const resave = async (changes: Json, token: string) => {
      const { body: current } = await call('GET', `/api/advertising-passport/get/${passport.id}`);
      return call(
        'PUT',
        `/api/advertising-passport/update/${passport.id}`,
        { ...dataOf(current), ...changes, version: current.version },
        token,
      );
    };

    it('lets staff whose role keeps K, M and the payment read-only move the zone: the server recomputes them', async () => {
      // A finding of the generated matrix: the recomputed fee was refused as the executor's change.
      const executor = await user('adreq-executor', ['executor'], false);
      const moved = await resave({ zone: 3, regionGroup: 1, volume: 10 }, executor);
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect(moved.body).toMatchObject({ zone: 3, coefficientK: 1, minimumCollectionM: 60000, monthlyPayment: 600000 });
      // What they send for the fee itself is still not theirs: ignored, the rate's figures kept.
      const typed = await resave({ coefficientK: 9, monthlyPayment: 1 }, executor);
      expect(typed.status, JSON.stringify(typed.body)).toBe(200);
      expect(typed.body).toMatchObject({ coefficientK: 1, monthlyPayment: 600000 });
    });

    it('follows a changed rate on the next save', async () => {
      const rates = await call('POST', '/api/ad-coefficient/list-search?zone=2&regionGroup=2', PAGE);
      const rate = rates.body.list[0];
      expect(rate.code).toBe('Z2_G2');
      const changed = await call('PUT', `/api/ad-coefficient/update/${rate.id}`, {
        ...dataOf(rate),
        coefficientK: 1.25,
        version: rate.version,
      });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      const saved = await resave({ zone: 2, regionGroup: 2, volume: 10 }, head);
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(saved.body).toMatchObject({ coefficientK: 1.25, minimumCollectionM: 40000, monthlyPayment: 500000 });
    });
  });
}

/** A stored record's data without the server-owned fields. */
function dataOf(record: Json): Json {
  const { id: _id, status: _s, version: _v, owner: _o, createdAt: _c, updatedAt: _u, ...data } = record;
  return data;
}
