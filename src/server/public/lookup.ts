import type { EntityManifest } from '../../generated/meta.ts';
import type { EntityTable } from '../db/entity-table.ts';
import { getAtPointer, sqlText } from '../../shared/pointer.ts';

export type PublicLookup = NonNullable<EntityManifest['publicLookups']>[number];
export type LookupParam = PublicLookup['by'][number];

/**
 * Masks a value for a public answer. `name` keeps the first letter of every word
 * ("Aliyev Vali" → "A***** V***"); `partial` keeps the first and last two characters.
 * @example maskValue('Aliyev', 'name') // 'A*****'
 */
export function maskValue(value: string, mask: 'name' | 'partial' | undefined): string {
  if (!mask) return value;
  if (mask === 'name')
    return value
      .split(/(\s+)/)
      .map((w) => (/\s/.test(w) || !w ? w : [...w][0] + '*'.repeat([...w].length - 1)))
      .join('');
  const chars = [...value];
  return chars.length <= 4
    ? '*'.repeat(chars.length)
    : chars.slice(0, 2).join('') + '*'.repeat(chars.length - 4) + chars.slice(-2).join('');
}

/** The declared `returns` of one row, masked; nothing else of the record leaves. */
export function projectRow(lookup: PublicLookup, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of lookup.returns) {
    const pointers = r.fields ?? (r.field ? [r.field] : []);
    const values = pointers.map((p) => getAtPointer(row, p)).filter((v) => v !== undefined && v !== null && v !== '');
    if (!values.length) {
      out[r.as] = null;
      continue;
    }
    out[r.as] = r.mask || values.length > 1 ? maskValue(values.map(String).join(' '), r.mask) : values[0];
  }
  return out;
}

/** A row of the record table as a flat object of data and system fields. */
export const rowAsRecord = (row: {
  data: Record<string, unknown>;
  id: number;
  status: string;
  created_at: string;
  updated_at: string;
}): Record<string, unknown> => ({
  ...row.data,
  id: row.id,
  status: row.status,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/**
 * The WHERE clause of a lookup over the entity's derived columns (every `by` field has one,
 * see entity-table.ts): given parameters, then the fixed `where` conditions. A `reference`
 * parameter matches the record its public submission of `entity` numbered so.
 */
export function lookupWhere(
  lookup: PublicLookup,
  table: EntityTable,
  values: Record<string, unknown>,
  entity: string,
): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const parts: string[] = [];
  for (const b of lookup.by) {
    const value = values[b.param];
    if (value === undefined || value === null || value === '') continue;
    const p = `$${params.push(value)}`;
    if (b.reference || !b.field) {
      parts.push(
        `id IN (SELECT record_id FROM public_submission WHERE entity = $${params.push(entity)} AND reference = ${p})`,
      );
      continue;
    }
    const col = table.columns.get(b.field)!;
    const op = b.op ?? 'eq';
    // A date parameter against a date-time field: "up to" includes the whole day.
    if (op === 'gte') parts.push(`${col.column} >= ${p}::date`);
    else if (op === 'lte')
      parts.push(col.type === 'timestamptz' ? `${col.column} < ${p}::date + 1` : `${col.column} <= ${p}::date`);
    else parts.push(`${col.column} = ${p}::${col.type}`);
  }
  for (const w of lookup.where ?? []) {
    const col = table.columns.get(w.field);
    if (col) parts.push(`${col.column} = $${params.push(w.equals)}::${col.type}`);
    else parts.push(`${sqlText(w.field)} = $${params.push(String(w.equals))}`);
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}
