/**
 * The model behind the permission matrix (PermissionMatrixWidget): permission strings
 * "<action> <Subject>" (spec §6) laid out as rows of subjects and columns of actions. The
 * stored value stays the list of strings; this only reads and toggles it.
 */

/** The standard columns, in order: full access (CASL's `manage`), then the CRUD verbs. */
export const BASIC_ACTIONS = ['manage', 'read', 'create', 'update', 'delete'] as const;
export type BasicAction = (typeof BASIC_ACTIONS)[number];

/** The subject CASL reads as "every subject". */
export const ALL_SUBJECTS = 'all';

/** One further action of a row: a machine's event or a subsystem's own action, with its label. */
export interface RowAction {
  action: string;
  label: string;
}

/** One row: a subject, its label, the standard columns it has and its further actions. */
export interface MatrixRow {
  subject: string;
  label: string;
  basic: readonly BasicAction[];
  actions: RowAction[];
}

/** How a cell stands: granted itself, granted through `manage` or "all", or not at all. */
export type Grant = 'explicit' | 'implied' | 'none';

const split = (permission: string): [string, string] | undefined => {
  const space = permission.indexOf(' ');
  return space > 0 ? [permission.slice(0, space), permission.slice(space + 1)] : undefined;
};

/**
 * Whether a permission list grants `action` on `subject`: itself, or through `manage` of the
 * subject, the action on "all" or `manage all` (as CASL reads them).
 * @example grantOf(['read all'], 'read', 'Appeal') // 'implied'
 */
export function grantOf(value: readonly string[], action: string, subject: string): Grant {
  if (value.includes(`${action} ${subject}`)) return 'explicit';
  const implied =
    (action !== 'manage' && value.includes(`manage ${subject}`)) ||
    (subject !== ALL_SUBJECTS && (value.includes(`${action} ${ALL_SUBJECTS}`) || value.includes('manage all')));
  return implied ? 'implied' : 'none';
}

/**
 * The list with one permission added or taken away (the order of the others kept).
 * @example toggle(['read Appeal'], 'update Appeal', true) // ['read Appeal', 'update Appeal']
 */
export function toggle(value: readonly string[], permission: string, on: boolean): string[] {
  const rest = value.filter((p) => p !== permission);
  return on ? [...rest, permission] : rest;
}

/** Whether a row grants anything (itself or implied): a read view shows only such rows. */
export const rowGranted = (value: readonly string[], row: MatrixRow): boolean =>
  [...row.basic, ...row.actions.map((a) => a.action)].some((action) => grantOf(value, action, row.subject) !== 'none');

/**
 * The permissions no cell of the matrix shows (a subject or action the definitions no longer
 * have): listed apart, so that nothing stored is hidden.
 */
export function unplaced(value: readonly string[], rows: readonly MatrixRow[]): string[] {
  const cells = new Set(
    rows.flatMap((r) => [...r.basic, ...r.actions.map((a) => a.action)].map((action) => `${action} ${r.subject}`)),
  );
  return value.filter((p) => !cells.has(p) || !split(p));
}
