import type { ReferenceItem } from '../../generated/meta.ts';
import type { Queryable } from '../db/database.ts';

/** One reference-list item as the API returns it: the definition's item without its display order. */
export type ReferenceItemRow = Omit<ReferenceItem, 'sort'>;

/**
 * The reference lists (regions, districts, topics…), read from the database once
 * and kept in memory: they are small, read on every write that names one, and change
 * only through `reload()`.
 */
export interface ReferenceService {
  list(kind: string, parent?: number): ReferenceItemRow[] | undefined;
  get(kind: string, id: number): ReferenceItemRow | undefined;
  kinds(): string[];
  reload(): Promise<void>;
}

export async function createReferenceService(db: Queryable): Promise<ReferenceService> {
  let byKind = new Map<string, Map<number, ReferenceItemRow>>();
  const reload = async (): Promise<void> => {
    const { rows } = await db.query<ReferenceItemRow & { kind: string }>(
      `SELECT kind, id, code, parent, name_lt AS "nameLt", name_uz AS "nameUz", name_ru AS "nameRu", name_en AS "nameEn"
       FROM ref_item WHERE active ORDER BY kind, sort, id`,
    );
    const next = new Map<string, Map<number, ReferenceItemRow>>();
    for (const { kind, ...item } of rows) {
      if (!next.has(kind)) next.set(kind, new Map());
      next.get(kind)!.set(item.id, item);
    }
    byKind = next;
  };
  await reload();
  return {
    list(kind, parent) {
      const items = byKind.get(kind);
      if (!items) return undefined;
      const all = [...items.values()];
      return parent === undefined ? all : all.filter((i) => i.parent === parent);
    },
    get: (kind, id) => byKind.get(kind)?.get(id),
    kinds: () => [...byKind.keys()],
    reload,
  };
}
