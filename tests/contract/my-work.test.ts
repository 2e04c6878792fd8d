/**
 * GET /api/my-work (the staff home's "my work"): a record in a state that awaits the user its
 * field names (derived from the machine, src/definitions/work-queue.ts) is listed for that user
 * — with its state and deadline — and for nobody else: not another user of the same role and
 * region, not the assignee outside their role's region (the list-search scope), not an assignee
 * whose roles may not read the entity.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { statesAwaitingUser } from '../../src/definitions/work-queue.ts';
import { rulesFromPermissions, createAbility } from '../../src/shared/ability.ts';
import { pointerSegments, setAt } from '../../src/shared/pointer.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { backends } from '../support/databases.ts';
import { createCaller, createStaffUser, startTestApp } from '../support/app.ts';
import { createSampler } from '../support/sample-data.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const access = registry.access!;
const outer = new Set([...(access.outerRoles ?? []), ...(access.outerRolesYur ?? [])]);
const staffRoles = access.roles.filter((r) => !outer.has(r.code) && r.code !== access.adminRole);
const abilityOf = (permissions: string[]) => createAbility(rulesFromPermissions(permissions));

// The first regional staff role that acts on an awaiting state of some entity with a region.
const cell = staffRoles
  .filter((r) => r.scope === 'REGION')
  .flatMap((role) =>
    [...registry.entities.values()].flatMap((def) => {
      const machine = def.manifest.workflow ? registry.machines.get(def.manifest.workflow) : undefined;
      const ability = abilityOf(role.permissions);
      if (!machine || !def.manifest.scope?.regionField || !ability.can('read', def.manifest.subject)) return [];
      const groups = statesAwaitingUser(machine, (e) => ability.can(e, def.manifest.subject));
      return groups.map((g) => ({ role, def, field: g.field, state: g.states[0]! }));
    }),
  )[0]!;
// A staff role that may not read that entity at all.
const blind = staffRoles.find((r) => !abilityOf(r.permissions).can('read', cell.def.manifest.subject))!;

for (const backend of backends()) {
  describe.skipIf(!backend.available)(
    `my work on ${backend.name} (${cell.def.id} · ${cell.state} · ${cell.field} · ${cell.role.code})`,
    () => {
      let app: FastifyInstance;
      let close: () => Promise<void>;
      let admin: ReturnType<typeof createCaller>;
      beforeAll(async () => {
        ({ app, close } = await startTestApp(backend.name, { clock: () => new Date('2026-05-20T08:00:00Z') }));
        admin = createCaller(app);
      });
      afterAll(async () => close?.());

      const user = async (username: string, roles: string[], regionId: number) => {
        const { id, call } = await createStaffUser(app, username, roles, regionId);
        const myWork = async () => {
          const res = await call('GET', '/api/my-work');
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          return res.body as {
            groups: Array<{ entity: string; total: number; list: Array<Record<string, unknown>> }>;
          };
        };
        return { id, myWork };
      };

      it('lists the record for the user its field names, and for nobody else', async () => {
        const { def, field, state, role } = cell;
        const sample = createSampler(def.schema, registry.references, createServerAjv())(41, { full: true });
        const region = Number(
          pointerSegments(def.manifest.scope!.regionField!).reduce<any>((o, k) => o?.[k], sample) ?? // eslint-disable-line @typescript-eslint/no-explicit-any
            registry.references.get('region')!.items[0]!.id,
        );
        setAt(sample, def.manifest.scope!.regionField!, region);
        const created = await admin('POST', `/api${def.manifest.base}/create`, sample);
        expect(created.status, JSON.stringify(created.body)).toBe(200);
        const otherRegion = registry.references.get('region')!.items.find((i) => Number(i.id) !== region)!.id;

        const mine = await user('assignee', [role.code], region);
        const colleague = await user('colleague', [role.code], region);
        const elsewhere = await user('elsewhere', [role.code], Number(otherRegion));
        const cannotRead = await user('cannot-read', [blind.code], region);
        const table = (app as unknown as { tables: Map<string, { table: string }> }).tables.get(def.id)!.table;
        const assign = (userId: number) =>
          // Test setup only: the state and the assignee are placed directly (the machine's paths are tested elsewhere).
          app.db.query(
            `UPDATE ${table} SET status = $1, data = jsonb_set(data, $2::text[], to_jsonb($3::int)) WHERE id = $4`,
            [state, pointerSegments(field), userId, created.body.id],
          );

        await assign(mine.id);
        const listed = (await mine.myWork()).groups.find((g) => g.entity === def.id);
        expect(listed?.list, `${def.id} · ${state} · ${role.code}`).toContainEqual(
          expect.objectContaining({ id: created.body.id, status: state, overdue: expect.any(Boolean) }),
        );
        expect(listed!.total).toBeGreaterThanOrEqual(1);
        const ids = async (u: {
          myWork(): Promise<{ groups: Array<{ entity: string; list: Array<Record<string, unknown>> }> }>;
        }) => (await u.myWork()).groups.flatMap((g) => (g.entity === def.id ? g.list.map((r) => r.id) : []));
        expect(await ids(colleague), 'another user of the same role and region').not.toContain(created.body.id);

        await assign(elsewhere.id);
        expect(await ids(elsewhere), 'the assignee outside their region').not.toContain(created.body.id);
        expect(await ids(mine), 'no longer assigned').not.toContain(created.body.id);

        await assign(cannotRead.id);
        expect(
          (await cannotRead.myWork()).groups.map((g) => g.entity),
          `${blind.code} may not read ${def.id}`,
        ).not.toContain(def.id);
      });

      it('answers 401 to a visitor', async () => {
        expect(
          (await app.inject({ method: 'GET', url: '/api/my-work', headers: { authorization: '' } })).statusCode,
        ).toBe(401);
      });
    },
  );
}
