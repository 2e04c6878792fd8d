/**
 * The board's pure parts: records grouped into columns in their order, a move computed the
 * way the server's order capability does it (for the optimistic update), and what a drop or a
 * "move left/right/up/down" menu item asks for. React-free.
 */
import type { StoredRecord } from '../../client/data-provider.ts';
import { valueAt } from '../../shared/pointer.ts';

/** A list reply as the list query caches it. */
export interface ListData {
  list: StoredRecord[];
  total: number;
}

/** Which fields hold a record's place and its group. */
export interface OrderFields {
  position: string;
  group?: string | undefined;
}

const top = (pointer: string): string => pointer.slice(1);
const placeOf = (r: StoredRecord, f: OrderFields): number => Number(valueAt(r, f.position) ?? 0) || 0;
/** A record's group value as a key (`''` for none). */
export const groupOf = (r: StoredRecord, f: OrderFields): string => (f.group ? String(valueAt(r, f.group) ?? '') : '');

/** Records in board order: place, then id (as the server renumbers). */
export const inOrder = (list: readonly StoredRecord[], f: OrderFields): StoredRecord[] =>
  [...list].sort((a, b) => placeOf(a, f) - placeOf(b, f) || a.id - b.id);

/**
 * The records of each group in order, keyed by the group value; every key of `groups` is
 * present (an empty column shows), records of other groups are left out.
 * @example byGroup(cards, {position: '/position', group: '/taskId'}, ['3', '4']).get('3')
 */
export function byGroup(
  list: readonly StoredRecord[],
  f: OrderFields,
  groups: readonly string[],
): Map<string, StoredRecord[]> {
  const out = new Map(groups.map((g) => [g, [] as StoredRecord[]]));
  for (const r of inOrder(list, f)) out.get(groupOf(r, f))?.push(r);
  return out;
}

/**
 * The list after moving record `id` to `index` of group `group` (default: its own), both
 * groups renumbered 0…n-1 — what the server will answer, shown before it does.
 */
export function moved(
  data: ListData,
  f: OrderFields,
  move: { id: number; group?: string | number | null | undefined; index: number },
): ListData {
  const record = data.list.find((r) => r.id === move.id);
  if (!record) return data;
  const from = groupOf(record, f);
  const to = move.group === undefined || move.group === null ? from : String(move.group);
  const changed = new Map<number, StoredRecord>();
  const renumber = (rows: StoredRecord[]) =>
    rows.forEach((r, i) => {
      const next: StoredRecord = { ...r, [top(f.position)]: i };
      if (f.group && r.id === move.id && from !== to)
        next[top(f.group)] = typeof move.group === 'number' ? move.group : Number(to);
      changed.set(r.id, next);
    });
  const others = inOrder(
    data.list.filter((r) => r.id !== move.id && groupOf(r, f) === to),
    f,
  );
  const at = Math.max(0, Math.min(move.index, others.length));
  renumber([...others.slice(0, at), record, ...others.slice(at)]);
  if (from !== to)
    renumber(
      inOrder(
        data.list.filter((r) => r.id !== move.id && groupOf(r, f) === from),
        f,
      ),
    );
  return { ...data, list: data.list.map((r) => changed.get(r.id) ?? r) };
}

/** A keyboard-menu step: up/down within the column, left/right to the neighbouring column (same place, or its end). */
export type Step = 'up' | 'down' | 'left' | 'right';

/**
 * Where a step takes a card: `{group, index}`, or undefined at the board's edge.
 * @example stepTarget(['3', '4'], columns, card, 'right', f) // { group: '4', index: 0 }
 */
export function stepTarget(
  groups: readonly string[],
  columns: ReadonlyMap<string, StoredRecord[]>,
  card: StoredRecord,
  step: Step,
  f: OrderFields,
): { group: string; index: number } | undefined {
  const group = groupOf(card, f);
  const rows = columns.get(group) ?? [];
  const index = rows.findIndex((r) => r.id === card.id);
  if (step === 'up') return index > 0 ? { group, index: index - 1 } : undefined;
  if (step === 'down') return index < rows.length - 1 ? { group, index: index + 1 } : undefined;
  const next = groups[groups.indexOf(group) + (step === 'left' ? -1 : 1)];
  if (next === undefined) return undefined;
  return { group: next, index: Math.min(index, columns.get(next)?.length ?? 0) };
}

/** The sortable ids of the board: columns and cards never share one. */
export const columnKey = (id: number | string): string => `column-${id}`;
export const cardKey = (id: number | string): string => `card-${id}`;
/** The record id and kind of a sortable id. */
export function parseKey(key: string | number): { kind: 'column' | 'card'; id: number } | undefined {
  const m = /^(column|card)-(\d+)$/.exec(String(key));
  return m ? { kind: m[1] as 'column' | 'card', id: Number(m[2]) } : undefined;
}
