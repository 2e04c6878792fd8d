import type { ReferenceItem } from '../../generated/meta.ts';
import type { Queryable } from '../db/database.ts';

/**
 * One reference-list item as the API returns it: the definition's item without its display
 * order; `active: false` marks an item of an entity-backed list that is no longer offered.
 */
export type ReferenceItemRow = Omit<ReferenceItem, 'sort'> & { active?: false };

/** A reference list kept as the records of an entity (reference.schema.json `entity`). */
export interface EntityBackedList {
  kind: string;
  /** The entity's table. */
  table: string;
}

/**
 * The reference lists (regions, districts, topics…), read from the database once
 * and kept in memory: they are small, read on every write that names one, and change
 * only through `reload()`. `list` gives every item (inactive ones of entity-backed lists
 * flagged), `get` finds inactive ones too, so stored values keep their names.
 */
export interface ReferenceService {
  list(kind: string, parent?: number): ReferenceItemRow[] | undefined;
  get(kind: string, id: number): ReferenceItemRow | undefined;
  kinds(): string[];
  reload(): Promise<void>;
}

/** Reads the `ref_item` lists and the entity-backed ones (which replace a `ref_item` kind of the same name). */
export async function createReferenceService(
  db: Queryable,
  backed: EntityBackedList[] = [],
): Promise<ReferenceService> {
  let byKind = new Map<string, Map<number, ReferenceItemRow>>();
  const load = async (): Promise<void> => {
    const { rows } = await db.query<ReferenceItemRow & { kind: string }>(
      `SELECT kind, id, code, parent, name_lt AS "nameLt", name_uz AS "nameUz", name_ru AS "nameRu", name_en AS "nameEn"
       FROM ref_item WHERE active ORDER BY kind, sort, id`,
    );
    const next = new Map<string, Map<number, ReferenceItemRow>>();
    for (const { kind, ...item } of rows) {
      if (!next.has(kind)) next.set(kind, new Map());
      next.get(kind)!.set(item.id, item);
    }
    for (const list of backed) {
      const items = await db.query<{ id: number; data: Record<string, unknown> }>(
        `SELECT id, data FROM ${list.table} ORDER BY CASE WHEN jsonb_typeof(data->'order') = 'number' THEN (data->>'order')::numeric END NULLS LAST, id`,
      );
      const text = (v: unknown): string => (typeof v === 'string' ? v : '');
      next.set(
        list.kind,
        new Map(
          items.rows.map(({ id, data }) => [
            Number(id),
            {
              id: Number(id),
              code: text(data.code),
              parent: null,
              nameLt: text(data.nameLt),
              nameUz: text(data.nameUz),
              nameRu: text(data.nameRu),
              nameEn: text(data.nameEn),
              ...(data.active === false ? { active: false as const } : {}),
            },
          ]),
        ),
      );
    }
    byKind = next;
  };
  // Writes that come together (an import, a burst of edits) share reloads: a reload asked for
  // while one runs waits for it and then runs once for all who asked meanwhile — each caller
  // still gets a read that began after its own write, and a burst costs two reads, not one each.
  let running: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  const reload = (): Promise<void> => {
    if (!running) {
      running = load().finally(() => {
        running = undefined;
      });
      return running;
    }
    queued ??= running
      .catch(() => undefined)
      .then(() => {
        queued = undefined;
        return reload();
      });
    return queued;
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
