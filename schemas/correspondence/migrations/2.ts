/**
 * Migration 2 of correspondence: the free-text department becomes a department id. The units
 * are read once before the pass (`prepare`); a text matching a unit's name in any language
 * (trimmed, case-insensitive) takes its id and is removed; a text that matches nothing stays
 * where it was, so the start-up pass keeps it aside (not lost) and the data-health screen lists it.
 */

type Data = Record<string, unknown>;

const NAME_FIELDS = ['nameLt', 'nameUz', 'nameRu', 'nameEn'] as const;
const norm = (text: string): string => text.trim().toLowerCase();

/** Department ids by their normalised names (the first unit by id wins a shared name). */
export async function prepare(records: (entity: string) => Promise<Array<{ id: number; data: Data }>>) {
  const byName = new Map<string, number>();
  for (const unit of await records('department'))
    for (const field of NAME_FIELDS) {
      const name = unit.data[field];
      if (typeof name === 'string' && name.trim() && !byName.has(norm(name))) byName.set(norm(name), unit.id);
    }
  return byName;
}

export default (data: Data, _row: unknown, byName: Map<string, number>): Data => {
  const text = data.department;
  if (typeof text !== 'string' || (data.departmentId !== undefined && data.departmentId !== null)) return data;
  const id = byName.get(norm(text));
  if (id === undefined) return data;
  const { department: _matched, ...rest } = data;
  return { ...rest, departmentId: id };
};
