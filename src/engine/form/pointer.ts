/**
 * JSON pointers for form fields. rjsf names a field by its path (`['participants', 0, 'name']`);
 * testers, server errors and wizard steps name it by a JSON pointer (`/participants/0/name`).
 */
import type { FieldPathList } from '@rjsf/utils';
import { pointerSegments, toPointer } from '../../shared/pointer.ts';

/**
 * The JSON pointer of an rjsf field path; the root is `''`.
 * @example pathToPointer(['participants', 0, 'name']) // '/participants/0/name'
 */
export function pathToPointer(path: FieldPathList): string {
  return toPointer(path);
}

/**
 * The rjsf field path of a JSON pointer; all-digit segments become array indexes.
 * @example pointerToPath('/participants/0/name') // ['participants', 0, 'name']
 */
export function pointerToPath(pointer: string): FieldPathList {
  if (!pointer) return [];
  return pointerSegments(pointer).map((s) => (/^(0|[1-9][0-9]*)$/.test(s) ? Number(s) : s));
}

/**
 * Whether `pointer` is `scope` itself or lies inside it (`''` contains everything).
 * @example isWithin('/customer/pnfl', '/customer') // true
 */
export function isWithin(pointer: string, scope: string): boolean {
  return scope === '' || pointer === scope || pointer.startsWith(`${scope}/`);
}
