/** One semantic change between two definition sets, as `npm run defs:diff` lists it. */
export interface DefinitionChange {
  /** The heading it is listed under: an entity id, `workflow <id>`, `access` or `screens`. */
  group: string;
  /** The repository-relative file the change is in (the head's, or the base's when removed). */
  file: string;
  /** Where in that file (a JSON pointer; `''` for the whole file). */
  pointer: string;
  kind: ChangeKind;
  /** Stored data or a user's existing right may be lost. */
  breaking: boolean;
  /** The change in plain words. */
  text: string;
  /** For a field change: the record field's pointer (the removed one for a rename). */
  field?: string;
  /** For a rename: the field it most likely became. */
  to?: string;
  /** For an enum value change: the value. */
  value?: string;
}

export type ChangeKind =
  | 'entity-added'
  | 'entity-removed'
  | 'version-changed'
  | 'migration-added'
  | 'field-added'
  | 'field-removed'
  | 'field-renamed'
  | 'field-retyped'
  | 'value-added'
  | 'value-removed'
  | 'values-limited'
  | 'required-added'
  | 'required-removed'
  | 'format-changed'
  | 'column-added'
  | 'column-removed'
  | 'machine-added'
  | 'machine-removed'
  | 'state-added'
  | 'state-removed'
  | 'initial-changed'
  | 'event-added'
  | 'event-removed'
  | 'transition-retargeted'
  | 'guard-changed'
  | 'role-added'
  | 'role-removed'
  | 'permission-added'
  | 'permission-removed'
  | 'field-rule-added'
  | 'field-rule-removed'
  | 'screen-added'
  | 'screen-removed'
  | 'screen-permission-changed'
  | 'screen-route-changed'
  | 'menu-added'
  | 'menu-removed'
  | 'menu-changed';

/** The kinds of change that lose or reject stored records unless a migration says what to do. */
export const DATA_CHANGES: ReadonlySet<ChangeKind> = new Set([
  'field-removed',
  'field-renamed',
  'field-retyped',
  'value-removed',
  'values-limited',
  'required-added',
]);

type Node = Record<string, unknown>;

/** A plain object, or undefined (definitions under comparison may be invalid). */
export const asNode = (v: unknown): Node | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Node) : undefined;

/** The strings of an array (anything else: none). */
export const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s) => typeof s === 'string') : []);
