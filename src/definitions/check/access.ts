/**
 * `npm run check` rule for access (`schemas/_access/access.json`, the only file of its
 * folder): valid against its meta-schema; the user, role and employee entities exist; unit
 * permissions and the employee's user field name fields of the right type; every permission
 * of a role or of the guest names an entity's subject (or "all", or a subsystem's) and an
 * action that subject has (CRUD, manage, an event of its machine, a subsystem's own); role
 * codes are unique and the admin and outer roles exist; a declared screen subject is no
 * entity's or subsystem's; read-only and hidden fields name fields of the subject's entity that
 * are not server-owned, and hidden ones a subject the role may read.
 */
import { valueLabelsOf } from '../../shared/record-title.ts';
import type { AccessDefinition } from '../../generated/meta.ts';
import { createAbility, rulesFromPermissions } from '../../shared/ability.ts';
import { isSystemPointer, resolveFieldSchema, scalarType } from '../../shared/field-schema.ts';
import { ACCESS_FILE, META_FOR, type CheckContext, type CheckRule } from './context.ts';
import { unknownNameMessage } from './suggest.ts';
import { PLAYGROUND_ACTION, PLAYGROUND_SUBJECT } from './playground.ts';

/**
 * Subjects of subsystems that are not entities: the staff messenger (src/server/messenger), the admin
 * playground, the data-health list (src/server/routes/data-health.ts), the integration platform
 * (src/server/integrations: `call` opens the agencies' query pages, `read` their health, `audit`
 * the call audit).
 */
export const SUBSYSTEM_SUBJECTS = ['Message', PLAYGROUND_SUBJECT, 'DataHealth', 'Integration'] as const;

/** Actions every subject has: CASL's `manage` (any action) and the CRUD verbs. */
const CRUD_ACTIONS = ['manage', 'create', 'read', 'update', 'delete'];
/** Subsystems' own actions: the messenger's announcement (ANNOUNCE_ACTION of src/server/messenger/document-marking.ts), the playground's use. */
const SUBSYSTEM_ACTIONS: Record<string, string[]> = {
  Message: ['announce'],
  [PLAYGROUND_SUBJECT]: [PLAYGROUND_ACTION],
  Integration: ['call', 'audit'],
};
/** The marker action delegated user administration grants on the user entity's subject (src/server/auth/delegation.ts). */
const DELEGATE_ACTION = 'delegate';

/**
 * What is wrong with a permission string `"<action> <Subject>"` (a role's, the guest's, a
 * screen's), in plain words with the allowed names, or undefined when it names a known
 * subject and an action that subject has: CRUD, `manage`, an event of the machine of an
 * entity with that subject, or a subsystem's own action.
 * @example permissionProblem(ctx, 'EXPLODE Appeal') // 'action "EXPLODE" is not an action on "Appeal" …'
 */
export function permissionProblem(ctx: CheckContext, permission: string): string | undefined {
  const space = permission.indexOf(' ');
  if (space < 1) return `permission "${permission}" must be "<action> <Subject>"`;
  const action = permission.slice(0, space);
  const subject = permission.slice(space + 1);
  const entities = [...ctx.entities.values()];
  const subjects = [
    'all',
    ...SUBSYSTEM_SUBJECTS,
    ...(ctx.accessJson?.screenSubjects ?? []),
    ...entities.map((e) => e.manifest.subject),
  ];
  if (!subjects.includes(subject))
    return unknownNameMessage('subject', subject, `an entity's subject, "all" or a subsystem's`, subjects);
  const all = subject === 'all';
  const userSubject = ctx.accessJson?.userEntity ? ctx.entities.get(ctx.accessJson.userEntity)?.manifest.subject : '';
  const actions = new Set([
    ...CRUD_ACTIONS,
    ...(all ? Object.values(SUBSYSTEM_ACTIONS).flat() : (SUBSYSTEM_ACTIONS[subject] ?? [])),
    ...(all || subject === userSubject ? [DELEGATE_ACTION] : []),
    ...entities
      .filter((e) => all || e.manifest.subject === subject)
      .flatMap((e) => {
        const machine = e.manifest.workflow ? ctx.machines.get(e.manifest.workflow) : undefined;
        return Object.values(machine?.states ?? {}).flatMap((state) => Object.keys(state.on ?? {}));
      }),
  ]);
  if (actions.has(action)) return undefined;
  return unknownNameMessage(
    'action',
    action,
    `an action on "${subject}" (CRUD, manage, or an event of its machine)`,
    actions,
  );
}

/** Access: entities, unit permissions, permissions' subjects, roles and field rules. */
export const accessRule: CheckRule = {
  name: 'access',
  run(ctx) {
    for (const file of ctx.filesIn(/^schemas\/_access\/[^/]+$/)) {
      if (file !== ACCESS_FILE) {
        ctx.report(file, '', 'schemas/_access holds only access.json');
        continue;
      }
      if (!ctx.metaValid(file, META_FOR.access)) continue;
      checkAccess(ctx, file, ctx.json<AccessDefinition>(file));
    }
  },
};

function checkAccess(ctx: CheckContext, file: string, access: AccessDefinition): void {
  const { report, entities } = ctx;
  for (const key of ['userEntity', 'roleEntity', 'employeeEntity'] as const) {
    const id = access[key];
    if (id !== undefined && !entities.has(id)) report(file, `/${key}`, `entity "${id}" does not exist`);
  }
  const unitPermissions = access.unitPermissions;
  if (unitPermissions) {
    const at = '/unitPermissions';
    const fieldOf = (entity: string | undefined, pointer: string, key: string, type: string): void => {
      const target = entity ? entities.get(entity) : undefined;
      if (!target)
        return report(
          file,
          key === 'entity' ? `${at}/entity` : `${at}/${key}`,
          `entity "${entity ?? ''}" does not exist`,
        );
      const t = target.schema ? resolveFieldSchema(target.schema, pointer) : undefined;
      if (!t) return report(file, `${at}/${key}`, `field "${pointer}" does not exist in "${entity}"`);
      if (scalarType(t) !== type)
        report(file, `${at}/${key}`, `field "${pointer}" of "${entity}" must be of type ${type}`);
    };
    fieldOf(unitPermissions.entity, unitPermissions.typeField, 'typeField', 'integer');
    fieldOf(unitPermissions.entity, unitPermissions.unitField, 'unitField', 'integer');
    fieldOf(unitPermissions.entity, unitPermissions.permissionsField, 'permissionsField', 'array');
    fieldOf(unitPermissions.unitEntity, unitPermissions.unitTypeField, 'unitTypeField', 'integer');
    fieldOf(access.employeeEntity, unitPermissions.employeeUnitField, 'employeeUnitField', 'integer');
  }
  if (access.employeeUserField) {
    const employee = access.employeeEntity ? entities.get(access.employeeEntity)?.schema : undefined;
    if (!access.employeeEntity) report(file, '/employeeUserField', 'needs employeeEntity');
    else if (employee && scalarType(resolveFieldSchema(employee, access.employeeUserField) ?? {}) !== 'integer')
      report(
        file,
        '/employeeUserField',
        `field "${access.employeeUserField}" is no integer field of "${access.employeeEntity}"`,
      );
  }
  const checkPermissions = (list: string[], at: string) =>
    list.forEach((p, i) => {
      const problem = permissionProblem(ctx, p);
      if (problem) report(file, `${at}/${i}`, problem);
    });
  checkPermissions(access.guest.permissions, '/guest/permissions');
  const taken = new Set<string>([...SUBSYSTEM_SUBJECTS, ...[...entities.values()].map((e) => e.manifest.subject)]);
  access.screenSubjects?.forEach((subject, i) => {
    if (taken.has(subject))
      report(file, `/screenSubjects/${i}`, `"${subject}" is already an entity's or a subsystem's subject`);
  });
  const codes = new Set<string>();
  const names = roleNamesOf(ctx, file, access);
  access.roles.forEach((role, i) => {
    if (codes.has(role.code)) report(file, `/roles/${i}/code`, `duplicate role "${role.code}"`);
    codes.add(role.code);
    // Every role is named in each language: the locales rule reports a missing text here.
    if (names) ctx.useKey(file, `/roles/${i}/code`, `${names}.${role.code}`);
    checkPermissions(role.permissions, `/roles/${i}/permissions`);
    const ability = createAbility(rulesFromPermissions(role.permissions));
    for (const list of ['readOnlyFields', 'hiddenFields'] as const) {
      const seen = new Set<string>();
      (role[list] ?? []).forEach((rule, j) => {
        const at = `/roles/${i}/${list}/${j}`;
        if (seen.has(rule.subject))
          report(file, `${at}/subject`, `subject "${rule.subject}" is listed twice in this role`);
        seen.add(rule.subject);
        const target = [...entities.values()].find((e) => e.manifest.subject === rule.subject);
        if (!target) return report(file, `${at}/subject`, `subject "${rule.subject}" is no entity's subject`);
        // Hidden fields are "cannot read" rules: without the read permission they restrict nothing.
        if (list === 'hiddenFields' && !ability.can('read', rule.subject))
          report(file, `${at}/subject`, `the role may not read "${rule.subject}": hiding its fields restricts nothing`);
        rule.fields.forEach((pointer, k) => {
          if (isSystemPointer(pointer))
            report(
              file,
              `${at}/fields/${k}`,
              list === 'readOnlyFields'
                ? `"${pointer}" is a server-owned field: no client changes it anyway`
                : `"${pointer}" is a server-owned field: every reader needs it`,
            );
          else if (target.schema && !resolveFieldSchema(target.schema, pointer))
            report(file, `${at}/fields/${k}`, `entity "${target.manifest.id}" has no field "${pointer}"`);
        });
      });
    }
  });
  if (!codes.has(access.adminRole)) report(file, '/adminRole', `role "${access.adminRole}" is not among the roles`);
  access.outerRoles.forEach((code, i) => {
    if (!codes.has(code)) report(file, `/outerRoles/${i}`, `role "${code}" is not among the roles`);
  });
  access.outerRolesYur?.forEach((code, i) => {
    if (!codes.has(code)) report(file, `/outerRolesYur/${i}`, `role "${code}" is not among the roles`);
  });
}

/**
 * The key prefix of the roles' names (`valueLabels` of the role entity's `/code`), or
 * undefined after reporting that roles have no names in the four languages.
 */
function roleNamesOf(ctx: CheckContext, file: string, access: AccessDefinition): string | undefined {
  const roles = access.roleEntity ? ctx.entities.get(access.roleEntity) : undefined;
  if (!roles?.schema) return undefined; // a missing entity or schema is reported by its own rule
  const prefix = valueLabelsOf(resolveFieldSchema(roles.schema, '/code'));
  if (!prefix)
    ctx.report(
      roles.schemaFile ?? file,
      '/properties/code',
      'roles need names in each language: give the code field "valueLabels" (the key prefix of the names, such as "entity.<role entity>.role")',
    );
  return prefix;
}
