/**
 * The pharmacy owner's cabinet, on both backends: a business whose proven TIN is the STIR of
 * the pharmacy an appeal is about (pharmacy-appeal scope.recipients /pharmacy/stir), or of the
 * seller of a wholesale appeal (/seller/stir), reads that appeal — without the consumer's PINFL
 * and phone, or the buyer's address and e-mail (role pharmacy-owner, hiddenFields). An appeal
 * about another pharmacy is not found; the same TIN typed in without proof opens nothing. The
 * appeal's audit shows them old → new values without the hidden ones and without staff ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';
import { createStaff } from '../support/stomp.ts';
import { createSampler } from '../support/sample-data.ts';
import { withField } from '../support/records.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { systemActor } from '../../src/server/auth/access.ts';

const TIN = '301234567';
const OTHER_TIN = '309876543';
const RETAIL = '/api/pharm-appeal';
const WHOLESALE = '/api/pharm-wholesale-appeal';

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`the pharmacy owner's appeals on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let owner: { id: string; token: string };
    let unproven: { id: string; token: string };
    let mine: Record<string, unknown> & { id: number };
    let other: { id: number };
    let sold: Record<string, unknown> & { id: number };
    let bought: { id: number };

    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
      const ajv = createServerAjv();
      const sample = (entity: string, seed: number) =>
        createSampler(
          app.definitions.entities.get(entity)!.schema,
          app.definitions.references,
          ajv,
        )(seed, { full: true });
      const create = async (base: string, data: Record<string, unknown>) => {
        const res = await app.inject({ method: 'POST', url: `${base}/create`, payload: data });
        expect(res.statusCode, res.body).toBe(200);
        return res.json();
      };
      mine = await create(
        RETAIL,
        withField(withField(sample('pharmacy-appeal', 1), '/pharmacy/stir', TIN), '/consumer/pinfl', '31205891234567'),
      );
      other = await create(RETAIL, withField(sample('pharmacy-appeal', 2), '/pharmacy/stir', OTHER_TIN));
      // Wholesale: the appeal is about the seller; a pharmacy that bought is not its recipient.
      sold = await create(
        WHOLESALE,
        withField(withField(sample('pharmacy-wholesale-appeal', 3), '/seller/stir', TIN), '/buyer/stir', OTHER_TIN),
      );
      bought = await create(
        WHOLESALE,
        withField(withField(sample('pharmacy-wholesale-appeal', 4), '/seller/stir', OTHER_TIN), '/buyer/stir', TIN),
      );
      owner = await createStaff(app, 'pharmacy1', ['business', 'pharmacy-owner'], {
        isOuter: true,
        tin: TIN,
        identityVerified: true,
      });
      unproven = await createStaff(app, 'pharmacy2', ['business', 'pharmacy-owner'], { isOuter: true, tin: TIN });
    }, 120_000);
    afterAll(async () => close?.());

    const as = (who: { token: string }, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
      app.inject({
        method,
        url,
        payload: payload as never,
        headers: { authorization: `Bearer ${who.token}`, 'accept-language': 'en' },
      });
    const ids = (res: { json(): unknown }) => (res.json() as { list: Array<{ id: number }> }).list.map((r) => r.id);

    it('lists and opens the appeals about their pharmacy, without the consumer’s PINFL and phone', async () => {
      const list = await as(owner, 'POST', `${RETAIL}/list-search`, {});
      expect(list.statusCode, list.body).toBe(200);
      expect(ids(list)).toEqual([mine.id]);
      const got = await as(owner, 'GET', `${RETAIL}/get/${mine.id}`);
      expect(got.statusCode, got.body).toBe(200);
      const record = got.json();
      const consumer = mine.consumer as Record<string, unknown>;
      // The complaint, the consumer's name, the pharmacy's own data, amounts, dates and status stay.
      expect(record.consumer).toEqual({
        lastName: consumer.lastName,
        firstName: consumer.firstName,
        ...(consumer.middleName ? { middleName: consumer.middleName } : {}),
      });
      expect(record).toMatchObject({
        number: mine.number,
        receivedDate: mine.receivedDate,
        pharmacy: mine.pharmacy,
        medication: mine.medication,
        status: mine.status,
      });
      for (const res of [list, got]) {
        expect(res.body).not.toContain('31205891234567');
        expect(res.body).not.toContain(String(consumer.phone));
      }
      // Staff still see everything.
      expect((await app.inject({ method: 'GET', url: `${RETAIL}/get/${mine.id}` })).json().consumer).toEqual(
        mine.consumer,
      );
    });

    it('answers 404 for an appeal about another pharmacy, on every reading route', async () => {
      for (const route of ['get', 'audit', 'history']) {
        expect((await as(owner, 'GET', `${RETAIL}/${route}/${other.id}`)).statusCode, route).toBe(404);
      }
      expect((await as(owner, 'GET', `${RETAIL}/audit/${mine.id}`)).statusCode).toBe(200);
      expect((await as(owner, 'GET', `${RETAIL}/history/${mine.id}`)).statusCode).toBe(200);
    });

    it('shows a seller the wholesale appeals about them, without the buyer’s address and e-mail; a buyer is no recipient', async () => {
      const list = await as(owner, 'POST', `${WHOLESALE}/list-search`, {});
      expect(ids(list)).toEqual([sold.id]);
      const got = (await as(owner, 'GET', `${WHOLESALE}/get/${sold.id}`)).json();
      const buyer = sold.buyer as Record<string, unknown>;
      expect(got.buyer).toEqual(
        Object.fromEntries(Object.entries(buyer).filter(([k]) => k !== 'address' && k !== 'email')),
      );
      expect(got.buyer).toMatchObject({ name: buyer.name, stir: OTHER_TIN });
      expect(got).toMatchObject({ seller: sold.seller, products: sold.products, invoice: sold.invoice });
      expect((await as(owner, 'GET', `${WHOLESALE}/get/${bought.id}`)).statusCode).toBe(404);
    });

    it('opens nothing to a user whose TIN was only typed in (identity not verified)', async () => {
      for (const base of [RETAIL, WHOLESALE]) {
        const list = await as(unproven, 'POST', `${base}/list-search`, {});
        expect(list.statusCode, list.body).toBe(200);
        expect(list.json().total).toBe(0);
      }
      expect((await as(unproven, 'GET', `${RETAIL}/get/${mine.id}`)).statusCode).toBe(404);
      expect((await as(unproven, 'GET', `${WHOLESALE}/get/${sold.id}`)).statusCode).toBe(404);
    });

    it('reads the audit’s old → new values without the hidden consumer fields and without staff ids', async () => {
      const consumer = mine.consumer as Record<string, unknown>;
      const seen = (await app.inject({ method: 'GET', url: `${RETAIL}/get/${mine.id}` })).json();
      const changed = { ...consumer, firstName: 'Dilshod', pinfl: '31205899876543', phone: '+99893-777-66-55' };
      const executor = Number((await createStaff(app, 'pharmacy-executor', ['executor'])).id);
      expect(seen.executorId).not.toBe(executor);
      const res = await app.inject({
        method: 'PUT',
        url: `${RETAIL}/update/${mine.id}`,
        payload: { ...seen, consumer: changed },
      });
      expect(res.statusCode, res.body).toBe(200);
      // The executor is assigned by the machine's event (edit.json keeps it from updates): here as the server's own write.
      const { id: _id, status: _status, owner: _owner, createdAt: _c, updatedAt: _u, ...data } = res.json();
      await app.store.update('pharmacy-appeal', mine.id, { ...data, executorId: executor }, systemActor());
      const secrets = ['31205891234567', '31205899876543', String(consumer.phone), '+99893-777-66-55'];

      const theirs = await as(owner, 'GET', `${RETAIL}/audit/${mine.id}`);
      expect(theirs.statusCode, theirs.body).toBe(200);
      for (const secret of secrets) expect(theirs.body).not.toContain(secret);
      const [assigned, edit, made] = theirs.json().list as Array<{
        action: string;
        diff: Array<Record<string, unknown>>;
      }>;
      // An outer user is told that the executor changed, not who it is.
      expect(assigned!.diff).toEqual([{ pointer: '/executorId', redacted: true }]);
      expect(edit!.diff).toEqual([{ pointer: '/consumer/firstName', old: consumer.firstName, new: 'Dilshod' }]);
      expect(made!.diff.map((c) => c.pointer)).toContain('/consumer/firstName');
      expect(made!.diff.map((c) => c.pointer).filter((p) => String(p).match(/pinfl|phone/))).toEqual([]);

      // Staff see every value.
      const [staffAssigned, staffEdit] = (await app.inject({ method: 'GET', url: `${RETAIL}/audit/${mine.id}` })).json()
        .list;
      expect(staffEdit.diff).toEqual(
        expect.arrayContaining([{ pointer: '/consumer/pinfl', old: '31205891234567', new: '31205899876543' }]),
      );
      expect(staffAssigned.diff).toEqual([
        { pointer: '/executorId', ...(seen.executorId === undefined ? {} : { old: seen.executorId }), new: executor },
      ]);
    });

    it('may only read: no update, no status change', async () => {
      const seen = (await as(owner, 'GET', `${RETAIL}/get/${mine.id}`)).json();
      expect((await as(owner, 'PUT', `${RETAIL}/update/${mine.id}`, seen)).statusCode).toBe(403);
      expect(
        (
          await as(owner, 'POST', `${RETAIL}/transition/${mine.id}`, {
            event: 'ASSIGN_TO_REGION',
            version: seen.version,
          })
        ).statusCode,
      ).toBe(403);
      expect((await as(owner, 'GET', `${RETAIL}/events/${mine.id}`)).json().events).toEqual([]);
    });
  });
}
