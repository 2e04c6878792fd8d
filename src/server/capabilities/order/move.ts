/**
 * The move of the `order` capability, in one transaction: the places of a record's group (and
 * of the group it leaves) are renumbered 0…n-1 with the record at its new index. Two moves in
 * the same groups take the groups' advisory locks in one order, so they run one after the
 * other and never leave two records on one place or a place empty; the moved record's version
 * must be the one the caller read (else 409 with the current order).
 */
import type { Database, Queryable } from '../../db/database.ts';
import type { EntityTable } from '../../db/entity-table.ts';
import type { Actor } from '../../auth/access.ts';
import { ApiError, notFound } from '../../errors.ts';
import { auditRow } from '../../store/audit-trail.ts';
import { setAt, sqlText } from '../../../shared/pointer.ts';

/** The manifest's `order`: the place field and the group field. */
export interface OrderSpec {
  field: string;
  group?: string;
}

/** One record's place as the move answers it. */
export interface OrderEntry {
  id: number;
  group: string | number | null;
  position: number;
  version: number;
}

/** What the caller asks: the target group (absent: the record's own), the index and the version read. */
export interface MoveInput {
  group?: string | number | null;
  index: number;
  version: number;
}

interface Row {
  id: number;
  version: number;
  data: Record<string, unknown>;
}

/** A group value as the SQL compares it (text, as `#>>` answers), or null. */
const groupKey = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

/**
 * The order of one entity: its moves and its current order.
 * @example await createMover(db, table, 'project-task-card', {field: '/position', group: '/taskId'}).move(7, {group: 3, index: 0, version: 2}, actor)
 */
export function createMover(db: Database, table: EntityTable, entity: string, spec: OrderSpec) {
  const groupSql = spec.group ? sqlText(spec.group) : 'NULL';
  const computed = table.computed.map((c) => `${c.column} = ${c.expr('$1::jsonb', 'status')}`).join(', ');
  const updateSql = `UPDATE ${table.table} SET data = $1::jsonb, version = version + 1, updated_at = now()${
    computed ? `, ${computed}` : ''
  } WHERE id = $2 RETURNING version`;
  const positionOf = (data: Record<string, unknown>): number => {
    const v = Number(data[spec.field.slice(1)]);
    return Number.isFinite(v) ? v : 0;
  };
  const groupOf = (data: Record<string, unknown>): string | number | null =>
    spec.group ? ((data[spec.group.slice(1)] as string | number | undefined) ?? null) : null;

  /** The rows of a group in their order (place, then id), locked when asked. */
  const rowsOf = async (q: Queryable, group: string | null, lock: boolean): Promise<Row[]> => {
    const where = group === null ? `${groupSql} IS NULL` : `${groupSql} = $1`;
    const sql = `SELECT id, version, data FROM ${table.table} WHERE ${where}
      ORDER BY COALESCE((${sqlText(spec.field)})::bigint, 0), id${lock ? ' FOR UPDATE' : ''}`;
    const { rows } = await q.query<Row>(sql, group === null ? [] : [group]);
    return rows.map((r) => ({ ...r, id: Number(r.id), version: Number(r.version) }));
  };

  const entries = (rows: Row[]): OrderEntry[] =>
    rows.map((r) => ({ id: r.id, group: groupOf(r.data), position: positionOf(r.data), version: r.version }));

  /** The current order of the groups (for a 409's details and the reply). */
  const orderOf = async (q: Queryable, groups: Array<string | null>): Promise<OrderEntry[]> => {
    const out: OrderEntry[] = [];
    for (const g of [...new Set(groups)]) out.push(...entries(await rowsOf(q, g, false)));
    return out;
  };

  /** Writes places 0…n-1 to the rows whose place (or group) is not already right; returns the new versions. */
  const renumber = async (tx: Queryable, rows: Row[], group: string | number | null, movedId: number) => {
    let change: { before: Record<string, unknown>; after: Record<string, unknown> } | undefined;
    for (const [i, row] of rows.entries()) {
      const sameGroup = groupKey(groupOf(row.data)) === groupKey(group);
      if (positionOf(row.data) === i && sameGroup && row.data[spec.field.slice(1)] !== undefined) continue;
      const before = row.data;
      const data = structuredClone(before);
      setAt(data, spec.field, i);
      if (spec.group && !sameGroup) setAt(data, spec.group, group);
      const { rows: written } = await tx.query<{ version: number }>(updateSql, [JSON.stringify(data), row.id]);
      row.version = Number(written[0]!.version);
      row.data = data;
      // The moved record's audit row says where it went; the others only shifted by one.
      if (row.id === movedId) change = { before, after: data };
    }
    return change;
  };

  /** Moves record `id` to `input.index` of `input.group` (default: its own group); answers the groups' new order. */
  async function move(id: number, input: MoveInput, actor: Actor): Promise<OrderEntry[]> {
    return db.transaction(async (tx) => {
      const { rows: found } = await tx.query<Row>(`SELECT id, version, data FROM ${table.table} WHERE id = $1`, [id]);
      if (!found[0]) throw notFound();
      const from = groupKey(groupOf(found[0].data));
      const target = input.group === undefined ? groupOf(found[0].data) : input.group;
      const to = groupKey(target);
      // The groups' locks in one order (a move between A and B and one between B and A cannot wait on each other).
      const keys = [...new Set([from, to].map((g) => `${table.table}:${g ?? ''}`))].sort();
      for (const key of keys) await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [key]);
      const { rows: locked } = await tx.query<Row>(
        `SELECT id, version, data FROM ${table.table} WHERE id = $1 FOR UPDATE`,
        [id],
      );
      const row = locked[0];
      if (!row) throw notFound();
      // Someone else moved or edited it since the caller read it (or moved it to another group before the lock).
      if (Number(row.version) !== input.version || groupKey(groupOf(row.data)) !== from)
        throw new ApiError(409, 'board.staleOrder', {
          details: { currentVersion: Number(row.version), order: await orderOf(tx, [from, to]) },
        });
      const moved: Row = { id, version: Number(row.version), data: row.data };
      const others = (await rowsOf(tx, to, true)).filter((r) => r.id !== id);
      const index = Math.max(0, Math.min(input.index, others.length));
      const targetRows = [...others.slice(0, index), moved, ...others.slice(index)];
      const change = await renumber(tx, targetRows, target, id);
      if (from !== to)
        await renumber(
          tx,
          (await rowsOf(tx, from, true)).filter((r) => r.id !== id),
          from,
          id,
        );
      if (change) {
        const { changed, diff } = auditRow(change.before, change.after);
        await tx.query(
          'INSERT INTO audit_log (actor, entity, record_id, action, changed, diff) VALUES ($1, $2, $3, $4, $5, $6::jsonb)',
          [actor.id, entity, id, 'update', changed, JSON.stringify(diff)],
        );
      }
      return orderOf(tx, [to, from]);
    });
  }

  return { move, groupOf, orderOf: (groups: Array<string | null>) => orderOf(db, groups) };
}
