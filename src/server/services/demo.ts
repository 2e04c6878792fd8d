import fp from 'fastify-plugin';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { outerUserRoles, systemActor } from '../auth/access.ts';
import { hashPassword } from '../auth/passwords.ts';
import { resolveFieldSchema } from '../../shared/field-schema.ts';

/** One demo user as seeded: the role it has and the password shown once. */
export interface DemoUser {
  username: string;
  role: string;
  scope: string;
  regionId: number | null;
  password: string;
}

/**
 * Seeds one user per default role of schemas/_access/access.json — the username is the role
 * code, regional roles sit in the first region of the region list — each with a random
 * password. Users that exist already (from an earlier start, or `admin`) are left alone, so
 * a password is shown only when its user is created. Returns the users it created.
 */
export async function seedDemoUsers(app: FastifyInstance): Promise<DemoUser[]> {
  const access = app.definitions.access!;
  const userDef = app.definitions.entities.get(access.userEntity)!;
  // The region list the user entity's region field names (its first item is "region 1").
  const regionField = userDef.manifest.scope?.regionField;
  const regionList = regionField
    ? (resolveFieldSchema(userDef.schema, regionField) as { reference?: { list: string } } | undefined)?.reference?.list
    : undefined;
  const firstRegion = regionList ? (app.references.list(regionList)?.[0]?.id ?? null) : null;
  const system = systemActor();
  const created: DemoUser[] = [];
  for (const role of access.roles) {
    if ((await app.users.idByUsername(role.code)) !== undefined) continue;
    const regionId = role.scope === 'REGION' ? firstRegion : null;
    // An outer role's user is made as registration makes one (a business user with the
    // business roles), so it is never staff: not in the staff picker, not an executor.
    const business = (access.outerRolesYur ?? []).includes(role.code) && !access.outerRoles.includes(role.code);
    const outer = business || access.outerRoles.includes(role.code);
    const user = await app.store.create(
      access.userEntity,
      {
        username: role.code,
        firstName: 'Demo',
        lastName: role.name.slice(0, 100),
        isOuter: outer,
        canLogin: true,
        roles: outer ? outerUserRoles(access, business) : [role.code],
        ...(regionId !== null ? { regionId } : {}),
      },
      system,
    );
    const password = randomBytes(12).toString('base64url');
    await app.users.addPassword(String(user.id), await hashPassword(password));
    created.push({ username: role.code, role: role.code, scope: role.scope, regionId, password });
  }
  return created;
}

/** The console lines that show the demo users' passwords (once: they are stored only hashed). */
export function formatDemoUsers(users: readonly DemoUser[]): string {
  if (!users.length)
    return '\n  Demo mode: every demo user exists already (their passwords were printed when they were created).\n';
  const width = Math.max(...users.map((u) => u.username.length));
  const lines = users.map(
    (u) =>
      `    ${u.username.padEnd(width)}  ${u.password}  ${u.scope}${u.regionId !== null ? ` (region ${u.regionId})` : ''}`,
  );
  return `\n  Demo mode: one user per default role was created. The passwords are shown only now:\n\n${lines.join('\n')}\n\n  Sign in with the role code as the username. Do not use demo mode on a real deployment.\n`;
}

/**
 * Demo mode (DEMO=1 or DEMO_USERS=1 with `npm start`, see docs/security.md "Demo mode"): seeds a user per default
 * role and prints their passwords. Off unless asked for — tests and CI never set it.
 */
export default fp(
  async (app) => {
    if (!app.config.demoUsers) return;
    console.log(formatDemoUsers(await seedDemoUsers(app)));
  },
  { name: 'demo', dependencies: ['auth', 'store'] },
);
