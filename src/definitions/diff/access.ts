/**
 * Changes of who may do what: the roles and the guest in schemas/_access/access.json, and the
 * screens (each with its permission and menu entry). A permission removed is breaking: a user
 * loses a right they had.
 */
import { asNode, strings, type DefinitionChange } from './change.ts';

const ACCESS_FILE = 'schemas/_access/access.json';

/** The heading a permission `action Subject` is listed under (its entity, else `access`). */
export type GroupOfSubject = (subject: string) => string;

const subjectOf = (permission: string): string => permission.slice(permission.indexOf(' ') + 1).trim();

interface RoleView {
  index: number;
  permissions: string[];
  fieldRules: Map<string, { subject: string; text: string }>;
}

/** The field rules a role carries, by kind: `readOnlyFields` → "may no longer change", … */
const FIELD_RULES = [
  { key: 'readOnlyFields', lost: 'may no longer change', gained: 'may change again' },
  { key: 'hiddenFields', lost: 'may no longer see', gained: 'may see again' },
] as const;

function rolesOf(access: Record<string, unknown> | undefined): Map<string, RoleView> {
  const out = new Map<string, RoleView>();
  const guest = asNode(access?.guest);
  if (guest) out.set('(guest)', { index: -1, permissions: strings(guest.permissions), fieldRules: new Map() });
  (Array.isArray(access?.roles) ? access.roles : []).forEach((value, index) => {
    const role = asNode(value);
    if (!role || typeof role.code !== 'string') return;
    const fieldRules = new Map<string, { subject: string; text: string }>();
    for (const rule of FIELD_RULES)
      for (const entry of Array.isArray(role[rule.key]) ? (role[rule.key] as unknown[]) : []) {
        const e = asNode(entry);
        const subject = typeof e?.subject === 'string' ? e.subject : '?';
        for (const field of strings(e?.fields))
          fieldRules.set(`${rule.key} ${subject} ${field}`, { subject, text: field });
      }
    out.set(role.code, { index, permissions: strings(role.permissions), fieldRules });
  });
  return out;
}

/**
 * The changes between two versions of schemas/_access/access.json: roles added or removed,
 * and per role (and the guest) each permission and field rule added or removed.
 * @example accessChanges(oldAccess, newAccess, (s) => (s === 'Tender' ? 'tender' : 'access'))
 */
export function accessChanges(base: unknown, head: unknown, groupOf: GroupOfSubject): DefinitionChange[] {
  const was = rolesOf(asNode(base));
  const now = rolesOf(asNode(head));
  const out: DefinitionChange[] = [];
  const rolePointer = (r: RoleView) => (r.index < 0 ? '/guest' : `/roles/${r.index}`);
  const who = (code: string) => (code === '(guest)' ? 'the guest' : `role ${code}`);
  for (const [code, role] of was)
    if (!now.has(code))
      out.push({
        group: 'access',
        file: ACCESS_FILE,
        pointer: rolePointer(role),
        kind: 'role-removed',
        breaking: true,
        text: `${who(code)} removed (its users lose every right it gave)`,
      });
  for (const [code, role] of now) {
    const before = was.get(code);
    if (!before) {
      out.push({
        group: 'access',
        file: ACCESS_FILE,
        pointer: rolePointer(role),
        kind: 'role-added',
        breaking: false,
        text: `${who(code)} added`,
      });
      continue;
    }
    for (const p of before.permissions)
      if (!role.permissions.includes(p))
        out.push({
          group: groupOf(subjectOf(p)),
          file: ACCESS_FILE,
          pointer: `${rolePointer(role)}/permissions`,
          kind: 'permission-removed',
          breaking: true,
          text: `${who(code)} loses "${p}"`,
        });
    for (const p of role.permissions)
      if (!before.permissions.includes(p))
        out.push({
          group: groupOf(subjectOf(p)),
          file: ACCESS_FILE,
          pointer: `${rolePointer(role)}/permissions`,
          kind: 'permission-added',
          breaking: false,
          text: `${who(code)} gains "${p}"`,
        });
    for (const rule of FIELD_RULES) {
      const changed = (from: RoleView, to: RoleView, lost: boolean) => {
        for (const [key, { subject, text }] of from.fieldRules)
          if (key.startsWith(`${rule.key} `) && !to.fieldRules.has(key))
            out.push({
              group: groupOf(subject),
              file: ACCESS_FILE,
              pointer: `${rolePointer(role)}/${rule.key}`,
              kind: lost ? 'field-rule-added' : 'field-rule-removed',
              breaking: lost,
              text: `${who(code)} ${lost ? rule.lost : rule.gained} ${text} of ${subject}`,
            });
      };
      changed(role, before, true);
      changed(before, role, false);
    }
  }
  return out;
}

const permissionText = (p: unknown): string =>
  p === 'public'
    ? 'anyone'
    : p === 'signedIn'
      ? 'any signed-in user'
      : p === undefined
        ? 'no permission'
        : `"${String(p)}"`;
const menuText = (m: Record<string, unknown>): string =>
  [
    m.section,
    m.order === undefined ? undefined : `order ${String(m.order)}`,
    m.icon === undefined ? undefined : `icon ${String(m.icon)}`,
  ]
    .filter((x) => x !== undefined)
    .map(String)
    .join(', ');

/**
 * The changes between two versions of one screen file (either may be absent): the screen
 * added or removed, its permission, route and menu entry changed.
 * @example screenChanges('contractor', 'screens/contractor-list.json', oldJson, newJson)
 */
export function screenChanges(group: string, file: string, base: unknown, head: unknown): DefinitionChange[] {
  const b = asNode(base);
  const h = asNode(head);
  const id = file.replace(/^screens\//, '').replace(/\.json$/, '');
  const out: DefinitionChange[] = [];
  const add = (c: Omit<DefinitionChange, 'group' | 'file'>) => out.push({ group, file, ...c });
  if (!b || !h) {
    if (b || h)
      add({
        kind: b ? 'screen-removed' : 'screen-added',
        pointer: '',
        breaking: false,
        text: `screen ${id} ${b ? 'removed' : 'added'} (${String((b ?? h)!.route)})`,
      });
    return out;
  }
  if (b.permission !== h.permission) {
    const opensUp = h.permission === 'public' || (h.permission === 'signedIn' && b.permission !== 'public');
    add({
      kind: 'screen-permission-changed',
      pointer: '/permission',
      breaking: !opensUp,
      text: `screen ${id} now needs ${permissionText(h.permission)} (was ${permissionText(b.permission)})`,
    });
  }
  if (b.route !== h.route)
    add({
      kind: 'screen-route-changed',
      pointer: '/route',
      breaking: false,
      text: `screen ${id} moved to ${String(h.route)} (was ${String(b.route)}; old links stop working)`,
    });
  const bMenu = asNode(b.menu);
  const hMenu = asNode(h.menu);
  if (bMenu && !hMenu)
    add({ kind: 'menu-removed', pointer: '/menu', breaking: false, text: `screen ${id} left the menu` });
  else if (!bMenu && hMenu)
    add({
      kind: 'menu-added',
      pointer: '/menu',
      breaking: false,
      text: `screen ${id} added to the menu (${menuText(hMenu)})`,
    });
  else if (bMenu && hMenu && menuText(bMenu) !== menuText(hMenu))
    add({
      kind: 'menu-changed',
      pointer: '/menu',
      breaking: false,
      text: `menu entry of screen ${id} is now ${menuText(hMenu)} (was ${menuText(bMenu)})`,
    });
  return out;
}
