import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { COUNTER_NAMES, COUNTERS_FILE } from '../../src/server/messenger/counters.ts';
import { backends } from '../support/databases.ts';
import { signIn, startTestApp, TEST_ADMIN_PASSWORD } from '../support/app.ts';
import { createSampler } from '../support/sample-data.ts';
import { connectLive, type LiveClient } from '../support/stomp.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const mapping = JSON.parse(readFileSync(path.join(REPO_ROOT, COUNTERS_FILE), 'utf8')) as {
  counters: Record<string, Array<{ entity: string; statuses: string[]; assignedTo?: string }>>;
};
// A counter that counts records in the status they are created in, without an assignee.
const [counter, rule] = Object.entries(mapping.counters)
  .flatMap(([name, rules]) => rules.map((r) => [name, r] as const))
  .find(
    ([, r]) =>
      !r.assignedTo &&
      r.statuses.includes(
        registry.machines.get(registry.entities.get(r.entity)!.manifest.workflow ?? '')?.initial ?? 'none',
      ),
  )!;
const def = registry.entities.get(rule.entity)!;

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`notification counters on ${backend.name} (${counter} via ${def.id})`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let client: LiveClient | undefined;
    beforeAll(async () => {
      // The periodic recomputation off (an hour): a push here follows the write's signal.
      ({ app, close } = await startTestApp(backend.name, { livePollMs: 3_600_000 }));
      await app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => {
      await client?.close();
      await close?.();
    });

    it('GET /api/letter/get-all-count gives the seven counters and their total; a new record is pushed on notificationMsg', async () => {
      const first = (await app.inject({ method: 'GET', url: '/api/letter/get-all-count' })).json() as Record<
        string,
        number
      >;
      expect(Object.keys(first).sort()).toEqual([...COUNTER_NAMES, 'total'].sort());
      expect(first.total).toBe(COUNTER_NAMES.reduce((s, n) => s + first[n]!, 0));

      const admin = await signIn(app, 'admin', TEST_ADMIN_PASSWORD);
      client = await connectLive(
        `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/gs-guide-websocket`,
        admin.token,
        String(admin.id),
      );
      await client.subscribe('notificationMsg');
      expect(await client.next('notificationMsg')).toEqual(first);

      const sample = createSampler(def.schema, registry.references, createServerAjv());
      const created = await app.inject({
        method: 'POST',
        url: `/api${def.manifest.base}/create`,
        payload: sample(11, { full: true }),
        headers: { 'accept-language': 'en' },
      });
      expect(created.statusCode, created.body).toBe(200);
      const pushed = await client.next('notificationMsg', (b) => b[counter] === first[counter]! + 1);
      expect(pushed.total).toBe(first.total! + 1);
      expect((await app.inject({ method: 'GET', url: '/api/letter/get-all-count' })).json()).toEqual(pushed);
      // Anonymous callers have no counters.
      expect(
        (await app.inject({ method: 'GET', url: '/api/letter/get-all-count', headers: { authorization: '' } }))
          .statusCode,
      ).toBe(401);
    });

    it('counts a record under an assignee rule only for the user its field names', async () => {
      // Each rule with `assignedTo`: a record in the rule's first status, assigned to the admin,
      // counts once for the admin; the same record assigned to somebody else does not.
      const admin = await signIn(app, 'admin', TEST_ADMIN_PASSWORD);
      const auth = { authorization: `Bearer ${admin.token}` };
      const count = async (name: string) =>
        (
          (await app.inject({ method: 'GET', url: '/api/letter/get-all-count', headers: auth })).json() as Record<
            string,
            number
          >
        )[name]!;
      const assigned = Object.entries(mapping.counters).flatMap(([name, rules]) =>
        rules.filter((r) => r.assignedTo).map((r) => [name, r] as const),
      );
      expect(assigned.length).toBeGreaterThan(0);
      for (const [name, r] of assigned) {
        const target = registry.entities.get(r.entity)!;
        const table = (app as unknown as { tables: Map<string, { table: string }> }).tables.get(r.entity)!.table;
        const created = await app.inject({
          method: 'POST',
          url: `/api${target.manifest.base}/create`,
          payload: createSampler(target.schema, registry.references, createServerAjv())(23, { full: false }),
          headers: auth,
        });
        expect(created.statusCode, created.body).toBe(200);
        const keys = r.assignedTo!.split('/').slice(1);
        const before = await count(name);
        // Test setup only: the status and assignee are placed directly (the machines' paths are covered elsewhere).
        await app.db.query(
          `UPDATE ${table} SET status = $1, data = jsonb_set(data, $2::text[], to_jsonb($3::int)) WHERE id = $4`,
          [r.statuses[0], keys, Number(admin.id), created.json().id],
        );
        expect(await count(name), `${name}: ${r.entity} in ${r.statuses[0]} assigned to me`).toBe(before + 1);
        await app.db.query(`UPDATE ${table} SET data = jsonb_set(data, $1::text[], to_jsonb($2::int)) WHERE id = $3`, [
          keys,
          Number(admin.id) + 1000,
          created.json().id,
        ]);
        expect(await count(name), `${name}: assigned to another user`).toBe(before);
      }
    });
  });
}
