/**
 * The audit trail of records, on both backends: a no-op update (the record sent back, its
 * object keys in another order) is audited as changing nothing; create, update, transition and
 * delete keep the old → new value of every changed field (a nested field by its own pointer,
 * the status of a transition as `/status`); a value longer than the cap is kept shortened and
 * marked; rows written before values were kept still read (field names only), and the column
 * is added to such a database by the migration, as often as it runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { createCaller, startTestApp } from '../support/app.ts';
import { appealInput } from '../support/public-samples.ts';
import { dataOf } from '../support/records.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { AUDIT_VALUE_CHARS } from '../../src/server/store/audit-trail.ts';

interface Change {
  pointer: string;
  old?: unknown;
  new?: unknown;
  truncated?: string[];
  redacted?: boolean;
}
interface Entry {
  id: number;
  action: string;
  actor: string | null;
  changed: string[];
  diff?: Change[];
}

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`the audit trail on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let call: ReturnType<typeof createCaller>;
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
      call = createCaller(app);
    });
    afterAll(async () => close?.());

    const trail = async (base: string, id: number): Promise<Entry[]> => {
      const res = await call('GET', `${base}/audit/${id}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.list as Entry[];
    };
    /** A copy with the keys of every object in reverse order: the same value as JSON. */
    const reordered = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(reordered);
      if (value === null || typeof value !== 'object') return value;
      return Object.fromEntries(
        Object.entries(value)
          .reverse()
          .map(([k, v]) => [k, reordered(v)]),
      );
    };

    it('audits a no-op update as changing nothing, and keeps old → new values of what did change', async () => {
      const input = appealInput(11);
      const created = await call('POST', '/api/appeal/create', input);
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const id = created.body.id as number;
      const [made] = await trail('/api/appeal', id);
      expect(made!.action).toBe('create');
      expect(made!.diff).toEqual(
        expect.arrayContaining([
          { pointer: '/customer/pnfl', new: (input.customer as Record<string, unknown>).pnfl },
          { pointer: '/shortDescription', new: input.shortDescription },
        ]),
      );
      expect(made!.diff!.every((c) => !('old' in c))).toBe(true);

      // The stored record sent back with its keys in another order: saved (the version moves on), nothing changed.
      const same = await call('PUT', `/api/appeal/update/${id}`, {
        ...(reordered(dataOf(created.body)) as Record<string, unknown>),
        version: created.body.version,
      });
      expect(same.status, JSON.stringify(same.body)).toBe(200);
      expect(same.body.version).toBe(created.body.version + 1);
      const [noop] = await trail('/api/appeal', id);
      expect(noop).toMatchObject({ action: 'update', changed: [], diff: [] });

      const customer = { ...(input.customer as Record<string, unknown>), name: 'Botir' };
      const { email, ...withoutEmail } = dataOf(same.body);
      const changed = await call('PUT', `/api/appeal/update/${id}`, {
        ...withoutEmail,
        customer,
        shortDescription: 'Chek berilmadi',
        version: same.body.version,
      });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      const [edit] = await trail('/api/appeal', id);
      expect(edit).toMatchObject({ action: 'update', changed: ['customer', 'email', 'shortDescription'] });
      expect(edit!.diff).toEqual([
        { pointer: '/customer/name', old: (input.customer as Record<string, unknown>).name, new: 'Botir' },
        { pointer: '/email', old: email },
        { pointer: '/shortDescription', old: input.shortDescription, new: 'Chek berilmadi' },
      ]);

      const taken = await call('POST', `/api/appeal/transition/${id}`, {
        event: 'TAKE_FOR_REVIEW',
        version: changed.body.version,
      });
      expect(taken.status, JSON.stringify(taken.body)).toBe(200);
      const [step] = await trail('/api/appeal', id);
      expect(step!.action).toBe('transition');
      expect(step!.changed).toEqual(expect.arrayContaining(['status', 'reviewDeadline']));
      expect(step!.diff).toEqual(
        expect.arrayContaining([
          { pointer: '/reviewDeadline', new: taken.body.reviewDeadline },
          { pointer: '/status', old: created.body.status, new: 'UNDER_REVIEW' },
        ]),
      );
    });

    it('keeps a long value shortened and marked, and a deleted record’s last values', async () => {
      const founders = Array.from({ length: 120 }, (_, i) => ({
        founderType: 'INDIVIDUAL',
        name: `Muassis ${i} — to‘liq ismi sharifi bilan`,
        pinfl: `3120589${String(1000000 + i).slice(-7)}`,
        sharePercent: 0.5,
      }));
      const created = await call('POST', '/api/contractor/create', {
        name: '“Katta Ulush” MChJ',
        stir: '301112223',
        regionId: 1,
        founders,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expect(JSON.stringify(founders).length).toBeGreaterThan(AUDIT_VALUE_CHARS);
      const [made] = await trail('/api/contractor', created.body.id);
      const kept = made!.diff!.find((c) => c.pointer === '/founders')!;
      expect(kept.truncated).toEqual(['new']);
      expect(kept.new).toBe(JSON.stringify(founders).slice(0, AUDIT_VALUE_CHARS));
      expect(made!.diff!.find((c) => c.pointer === '/name')).toEqual({ pointer: '/name', new: '“Katta Ulush” MChJ' });

      // The stored record's own key order (jsonb's) is what a delete keeps the start of.
      const {
        rows: [row],
      } = await app.db.query<{ founders: unknown }>(
        `SELECT data -> 'founders' AS founders FROM ${app.tables.get('contractor')!.table} WHERE id = $1`,
        [created.body.id],
      );
      const stored = JSON.stringify(row!.founders);
      expect((await call('DELETE', `/api/contractor/delete/${created.body.id}`)).status).toBe(200);
      const { rows } = await app.db.query<{ changed: string[]; diff: Change[]; size: number }>(
        `SELECT changed, diff, octet_length(diff::text) AS size FROM audit_log WHERE entity = 'contractor' AND record_id = $1 AND action = 'delete'`,
        [created.body.id],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.changed).toEqual(['founders', 'name', 'regionId', 'stir']);
      expect(rows[0]!.diff).toEqual(
        expect.arrayContaining([
          { pointer: '/stir', old: '301112223' },
          { pointer: '/founders', old: stored.slice(0, AUDIT_VALUE_CHARS), truncated: ['old'] },
        ]),
      );
      // Bounded: the long value is cut, not stored whole.
      expect(rows[0]!.size).toBeLessThan(4 * AUDIT_VALUE_CHARS);
    });

    it('reads rows written before values were kept; the migration adds the column to such a database, again and again', async () => {
      const created = await call('POST', '/api/appeal/create', appealInput(12));
      expect(created.status).toBe(200);
      await app.db.query('ALTER TABLE audit_log DROP COLUMN diff');
      await app.db.query(
        `INSERT INTO audit_log (actor, entity, record_id, action, changed) VALUES ('1', 'appeal', $1, 'update', '{phone}')`,
        [created.body.id],
      );
      await migrate(app.db, app.definitions, app.migrations.list());
      await migrate(app.db, app.definitions, app.migrations.list());
      const [legacy, made] = await trail('/api/appeal', created.body.id);
      expect(legacy).toMatchObject({ action: 'update', changed: ['phone'] });
      expect(legacy!.diff).toBeUndefined();
      expect(made).toMatchObject({ action: 'create' });
      expect(made!.diff).toBeUndefined();
      // New rows keep their values again.
      const next = await call('PUT', `/api/appeal/update/${created.body.id}`, {
        ...dataOf(created.body),
        phone: '+99890-555-44-33',
        version: created.body.version,
      });
      expect(next.status, JSON.stringify(next.body)).toBe(200);
      expect((await trail('/api/appeal', created.body.id))[0]!.diff).toEqual([
        { pointer: '/phone', old: created.body.phone, new: '+99890-555-44-33' },
      ]);
    });
  });
}
