/**
 * Court notices in the recipient's cabinet, on both backends: a citizen or business whose
 * PINFL / STIR is the notice's (manifest scope.recipients) reads it and downloads its file;
 * the first such download stamps downloadedAt (manifest stampOnDownload), which the public
 * summons counters (/sud-xabarnomasi) count. Others see nothing and stamp nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';
import { createStaff } from '../support/stomp.ts';
import { noticeInput } from '../support/public-samples.ts';
import { PDF, multipart } from '../support/multipart.ts';

const STATS = '/api/public-lookup/court-notice/summons/stats';

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`court notice downloads on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let notice: { id: number };
    let fileId: string;
    let recipient: { token: string };
    let stranger: { token: string };
    let business: { token: string };
    let unproven: { token: string };
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
      const upload = multipart([{ name: 'summons.pdf', type: 'application/pdf', content: PDF }]);
      fileId = (await app.inject({ method: 'POST', url: '/api/file-entity/save/court-notice', ...upload })).json()
        .list[0].id;
      notice = (
        await app.inject({
          method: 'POST',
          url: '/api/court-notice/create',
          payload: noticeInput({ recipientPinfl: '31205891234567', files: [fileId] }),
        })
      ).json();
      await app.inject({
        method: 'POST',
        url: '/api/court-notice/create',
        payload: noticeInput({ recipientPinfl: '31205890000001', caseNumber: '2-9/2026' }),
      });
      await app.inject({
        method: 'POST',
        url: '/api/court-notice/create',
        payload: noticeInput({ recipientPinfl: undefined, recipientStir: '301234567', kind: 'DECISION' }),
      });
      recipient = await createStaff(app, 'recipient1', ['citizen'], {
        isOuter: true,
        pinfl: '31205891234567',
        identityVerified: true,
      });
      stranger = await createStaff(app, 'stranger1', ['citizen'], {
        isOuter: true,
        pinfl: '31205899999999',
        identityVerified: true,
      });
      business = await createStaff(app, 'business1', ['business'], {
        isOuter: true,
        tin: '301234567',
        identityVerified: true,
      });
      unproven = await createStaff(app, 'unproven1', ['citizen'], { isOuter: true, pinfl: '31205890000001' });
    }, 120_000);
    afterAll(async () => close?.());

    const as = (who: { token: string } | null, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
      app.inject({
        method,
        url,
        payload: payload as never,
        headers: { authorization: who ? `Bearer ${who.token}` : '', 'accept-language': 'en' },
      });
    const stats = async () => (await as(null, 'GET', STATS)).json() as { downloaded: number; downloadedToday: number };
    const downloadedAt = async () =>
      (await app.inject({ method: 'GET', url: `/api/court-notice/get/${notice.id}` })).json().downloadedAt as
        | string
        | undefined;

    it('shows each outer user only the notices addressed to them', async () => {
      const mine = await as(recipient, 'POST', '/api/court-notice/list-search', {});
      expect(mine.statusCode).toBe(200);
      expect(mine.json().list.map((r: { id: number }) => r.id)).toEqual([notice.id]);
      expect((await as(recipient, 'GET', `/api/court-notice/get/${notice.id}`)).statusCode).toBe(200);
      expect((await as(stranger, 'POST', '/api/court-notice/list-search', {})).json().total).toBe(0);
      expect((await as(stranger, 'GET', `/api/court-notice/get/${notice.id}`)).statusCode).toBe(404);
      const byStir = await as(business, 'POST', '/api/court-notice/list-search', {});
      expect(byStir.json().list.map((r: { recipientStir: string }) => r.recipientStir)).toEqual(['301234567']);
      // Reading is all a recipient may do.
      const current = (await as(recipient, 'GET', `/api/court-notice/get/${notice.id}`)).json();
      expect(
        (await as(recipient, 'PUT', `/api/court-notice/update/${notice.id}`, { ...current, note: 'mine now' }))
          .statusCode,
      ).toBe(403);
    });

    it('does not count a PINFL that was only typed in at registration (identityVerified unset)', async () => {
      const theirs = await as(unproven, 'POST', '/api/court-notice/list-search', {});
      expect(theirs.statusCode).toBe(200);
      expect(theirs.json().total).toBe(0);
    });

    it('does not stamp when staff, a stranger or an anonymous visitor fetch the file', async () => {
      expect((await app.inject({ method: 'GET', url: `/api/file-entity/get/${fileId}` })).statusCode).toBe(200);
      expect((await as(stranger, 'GET', `/api/file-entity/get/${fileId}`)).statusCode).toBe(404);
      expect((await as(null, 'GET', `/api/file-entity/get/${fileId}`)).statusCode).toBe(404);
      expect(await downloadedAt()).toBeUndefined();
      expect(await stats()).toMatchObject({ downloaded: 0, downloadedToday: 0 });
    });

    it("stamps the recipient's first download once, audited as the system, and the counters count it", async () => {
      const first = await as(recipient, 'GET', `/api/file-entity/get/${fileId}`);
      expect(first.statusCode).toBe(200);
      expect(first.rawPayload.equals(PDF)).toBe(true);
      const stamped = await downloadedAt();
      expect(stamped).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(await stats()).toMatchObject({ downloaded: 1, downloadedToday: 1 });
      const audit = await app.db.query<{ actor: string | null; changed: string[] }>(
        `SELECT actor, changed FROM audit_log WHERE entity = 'court-notice' AND record_id = $1 AND action = 'update'`,
        [notice.id],
      );
      expect(audit.rows).toHaveLength(1);
      expect(audit.rows[0]!.actor).toBeNull();
      expect(audit.rows[0]!.changed).toEqual([expect.stringContaining('downloadedAt')]);

      expect((await as(recipient, 'GET', `/api/file-entity/get/${fileId}`)).statusCode).toBe(200);
      expect(await downloadedAt()).toBe(stamped);
      expect(await stats()).toMatchObject({ downloaded: 1, downloadedToday: 1 });
    });
  });
}
