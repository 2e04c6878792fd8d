/**
 * The default roles follow schemas/_access/access.json on every start: what the definitions
 * add or withdraw reaches an installation that exists already, what an administrator changed
 * by hand stays, and a restart with unchanged definitions changes nothing. On both backends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { signIn, startTestApp } from '../support/app.ts';
import { createStaff, STOMP_PASSWORD } from '../support/stomp.ts';
import { systemActor } from '../../src/server/auth/access.ts';
import { syncDefaultRoles, type RoleSyncTarget } from '../../src/server/auth/role-sync.ts';

type Role = { id: number; version: number; data: { code: string; scope: string; permissions: string[]; name: string } };

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`default roles on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let target: RoleSyncTarget;
    const roleOf = async (code: string): Promise<Role | undefined> =>
      (
        await app.db.query<Role>(`SELECT id, version, data FROM ${target.table} WHERE ${target.codeColumn} = $1`, [
          code,
        ])
      ).rows[0];
    const defaults = () => structuredClone(app.definitions.access!.roles);
    /** An administrator's edit on the Roles screen, through the API. */
    const editByHand = async (code: string, change: (data: Role['data']) => Role['data']) => {
      const role = (await roleOf(code))!;
      const base = app.definitions.entities.get(app.definitions.access!.roleEntity)!.manifest.base;
      const res = await app.inject({
        method: 'PUT',
        url: `/api${base}/update/${role.id}`,
        payload: { ...change(structuredClone(role.data)), version: Number(role.version) },
      });
      expect(res.statusCode, res.body).toBe(200);
    };

    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
      const access = app.definitions.access!;
      const table = app.tables.get(access.roleEntity)!;
      target = {
        db: app.db,
        store: app.store,
        roleEntity: access.roleEntity,
        table: table.table,
        codeColumn: table.columns.get('/code')!.column,
        actor: systemActor(),
      };
    });
    afterAll(async () => close());

    it('creates every default role on the first start and records what it applied', async () => {
      for (const role of app.definitions.access!.roles) {
        const stored = await roleOf(role.code);
        expect(stored?.data.permissions).toEqual(role.permissions);
        const seeded = await app.db.query<{ seeded: { permissions: string[] } }>(
          'SELECT seeded FROM role_seed WHERE code = $1',
          [role.code],
        );
        expect(seeded.rows[0]?.seeded.permissions).toEqual(role.permissions);
      }
      expect(await syncDefaultRoles(target, defaults())).toEqual({ created: [], changed: [] });
    });

    it('applies what the definitions add and withdraw, and keeps what an administrator changed', async () => {
      const code = 'executor';
      const before = (await roleOf(code))!.data.permissions;
      const [removedByHand, withdrawn] = before;
      await editByHand(code, (d) => ({
        ...d,
        permissions: [...d.permissions.filter((p) => p !== removedByHand), 'read Gizmo'],
      }));

      const roles = defaults();
      const role = roles.find((r) => r.code === code)!;
      role.permissions = [...role.permissions.filter((p) => p !== withdrawn), 'export Appeal'];
      role.scope = 'ALL';
      expect(await syncDefaultRoles(target, roles)).toEqual({ created: [], changed: [code] });

      const after = (await roleOf(code))!.data;
      expect(after.permissions).toContain('export Appeal');
      expect(after.permissions).not.toContain(withdrawn);
      expect(after.permissions).not.toContain(removedByHand);
      expect(after.permissions).toContain('read Gizmo');
      expect(after.scope).toBe('ALL');
      // The same definitions again: nothing to do.
      expect(await syncDefaultRoles(target, roles)).toEqual({ created: [], changed: [] });
    });

    it('leaves a field an administrator changed when the definitions change it too', async () => {
      const code = 'jurist';
      await editByHand(code, (d) => ({ ...d, name: 'Legal counsel (our name)' }));
      const roles = defaults();
      roles.find((r) => r.code === code)!.name = 'Jurist (renamed upstream)';
      await syncDefaultRoles(target, roles);
      expect((await roleOf(code))!.data.name).toBe('Legal counsel (our name)');
    });

    it('applies hidden fields the definitions add or change, also to a role saved on the Roles screen with empty lists', async () => {
      const code = 'commission-member';
      const subject = 'Appeal';
      // The Roles screen's form saves the lists nobody filled in as empty lists.
      await editByHand(code, (d) => ({ ...d, readOnlyFields: [], hiddenFields: [] }) as Role['data']);
      const roles = defaults();
      roles.find((r) => r.code === code)!.hiddenFields = [{ subject, fields: ['/customer'] }];
      expect(await syncDefaultRoles(target, roles)).toEqual({ created: [], changed: [code] });
      expect((await roleOf(code))!.data).toMatchObject({ hiddenFields: [{ subject, fields: ['/customer'] }] });
      // Changed upstream again while nobody touched it: followed.
      roles.find((r) => r.code === code)!.hiddenFields = [{ subject, fields: ['/customer', '/stir'] }];
      expect(await syncDefaultRoles(target, roles)).toEqual({ created: [], changed: [code] });
      expect((await roleOf(code))!.data).toMatchObject({ hiddenFields: [{ subject, fields: ['/customer', '/stir'] }] });
      // An administrator's own choice stays.
      await editByHand(code, (d) => ({ ...d, hiddenFields: [{ subject, fields: ['/stir'] }] }) as Role['data']);
      roles.find((r) => r.code === code)!.hiddenFields = [{ subject, fields: ['/customer'] }];
      await syncDefaultRoles(target, roles);
      expect((await roleOf(code))!.data).toMatchObject({ hiddenFields: [{ subject, fields: ['/stir'] }] });
    });

    it('creates a role the definitions gained; its users sign in with its permissions', async () => {
      const roles = defaults();
      roles.push({ code: 'auditor-test', name: 'Auditor', scope: 'ALL', permissions: ['read Appeal'] });
      expect(await syncDefaultRoles(target, roles)).toEqual({ created: ['auditor-test'], changed: [] });
      const user = await createStaff(app, 'auditor1', ['auditor-test']);
      const reply = await signIn(app, 'auditor1', STOMP_PASSWORD);
      expect(reply.id).toBe(Number(user.id));
      expect(reply.permissions).toEqual(['read Appeal']);
    });

    it('gives a role stored before role_seed existed only the permissions it lacks', async () => {
      const code = 'curator';
      const had = (await roleOf(code))!.data.permissions;
      await editByHand(code, (d) => ({ ...d, permissions: d.permissions.slice(1) }));
      await app.db.query('DELETE FROM role_seed WHERE code = $1', [code]);
      const roles = defaults();
      roles.find((r) => r.code === code)!.permissions.push('export Appeal');
      await syncDefaultRoles(target, roles);
      expect(new Set((await roleOf(code))!.data.permissions)).toEqual(new Set([...had, 'export Appeal']));
    });
  });
}
