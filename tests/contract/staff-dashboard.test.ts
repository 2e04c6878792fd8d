import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';
import { createRecords } from '../support/app.ts';
import { createStaff } from '../support/stomp.ts';
import { createRng, createSampler } from '../support/sample-data.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { drillQuery } from '../../src/shared/dashboard-query.ts';
import { FILTER_KINDS } from '../../src/shared/filter-kinds.ts';
import type { DashboardOptions } from '../../src/generated/meta.ts';
import documentMachine from '../../workflows/document.machine.json' with { type: 'json' };

type User = { id: string; token: string };
type Bucket = 'returned' | 'reviewedOrSeen' | 'underReview';

/**
 * The dashboard statuses of spec §4 as this test reads the machines (an independent model of
 * the aggregates' measure filters; their descriptions give the reasons). A state left out
 * counts in no tile.
 */
const APPEAL_BUCKETS: Record<string, Bucket> = {
  RETURNED: 'returned',
  SEEN: 'reviewedOrSeen',
  MEASURES_TAKEN: 'reviewedOrSeen',
  EXPLAINED: 'reviewedOrSeen',
  REJECTED: 'reviewedOrSeen',
  UNDER_REVIEW: 'underReview',
  BEING_REVIEWED: 'underReview',
  OVERDUE: 'underReview',
};
const APPEAL_STATES = [...Object.keys(APPEAL_BUCKETS), 'CREATED', 'REPEATED'];
/** Sent documents: any state after the draft, in a regional department (region 15 is the central office). */
const documentBucket = (status: string): Bucket | undefined =>
  status === 'CREATED'
    ? undefined
    : status.startsWith('RETURN_')
      ? 'returned'
      : ['SEEN', 'ACCEPTED', 'REJECTED', 'NOT_BELONG', 'NOT_COMPLETED', 'NO_PERMIT_REQUIRED'].includes(status)
        ? 'reviewedOrSeen'
        : 'underReview';
const CENTRAL_OFFICE = 15;
/** Noon in Tashkent on days of September to November 2026; the test's period is October. */
const DAYS = ['2026-09-30', '2026-10-01', '2026-10-15', '2026-10-31', '2026-11-01'];
const PERIOD = { period: '2026-10', from: '2026-10-01', to: '2026-10-31' };
const ROWS = 90;

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`staff dashboard sources on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let alice: User;
    let bob: User;
    let carol: User;
    let citizen: User;
    const as = (user: User | undefined, method: 'GET' | 'POST', url: string, payload?: unknown) =>
      app.inject({
        method,
        url,
        payload: payload as never,
        headers: { authorization: user ? `Bearer ${user.token}` : '', 'accept-language': 'en' },
      });

    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
      alice = await createStaff(app, 'alice', ['employee'], { firstName: 'Alisher', lastName: 'Karimov' });
      bob = await createStaff(app, 'bob', ['employee'], { firstName: 'Bobur', lastName: 'Toshmatov' });
      carol = await createStaff(app, 'carol', ['employee'], { firstName: 'Kamola', lastName: 'Rahimova' });
      citizen = await createStaff(app, 'citizen1', ['citizen'], { isOuter: true });
    });
    afterAll(async () => close?.());

    describe('consumer appeals and sent appeals by dashboard status', () => {
      type Row = { id: number; status: string; region: number | null; day: string };
      const rowsOf: Record<string, Row[]> = {};
      let regional: User;
      let guard: User;
      const panel = (id: string) =>
        (app.definitions.screens.get('staff-dashboard')!.options as unknown as DashboardOptions).panels.find(
          (p) => p.id === id,
        )!;

      /** Generated records of `entity` through its API, then given states and days at random (seeded). */
      const generate = async (entity: string, states: readonly string[], seed: number) => {
        const def = app.definitions.entities.get(entity)!;
        const sample = createSampler(def.schema, app.definitions.references, createServerAjv());
        const created = await createRecords(
          app,
          `/api${def.manifest.base}`,
          ROWS,
          (n) => sample(n, { full: true }),
          seed,
        );
        const rng = createRng(seed);
        const table = app.tables.get(entity)!.table;
        const rows: Row[] = [];
        for (const r of created) {
          const status = states[Math.floor(rng() * states.length)]!;
          const day = DAYS[Math.floor(rng() * DAYS.length)]!;
          const { rows: got } = await app.db.query<{ region: number | null }>(
            `UPDATE ${table} SET status = $1, created_at = $2 WHERE id = $3 RETURNING region`,
            [status, `${day}T07:00:00Z`, r.id],
          );
          rows.push({ id: r.id, status, region: got[0]!.region === null ? null : Number(got[0]!.region), day });
        }
        return rows;
      };
      /** The three tiles, computed here from the generated rows. */
      const expected = (rows: Row[], bucket: (s: string) => Bucket | undefined, region?: number) => {
        const inPeriod = rows.filter(
          (r) => r.day >= PERIOD.from && r.day <= PERIOD.to && (region === undefined || r.region === region),
        );
        const count = (b: Bucket) => inPeriod.filter((r) => bucket(r.status) === b).length;
        return {
          returned: count('returned'),
          reviewedOrSeen: count('reviewedOrSeen'),
          underReview: count('underReview'),
        };
      };
      /** The panel's call as the dashboard makes it for October 2026 (admin unless a user is given). */
      const tiles = async (id: string, user?: User) => {
        const source = panel(id).source;
        const url = `${source.endpoint}?createdDateFrom=${PERIOD.from}&createdDateTo=${PERIOD.to}`;
        const res = user ? await as(user, 'GET', url) : await app.inject({ method: 'GET', url });
        return { status: res.statusCode, row: res.statusCode === 200 ? res.json().list[0] : res.json() };
      };
      /** The list total behind each tile: drillQuery (the dashboard's own code) → list-search. */
      const drilled = async (id: string, entity: string, user?: User) => {
        const def = app.definitions.entities.get(entity)!;
        const aggregate = def.manifest.aggregates![panel(id).source.endpoint.split('/').at(-1)!]!;
        const listFilters = new Set(def.grid.filters.flatMap((f) => FILTER_KINDS[f.kind].params(f.name)));
        const out: Record<string, number> = {};
        for (const m of aggregate.measures) {
          const query = drillQuery(panel(id), [], {}, {}, m.filter, listFilters);
          query.set('createdDateFrom', PERIOD.from);
          query.set('createdDateTo', PERIOD.to);
          const url = `/api${def.manifest.base}/list-search?${query}`;
          const res = user
            ? await as(user, 'POST', url, { itemsPerPage: 1 })
            : await app.inject({ method: 'POST', url, payload: { itemsPerPage: 1 } });
          expect(res.statusCode, res.body).toBe(200);
          out[m.name] = res.json().total;
        }
        return out;
      };

      beforeAll(async () => {
        regional = await createStaff(app, 'regional', ['employee'], { regionId: 4 });
        guard = await createStaff(app, 'guard', ['security']);
        rowsOf.appeal = await generate('appeal', APPEAL_STATES, 5000);
        rowsOf.correspondence = await generate('correspondence', Object.keys(documentMachine.states), 7000);
      });

      it('counts consumer appeals received in the period by dashboard status, as computed here', async () => {
        const { status, row } = await tiles('appeals');
        expect(status).toBe(200);
        const want = expected(rowsOf.appeal!, (s) => APPEAL_BUCKETS[s]);
        expect(want.returned * want.reviewedOrSeen * want.underReview, 'every tile has rows').toBeGreaterThan(0);
        expect(row).toEqual({
          ...want,
          total: rowsOf.appeal!.filter((r) => r.day >= PERIOD.from && r.day <= PERIOD.to).length,
        });
      });

      it('counts the documents sent down to the regional departments by dashboard status, as computed here', async () => {
        const { status, row } = await tiles('sent');
        expect(status).toBe(200);
        const sent = rowsOf.correspondence!.filter((r) => r.region !== null && r.region !== CENTRAL_OFFICE);
        const want = expected(sent, documentBucket);
        expect(want.returned * want.reviewedOrSeen * want.underReview, 'every tile has rows').toBeGreaterThan(0);
        expect(row).toEqual({ ...want, total: want.returned + want.reviewedOrSeen + want.underReview });
        // The central office's own documents are generated too, and left out.
        expect(rowsOf.correspondence!.some((r) => r.region === CENTRAL_OFFICE && documentBucket(r.status))).toBe(true);
      });

      it('drills every tile to a list whose total equals it', async () => {
        expect(await drilled('appeals', 'appeal')).toEqual((await tiles('appeals')).row);
        expect(await drilled('sent', 'correspondence')).toEqual((await tiles('sent')).row);
      });

      it('keeps to the reader’s scope: a regional employee counts their region only, and lists the same', async () => {
        const appeals = await tiles('appeals', regional);
        expect(appeals.row).toMatchObject(expected(rowsOf.appeal!, (s) => APPEAL_BUCKETS[s], 4));
        const sent = await tiles('sent', regional);
        expect(sent.row).toMatchObject(expected(rowsOf.correspondence!, documentBucket, 4));
        expect(await drilled('appeals', 'appeal', regional)).toEqual(appeals.row);
        expect(await drilled('sent', 'correspondence', regional)).toEqual(sent.row);
      });

      it('refuses the counts to a role that may not read them, and to visitors', async () => {
        expect((await tiles('sent', guard)).status).toBe(403);
        expect((await tiles('appeals', guard)).status).toBe(403);
        expect((await as(undefined, 'GET', panel('sent').source.endpoint)).statusCode).toBe(401);
      });
    });

    describe('chat unread summary', () => {
      const summary = async (user: User) => (await as(user, 'GET', '/api/unread-messages/summary')).json();

      it('answers one row per chat with unread messages, direct and group apart, most unread first', async () => {
        expect(await summary(bob)).toEqual({ list: [], total: 0 });
        const chatId = (await as(alice, 'POST', `/api/chat/create/${bob.id}`)).json().chatId as number;
        for (let i = 0; i < 3; i++)
          await as(alice, 'POST', '/api/chat-message/sendMessage', { chatId, message: `salom ${i}` });
        const group = (
          await as(carol, 'POST', '/api/groupChat/create', {
            name: 'Tahlil guruhi',
            memberIds: [Number(bob.id), Number(alice.id)],
          })
        ).json().id as number;
        for (let i = 0; i < 5; i++)
          await as(carol, 'POST', '/api/groupChat/chat-message/sendMessage', { groupChatId: group, message: `g ${i}` });
        const got = await summary(bob);
        expect(got.total).toBe(2);
        expect(got.list).toEqual([
          { name: 'Tahlil guruhi', chatId: null, groupChatId: group, direct: 0, group: 5, link: '/admin/messenger' },
          { name: 'Karimov Alisher', chatId, groupChatId: null, direct: 3, group: 0, link: '/admin/messenger' },
        ]);
        // The same counts as the messenger's own unread endpoint.
        const counts = (await as(bob, 'GET', '/api/unread-messages')).json();
        expect(got.list.reduce((s: number, r: { direct: number; group: number }) => s + r.direct + r.group, 0)).toBe(
          counts.total,
        );
        // Alice sent the direct messages: only the group's are unread for her.
        expect((await summary(alice)).list).toEqual([expect.objectContaining({ groupChatId: group, group: 5 })]);
        await as(bob, 'POST', '/api/chat-message/make-read', { chatId });
        expect((await summary(bob)).list.map((r: { groupChatId: number }) => r.groupChatId)).toEqual([group]);
      });

      it('is for staff only', async () => {
        expect((await as(citizen, 'GET', '/api/unread-messages/summary')).statusCode).toBe(403);
        expect((await as(undefined, 'GET', '/api/unread-messages/summary')).statusCode).toBe(401);
      });
    });
  });
}
