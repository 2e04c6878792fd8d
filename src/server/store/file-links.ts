import type { Queryable } from '../db/database.ts';
import type { EntityDefinition } from '../../definitions/registry.ts';
import type { FieldProblem } from '../../shared/validation/field-errors.ts';
import type { Actor } from '../auth/access.ts';
import { badInput } from '../errors.ts';
import { valuesAt, type FileField } from './record-schema.ts';

// The files a record names (its file fields hold `file_entity` ids), in the write's transaction.

/** Links the files a record names to it; refuses files of other records or users. */
export async function linkFiles(
  tx: Queryable,
  entity: string,
  files: readonly FileField[],
  recordId: number,
  data: Record<string, unknown>,
  actor: Actor,
): Promise<void> {
  const named = files.flatMap((f) => valuesAt(data, f.path)).map((v) => ({ pointer: v.pointer, id: String(v.value) }));
  const ids = named.map((n) => n.id);
  const { rows } = await tx.query<{ id: string; kind: string; record_id: number | null; owner: string | null }>(
    'SELECT id::text, kind, record_id, owner FROM file_entity WHERE id = ANY($1::uuid[]) FOR UPDATE',
    [ids],
  );
  const found = new Map(rows.map((r) => [r.id, r]));
  const problems = named
    .filter(({ id }) => {
      const f = found.get(id);
      return !f || f.kind !== entity || (f.record_id !== null ? f.record_id !== recordId : f.owner !== actor.id);
    })
    .map(({ pointer }) => ({ pointer, key: 'validation.file', params: {} }));
  if (problems.length) throw badInput(problems);
  await tx.query(
    'UPDATE file_entity SET record_id = NULL WHERE kind = $1 AND record_id = $2 AND NOT generated AND NOT (id = ANY($3::uuid[]))',
    [entity, recordId, ids],
  );
  if (ids.length)
    await tx.query('UPDATE file_entity SET record_id = $1 WHERE id = ANY($2::uuid[]) AND record_id IS NULL', [
      recordId,
      ids,
    ]);
}

/** Files the update drops from the record that someone else attached: only the uploader removes a file. */
export async function removedFilesOfOthers(
  tx: Queryable,
  def: EntityDefinition,
  files: readonly FileField[],
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  actor: Actor,
): Promise<FieldProblem[]> {
  // Fields the rules declare replaceable (a photo): whoever may change them replaces the files.
  const replaceable = def.edit.replaceableFiles ?? [];
  const removed = files.flatMap((f) => {
    const kept = new Set(valuesAt(after, f.path).map((v) => String(v.value)));
    const field = `/${f.path.slice(0, f.path.indexOf('*') < 0 ? f.path.length : f.path.indexOf('*')).join('/')}`;
    if (replaceable.includes(field)) return [];
    return valuesAt(before, f.path)
      .filter((v) => !kept.has(String(v.value)))
      .map((v) => ({ field, id: String(v.value) }));
  });
  if (!removed.length) return [];
  const { rows } = await tx.query<{ id: string; owner: string | null }>(
    'SELECT id::text, owner FROM file_entity WHERE id = ANY($1::uuid[])',
    [removed.map((r) => r.id)],
  );
  const uploader = new Map(rows.map((r) => [r.id, r.owner]));
  const fields = new Set(
    removed
      .filter((r) => uploader.has(r.id) && (uploader.get(r.id) === null || uploader.get(r.id) !== actor.id))
      .map((r) => r.field),
  );
  return [...fields].map((pointer) => ({ pointer, key: 'validation.fileKept', params: {} }));
}
