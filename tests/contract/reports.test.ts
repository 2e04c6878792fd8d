/**
 * Reports between departments and their templates (spec §1, §2 "reports (incoming, outgoing,
 * consolidated, templates)", §8–§9 merging), on both backends with one app each: templates
 * kept by the central office; a report created from a template gets its rows (manifest
 * `prefill`); the report machine (send, return with a reason, send again, accept) and who may
 * do what; the incoming and outgoing boxes (filter kind `myUnit`: the viewer's staff-card
 * department); merging ≥ 2 reports of one template and period into a consolidated report whose
 * numbers equal sums computed here, its texts listed and its sources remembered; fewer than 2,
 * mixed templates and mixed periods refused with plain messages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';

type Row = { code: string; name: string; unit?: string; kind: 'number' | 'text'; value?: number; text?: string };
type Reply = { status: number; body: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any

const TEMPLATE_ROWS: Row[] = [
  { code: 'A1', name: 'Appeals received', unit: 'pcs', kind: 'number' },
  { code: 'A2', name: 'Fines imposed', unit: 'UZS', kind: 'number' },
  { code: 'A3', name: 'Remarks', kind: 'text' },
];

/** A small deterministic generator, so a failing sum can be reproduced. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`reports on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let sender: string;
    let receiver: string;
    let outsider: string;
    let cardless: string;
    let chair: string;
    let senderUnit: number;
    let receiverUnit: number;
    let templateId: number;
    let otherTemplateId: number;

    /** A call as a user (token) or as the admin (no token), in English. */
    const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token?: string) => {
      const res = await app.inject({
        method,
        url,
        payload: payload as never,
        headers: { 'accept-language': 'en', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      });
      return { status: res.statusCode, body: res.json() } as Reply;
    };
    let made = 0;
    /** A staff user with the roles and, given a unit, a staff card in it; answers their token. */
    const user = async (roles: string[], unit?: number): Promise<string> => {
      made += 1;
      const username = `rep-${backend.name}-${made}`;
      const created = await call('POST', '/api/portal-user/create', {
        username,
        firstName: 'Malika',
        lastName: 'Yusupova',
        isOuter: false,
        canLogin: true,
        roles,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const password = 'first password 1';
      expect((await call('POST', '/api/auth/set-password', { userId: created.body.id, password })).status).toBe(200);
      if (unit !== undefined) {
        const card = await call('POST', '/api/employee/create', {
          lastName: 'Yusupova',
          firstName: 'Malika',
          departmentId: unit,
          canRegister: false,
          canLogin: true,
          userId: created.body.id,
        });
        expect(card.status, JSON.stringify(card.body)).toBe(200);
      }
      const session = await app.inject({
        method: 'POST',
        url: '/api/auth-payload',
        payload: { username, password },
        headers: { authorization: '' },
      });
      expect(session.statusCode, session.body).toBe(200);
      return session.json().token as string;
    };
    const newReport = (extra: Record<string, unknown> = {}) => ({
      title: 'Half-year report',
      templateId,
      periodKind: 'ANNUAL',
      year: 2025,
      fromDepartmentId: senderUnit,
      toDepartmentId: receiverUnit,
      ...extra,
    });
    const transition = async (id: number, event: string, token: string, payload?: Record<string, unknown>) => {
      const current = await call('GET', `/api/report/get/${id}`, undefined, token);
      return call(
        'POST',
        `/api/report/transition/${id}`,
        { event, version: current.body.version, ...(payload ? { payload } : {}) },
        token,
      );
    };
    const ids = (reply: Reply) => (reply.body.list as Array<{ id: number }>).map((r) => r.id).sort((a, b) => a - b);

    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
      const units = await app.db.query<{ id: number }>('SELECT id FROM e_department ORDER BY id LIMIT 3');
      [senderUnit, receiverUnit] = [Number(units.rows[0]!.id), Number(units.rows[1]!.id)];
      const thirdUnit = Number(units.rows[2]!.id);
      sender = await user(['employee'], senderUnit);
      receiver = await user(['department-head'], receiverUnit);
      outsider = await user(['employee'], thirdUnit);
      cardless = await user(['employee']);
      chair = await user(['chair']);
      const template = await call('POST', '/api/report-template/create', {
        name: 'Consumer protection, annual',
        periodKind: 'ANNUAL',
        rows: TEMPLATE_ROWS,
      });
      expect(template.status, JSON.stringify(template.body)).toBe(200);
      templateId = template.body.id;
      const other = await call('POST', '/api/report-template/create', {
        name: 'Competition, annual',
        periodKind: 'ANNUAL',
        rows: [{ code: 'B1', name: 'Cases opened', kind: 'number' }],
      });
      otherTemplateId = other.body.id;
    }, 180_000);
    afterAll(async () => close?.());

    it('keeps templates: created, read, changed, listed and deleted by the central office; staff only read them', async () => {
      const made = await call('POST', '/api/report-template/create', {
        name: 'Draft template',
        periodKind: 'SIX_MONTHS',
        rows: [{ code: 'X', name: 'Anything', kind: 'text' }],
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const read = await call('GET', `/api/report-template/get/${made.body.id}`, undefined, sender);
      expect(read.body.rows).toEqual([{ code: 'X', name: 'Anything', kind: 'text' }]);
      const changed = await call('PUT', `/api/report-template/update/${made.body.id}`, {
        ...made.body,
        name: 'Renamed template',
      });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      const listed = await call('POST', '/api/report-template/list-search?keyword=renamed', {}, sender);
      expect(listed.body.list.map((t: { name: string }) => t.name)).toEqual(['Renamed template']);
      const noRows = await call('POST', '/api/report-template/create', {
        name: 'Empty',
        periodKind: 'ANNUAL',
        rows: [],
      });
      expect(noRows.status).toBe(400);
      const byStaff = await call(
        'POST',
        '/api/report-template/create',
        { name: 'Mine', periodKind: 'ANNUAL', rows: TEMPLATE_ROWS },
        sender,
      );
      expect(byStaff.status).toBe(403);
      expect((await call('DELETE', `/api/report-template/delete/${made.body.id}`)).status).toBe(200);
      expect((await call('GET', `/api/report-template/get/${made.body.id}`)).status).toBe(404);
    });

    it("fills a new report from its template: the template's rows when the report sends none, its own otherwise", async () => {
      const filled = await call('POST', '/api/report/create', newReport(), sender);
      expect(filled.status, JSON.stringify(filled.body)).toBe(200);
      expect(filled.body.rows).toEqual(TEMPLATE_ROWS);
      expect(filled.body.status).toBe('DRAFT');
      const own = [{ code: 'A1', name: 'Appeals received', kind: 'number', value: 4 }];
      const kept = await call('POST', '/api/report/create', newReport({ rows: own }), sender);
      expect(kept.body.rows).toEqual(own);
      const before = (await call('POST', '/api/report/list-search', {})).body.total;
      const unknown = await call('POST', '/api/report/create', newReport({ templateId: 999999 }), sender);
      expect([400, 404]).toContain(unknown.status);
      expect((await call('POST', '/api/report/list-search', {})).body.total).toBe(before);
      // Whether a report is consolidated, and of what, is the merge's to say: a client's claim is ignored.
      const claimed = await call(
        'POST',
        '/api/report/create',
        newReport({ consolidated: true, mergedFrom: [filled.body.id] }),
        sender,
      );
      expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
      expect(claimed.body.consolidated).not.toBe(true);
      expect(claimed.body).not.toHaveProperty('mergedFrom');
      const interval = await call('POST', '/api/report/create', newReport({ periodKind: 'INTERVAL', year: undefined }));
      expect(interval.status).toBe(400);
      expect(Object.keys(interval.body.fieldErrors ?? {}).sort()).toEqual(['/periodFrom', '/periodTo']);
    });

    it('moves a report from draft to sent, back with a reason, sent again and accepted; read-only once sent', async () => {
      const made = (await call('POST', '/api/report/create', newReport(), sender)).body;
      expect((await transition(made.id, 'ACCEPT', receiver)).status).toBe(409);
      const sent = await transition(made.id, 'SEND', sender);
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      expect(sent.body.status).toBe('SENT');
      const locked = await call('PUT', `/api/report/update/${made.id}`, { ...sent.body, note: 'late edit' }, sender);
      expect(locked.status).not.toBe(200);
      expect((await transition(made.id, 'ACCEPT', sender)).status).toBe(403);
      expect((await transition(made.id, 'RETURN', receiver, {})).status).toBe(400);
      const returned = await transition(made.id, 'RETURN', receiver, { reason: 'Row A2 is missing' });
      expect(returned.status, JSON.stringify(returned.body)).toBe(200);
      expect(returned.body).toMatchObject({ status: 'RETURNED', returnReason: 'Row A2 is missing' });
      const fixed = await call(
        'PUT',
        `/api/report/update/${made.id}`,
        { ...returned.body, rows: TEMPLATE_ROWS.map((r) => (r.kind === 'number' ? { ...r, value: 2 } : r)) },
        sender,
      );
      expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
      expect((await transition(made.id, 'SEND', sender)).body.status).toBe('SENT');
      const accepted = await transition(made.id, 'ACCEPT', receiver);
      expect(accepted.body.status).toBe('ACCEPTED');
      expect((await transition(made.id, 'RETURN', receiver, { reason: 'again' })).status).toBe(409);
    });

    it("shows each department its boxes: outgoing for the sender's, incoming for the receiver's, nothing to others", async () => {
      const mine = [
        (await call('POST', '/api/report/create', newReport({ title: 'Box one' }), sender)).body.id as number,
        (await call('POST', '/api/report/create', newReport({ title: 'Box two' }), sender)).body.id as number,
      ];
      const reverse = (
        await call(
          'POST',
          '/api/report/create',
          newReport({ title: 'Box back', fromDepartmentId: receiverUnit, toDepartmentId: senderUnit }),
        )
      ).body.id as number;
      const box = (token: string, filter: string) =>
        call('POST', `/api/report/list-search?${filter}=true&keyword=box`, { itemsPerPage: 100 }, token);
      expect(ids(await box(sender, 'fromMyDepartment'))).toEqual(mine);
      expect(ids(await box(sender, 'toMyDepartment'))).toEqual([reverse]);
      expect(ids(await box(receiver, 'toMyDepartment'))).toEqual(mine);
      expect(ids(await box(receiver, 'fromMyDepartment'))).toEqual([reverse]);
      expect((await box(outsider, 'toMyDepartment')).body.total).toBe(0);
      expect((await box(outsider, 'fromMyDepartment')).body.total).toBe(0);
      // No staff card, no department: an empty box, never everything.
      expect((await box(cardless, 'toMyDepartment')).body.total).toBe(0);
      expect((await call('POST', '/api/report/list-search?keyword=box', {}, cardless)).body.total).toBe(3);
    });

    it('merges reports of one template and period: numbers summed per row code, texts listed, sources remembered', async () => {
      const rng = random(backend.name.length * 7919);
      const made: Array<{ id: number; rows: Row[] }> = [];
      for (let i = 0; i < 4; i++) {
        // Rows in varying order, one number left unfilled in some, to sum by code and not by position.
        const rows = TEMPLATE_ROWS.map((r) =>
          r.kind === 'text'
            ? { ...r, ...(i === 1 ? {} : { text: `Remark ${i}` }) }
            : { ...r, ...(i === 2 && r.code === 'A2' ? {} : { value: Math.round(rng() * 100000) / 100 }) },
        );
        if (i % 2) rows.reverse();
        const res = await call('POST', '/api/report/create', newReport({ title: `Region ${i}`, rows }), sender);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        made.push(res.body as { id: number; rows: Row[] });
      }
      const expected = new Map<string, number>();
      for (const r of made.flatMap((m) => m.rows))
        if (r.value !== undefined) expected.set(r.code, (expected.get(r.code) ?? 0) + r.value);
      const merged = await call('POST', '/api/report/merge', { ids: made.map((m) => m.id).reverse() }, receiver);
      expect(merged.status, JSON.stringify(merged.body)).toBe(200);
      const body = merged.body as { rows: Row[]; mergedFrom: number[]; consolidated: boolean; status: string };
      expect(body.rows.map((r) => r.code)).toEqual(['A1', 'A2', 'A3']);
      for (const r of body.rows.filter((x) => x.kind === 'number'))
        expect(r.value, r.code).toBeCloseTo(expected.get(r.code)!, 6);
      expect(body.rows.find((r) => r.code === 'A3')!.text).toBe('Remark 0\nRemark 2\nRemark 3');
      expect(body.mergedFrom).toEqual(made.map((m) => m.id));
      expect(body).toMatchObject({ consolidated: true, status: 'DRAFT', templateId, year: 2025 });
      const consolidated = await call('POST', '/api/report/list-search?consolidated=true', {}, receiver);
      expect(ids(consolidated)).toEqual([(merged.body as { id: number }).id]);
      // The sources are unchanged.
      const first = await call('GET', `/api/report/get/${made[0]!.id}`);
      expect(first.body.rows).toEqual(made[0]!.rows);
    });

    it("refuses fewer than 2 reports with the spec's message, and mixed templates or periods plainly", async () => {
      const a = (await call('POST', '/api/report/create', newReport(), sender)).body.id as number;
      const one = await call('POST', '/api/report/merge', { ids: [a] }, sender);
      expect(one.status).toBe(400);
      expect(one.body.message).toBe('At least 2 reports must be selected to merge');
      const otherTemplate = (
        await call(
          'POST',
          '/api/report/create',
          newReport({
            templateId: otherTemplateId,
            rows: [{ code: 'B1', name: 'Cases opened', kind: 'number', value: 1 }],
          }),
          sender,
        )
      ).body.id as number;
      const before = (await call('POST', '/api/report/list-search', {})).body.total;
      const mixed = await call('POST', '/api/report/merge', { ids: [a, otherTemplate] }, sender);
      expect(mixed.status).toBe(400);
      expect(mixed.body.message).toBe('Only reports of the same template and period can be merged');
      expect(mixed.body.fieldErrors).toEqual({
        '/templateId': 'Only reports of the same template and period can be merged',
      });
      const otherYear = (await call('POST', '/api/report/create', newReport({ year: 2024 }), sender)).body.id as number;
      const years = await call('POST', '/api/report/merge', { ids: [a, otherYear] }, sender);
      expect(years.status).toBe(400);
      expect(Object.keys(years.body.fieldErrors)).toEqual(['/year']);
      expect((await call('POST', '/api/report/list-search', {})).body.total).toBe(before + 1);
    });

    it('lets only those with create merge, and no visitor', async () => {
      const a = (await call('POST', '/api/report/create', newReport(), sender)).body.id as number;
      const b = (await call('POST', '/api/report/create', newReport(), sender)).body.id as number;
      expect((await call('POST', '/api/report/merge', { ids: [a, b] }, chair)).status).toBe(403);
      const guest = await app.inject({
        method: 'POST',
        url: '/api/report/merge',
        payload: { ids: [a, b] },
        headers: { authorization: '' },
      });
      expect(guest.statusCode).toBe(401);
      expect((await call('GET', `/api/report/get/${a}`, undefined, chair)).status).toBe(200);
      expect((await call('POST', '/api/report/create', newReport(), chair)).status).toBe(403);
    });
  });
}
