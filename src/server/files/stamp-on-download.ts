import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import { isRecipient, systemActor, type Actor } from '../auth/access.ts';
import { setAt, valueAt } from '../../shared/pointer.ts';

/**
 * Stamps a record's `stampOnDownload` field when one of its recipients (manifest
 * `scope.recipients`) downloads one of its files for the first time: once — a stamped record
 * keeps its first time, and downloads by staff or the owner stamp nothing. The write goes
 * through the store as the system (validated, audited); a concurrent write (409) is read
 * again, so two first downloads at once stamp one time.
 * @example await stampOnDownload(app, file.kind, file.recordId, request.actor)
 */
export async function stampOnDownload(
  app: FastifyInstance,
  entity: string,
  recordId: number,
  actor: Actor,
): Promise<void> {
  const def = app.definitions.entities.get(entity);
  const pointer = def?.manifest.stampOnDownload;
  if (!def || !pointer || actor.id === null) return;
  const system = systemActor();
  for (let attempt = 0; attempt < 3; attempt++) {
    const record = (await app.store.get(entity, recordId, system)) as unknown as Record<string, unknown>;
    if (valueAt(record, pointer) || !isRecipient(actor, def, record)) return;
    try {
      const stamped = { ...record };
      setAt(stamped, pointer, new Date().toISOString());
      await app.store.update(entity, recordId, stamped, system);
      return;
    } catch (error) {
      if (!(error instanceof ApiError && error.statusCode === 409)) throw error;
    }
  }
}
