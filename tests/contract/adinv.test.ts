/**
 * The advertising inventory report (issue #20 item 3b), on both backends: each §9 rule of the
 * checklist capability at its boundary — the value just inside is accepted with the check marked
 * conform, the value just outside is refused with the rule's own message at the check and nothing
 * is stored —; the overall result and the number of non-conform checks are the server's; the
 * review machine submits only a fully marked report, returns it with a reason and accepts it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const GROUPS: Record<string, string[]> = {
  placementChecks: ['roadEdge', 'clearance', 'foundation', 'roofProportion', 'crossing', 'spacing', 'visibility'],
  documentChecks: ['permit', 'passportShown', 'approvals', 'payment'],
  conditionChecks: ['structure', 'lighting', 'fixing', 'site', 'surface'],
  contentChecks: ['language', 'lawful', 'restricted', 'matchesPassport'],
};
const [GROUND, WALL, ROOF, OVER_ROAD] = [1, 2, 3, 4];
const [SMALL, MEDIUM, LARGE, EXTRA_LARGE] = [1, 2, 3, 4];

/** A report of a small free-standing construction with every check marked conform. */
function report(extra: Json = {}): Json {
  const marks = Object.fromEntries(
    Object.entries(GROUPS).map(([group, checks]) => [group, Object.fromEntries(checks.map((c) => [c, 'CONFORM']))]),
  );
  return {
    inspectionDate: '2026-11-02',
    regionId: 1,
    address: 'Amir Temur street 1',
    locationTypeId: GROUND,
    sizeId: SMALL,
    ...marks,
    ...extra,
  };
}

/** One §9 rule at its boundary: the check, the measurement inside and outside, and the message. */
interface Boundary {
  check: string;
  inside: Json;
  outside: Json;
  en: string;
}
const BOUNDARIES: Boundary[] = [
  {
    check: 'roadEdge',
    inside: { roadEdgeDistanceM: 1 },
    outside: { roadEdgeDistanceM: 0.99 },
    en: 'At least 1 m from the road edge: 0.99 m measured, so this check is non-conform.',
  },
  {
    check: 'clearance',
    inside: { lowerEdgeHeightM: 5 },
    outside: { lowerEdgeHeightM: 4.99 },
    en: 'The lower edge at least 5 m high: 4.99 m measured, so this check is non-conform.',
  },
  {
    check: 'clearance',
    inside: { locationTypeId: OVER_ROAD, lowerEdgeHeightM: 5 },
    outside: { locationTypeId: OVER_ROAD, lowerEdgeHeightM: 4.99 },
    en: 'The lower edge at least 5 m high: 4.99 m measured, so this check is non-conform.',
  },
  {
    check: 'foundation',
    inside: { foundationHeightCm: 50 },
    outside: { foundationHeightCm: 50.01 },
    en: 'The foundation at most 50 cm above the ground: 50.01 cm measured, so this check is non-conform.',
  },
  {
    check: 'roofProportion',
    inside: { locationTypeId: ROOF, buildingHeightM: 15, constructionHeightM: 5 },
    outside: { locationTypeId: ROOF, buildingHeightM: 15, constructionHeightM: 5.01 },
    en: "On a roof at most 1/3 of the building's height (5 m): 5.01 m measured, so this check is non-conform.",
  },
  {
    check: 'crossing',
    inside: { crossingStructures: 4 },
    outside: { crossingStructures: 5 },
    en: 'At most 4 constructions at one crossing: 5 counted, so this check is non-conform.',
  },
  ...(
    [
      [SMALL, 50],
      [MEDIUM, 100],
      [LARGE, 150],
      [EXTRA_LARGE, 200],
    ] as const
  ).map(
    ([sizeId, metres]): Boundary => ({
      check: 'spacing',
      inside: { sizeId, nearestConstructionM: metres },
      outside: { sizeId, nearestConstructionM: metres - 0.01 },
      en: `At least ${metres} m to the nearest construction for this size: ${metres - 0.01} m measured, so this check is non-conform.`,
    }),
  ),
];

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`advertising inventory rules on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, language = 'en') => {
      const res = await app.inject({
        method,
        url,
        payload: payload as never,
        headers: { 'accept-language': language },
      });
      return { status: res.statusCode, body: res.json() as Json };
    };
    const stored = async (): Promise<number> => {
      const res = await call('POST', '/api/advertising-inventory/list-search', { page: 0, itemsPerPage: 1 });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.total as number;
    };

    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
    }, 300_000);
    afterAll(async () => close?.());

    for (const [i, b] of BOUNDARIES.entries()) {
      it(`${b.check} #${i}: just inside is conform, just outside is refused with the rule and nothing is stored`, async () => {
        const before = await stored();
        const refused = await call('POST', '/api/advertising-inventory/create', report(b.outside));
        expect(refused.status).toBe(400);
        expect(refused.body.fieldErrors).toEqual({ [`/placementChecks/${b.check}`]: b.en });
        expect(await stored()).toBe(before);
        const accepted = await call('POST', '/api/advertising-inventory/create', report(b.inside));
        expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
        expect(accepted.body).toMatchObject({ result: 'CONFORM', nonConformCount: 0 });
        expect(await stored()).toBe(before + 1);
      });
    }

    it('names the rule in the reader’s language', async () => {
      const res = await call('POST', '/api/advertising-inventory/create', report({ roadEdgeDistanceM: 0.5 }), 'ru');
      expect(res.status).toBe(400);
      expect(res.body.fieldErrors['/placementChecks/roadEdge']).toBe(
        'Не ближе 1 м от края дороги: измерено 0.5 м — отметьте «Не соответствует».',
      );
    });

    it('accepts a breaking measurement marked non-conform, and derives the result whatever the client sent', async () => {
      const data = report({ roadEdgeDistanceM: 0.5, crossingStructures: 6, result: 'CONFORM', nonConformCount: 0 });
      data.placementChecks.roadEdge = 'NON_CONFORM';
      data.placementChecks.crossing = 'NON_CONFORM';
      const res = await call('POST', '/api/advertising-inventory/create', data);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ result: 'NON_CONFORM', nonConformCount: 2 });
      // One check left unmarked: no overall result yet.
      delete data.contentChecks.lawful;
      data.placementChecks.roadEdge = 'CONFORM';
      data.placementChecks.crossing = 'CONFORM';
      data.roadEdgeDistanceM = 3;
      data.crossingStructures = 2;
      const partial = await call('PUT', `/api/advertising-inventory/update/${res.body.id}`, {
        ...data,
        version: res.body.version,
      });
      expect(partial.status, JSON.stringify(partial.body)).toBe(200);
      expect(partial.body.result).toBeUndefined();
      expect(partial.body.nonConformCount).toBe(0);
    });

    it('applies a rule only to its placement: a wall sign near the road, a free-standing one of any height ratio', async () => {
      const res = await call(
        'POST',
        '/api/advertising-inventory/create',
        report({ locationTypeId: WALL, roadEdgeDistanceM: 0.2, foundationHeightCm: 80, nearestConstructionM: 5 }),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const ground = await call(
        'POST',
        '/api/advertising-inventory/create',
        report({ buildingHeightM: 3, constructionHeightM: 6 }),
      );
      expect(ground.status, JSON.stringify(ground.body)).toBe(200);
    });

    it('refuses an update that breaks a rule and keeps the stored record', async () => {
      const created = (await call('POST', '/api/advertising-inventory/create', report({ roadEdgeDistanceM: 2 }))).body;
      const res = await call('PUT', `/api/advertising-inventory/update/${created.id}`, {
        ...created,
        roadEdgeDistanceM: 0.99,
      });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.fieldErrors)).toEqual(['/placementChecks/roadEdge']);
      const again = await call('GET', `/api/advertising-inventory/get/${created.id}`);
      expect(again.body.roadEdgeDistanceM).toBe(2);
    });

    it('submits only a fully marked report; a submitted one is read-only; returned with a reason, then accepted', async () => {
      const data = report();
      delete data.documentChecks.permit;
      let rec = (await call('POST', '/api/advertising-inventory/create', data)).body;
      const send = (event: string, payload?: Json) =>
        call('POST', `/api/advertising-inventory/transition/${rec.id}`, {
          event,
          version: rec.version,
          ...(payload ? { payload } : {}),
        });
      expect((await send('SUBMIT')).status).not.toBe(200);
      rec = (
        await call('PUT', `/api/advertising-inventory/update/${rec.id}`, {
          ...rec,
          documentChecks: { ...rec.documentChecks, permit: 'CONFORM' },
        })
      ).body;
      let res = await send('SUBMIT');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      rec = res.body;
      expect(rec.status).toBe('SUBMITTED');
      expect((await call('PUT', `/api/advertising-inventory/update/${rec.id}`, { ...rec, address: 'x' })).status).toBe(
        403,
      );
      res = await send('RETURN', { reason: 'Measure the spacing' });
      expect(res.body).toMatchObject({ status: 'RETURNED', returnComment: 'Measure the spacing' });
      rec = res.body;
      rec = (await send('SUBMIT')).body;
      res = await send('ACCEPT');
      expect(res.body.status).toBe('ACCEPTED');
    });

    it('keeps ad monitoring visits and e-auction lots; a sold lot needs its winner and final price', async () => {
      const visit = await call('POST', '/api/ad-monitoring/create', {
        visitDate: '2026-11-03',
        regionId: 1,
        address: 'Navoi street 5',
        violation: true,
        findings: 'No passport number on the construction',
        measures: 'Instruction to display it',
      });
      expect(visit.status, JSON.stringify(visit.body)).toBe(200);
      const lot = { lotNumber: 'L-2026-17', auctionDate: '2026-11-10', regionId: 1, address: 'Bobur street 2' };
      const sold = await call('POST', '/api/e-auction-monitoring/create', {
        ...lot,
        startPrice: 5e6,
        lotStatus: 'SOLD',
      });
      expect(sold.status).toBe(400);
      expect(Object.keys(sold.body.fieldErrors ?? {}).sort()).toEqual(['/finalPrice', '/winnerName']);
      const ok = await call('POST', '/api/e-auction-monitoring/create', {
        ...lot,
        startPrice: 5e6,
        finalPrice: 7.5e6,
        winnerName: 'Reklama Servis LLC',
        lotStatus: 'SOLD',
      });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    });
  });
}
