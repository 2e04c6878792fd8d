/**
 * The summing side of the `merge` capability (`merge.sumBy`): the rows of one array field of
 * several records merged by a key, number fields added up and text fields listed. Pure, so
 * the sums are tested apart from the route.
 */
import { getAtPointer, setAt } from '../../../shared/pointer.ts';

/** `merge.sumBy` of a manifest. */
export interface SumBy {
  /** The array field of the record. */
  array: string;
  /** The row's key field (a pointer into the row). */
  key: string;
  /** Number fields of the row, added up. */
  sum: readonly string[];
  /** Text fields of the row, listed one per line. */
  list?: readonly string[];
}

type Row = Record<string, unknown>;

/**
 * The rows of `records` (in the given order) merged per key: one row per key, in the order
 * the keys first appear, the first row of a key giving the other fields. A `sum` field is the
 * total of the rows' finite numbers (absent when no row of the key has one, so "not filled"
 * stays distinct from 0); a `list` field joins the non-empty texts with a line break.
 * Rows without a key are kept as they are, after the keyed ones.
 * @example sumRows([{rows: [{code: 'a', value: 1}]}, {rows: [{code: 'a', value: 2}]}], {array: '/rows', key: '/code', sum: ['/value']})
 * // [{code: 'a', value: 3}]
 */
export function sumRows(records: readonly unknown[], spec: SumBy): Row[] {
  const byKey = new Map<string, { row: Row; sums: Map<string, number>; texts: Map<string, string[]> }>();
  const unkeyed: Row[] = [];
  for (const record of records) {
    const rows = getAtPointer(record, spec.array);
    if (!Array.isArray(rows)) continue;
    for (const raw of rows) {
      if (!raw || typeof raw !== 'object') continue;
      const row = raw as Row;
      const key = getAtPointer(row, spec.key);
      if (key === undefined || key === null || key === '') {
        unkeyed.push(structuredClone(row));
        continue;
      }
      const id = String(key);
      let entry = byKey.get(id);
      if (!entry) {
        entry = { row: structuredClone(row), sums: new Map(), texts: new Map() };
        byKey.set(id, entry);
      }
      for (const p of spec.sum) {
        const v = getAtPointer(row, p);
        if (typeof v === 'number' && Number.isFinite(v)) entry.sums.set(p, (entry.sums.get(p) ?? 0) + v);
      }
      for (const p of spec.list ?? []) {
        const v = getAtPointer(row, p);
        if (typeof v === 'string' && v.trim()) entry.texts.set(p, [...(entry.texts.get(p) ?? []), v.trim()]);
      }
    }
  }
  const merged = [...byKey.values()].map(({ row, sums, texts }) => {
    for (const p of spec.sum) {
      const total = sums.get(p);
      if (total === undefined) deleteAt(row, p);
      // Decimal values summed in binary drift (0.1 + 0.2): rounded to 10 places, far below any entered precision.
      else setAt(row, p, Math.round(total * 1e10) / 1e10);
    }
    for (const p of spec.list ?? []) {
      const all = texts.get(p);
      if (all?.length) setAt(row, p, all.join('\n'));
      else deleteAt(row, p);
    }
    return row;
  });
  return [...merged, ...unkeyed];
}

/** Removes the field at a one-level pointer (the row fields sumBy names). */
function deleteAt(row: Row, pointer: string): void {
  const name = pointer.slice(1);
  if (!name.includes('/')) delete row[name];
}
