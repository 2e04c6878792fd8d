import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { EntityDefinition } from '../../../definitions/registry.ts';
import { valueAt } from '../../../shared/pointer.ts';
import { systemActor } from '../../auth/access.ts';
import { hasRoleSql } from '../../auth/user-directory.ts';
import { ApiError } from '../../errors.ts';
import { addWriteStep } from '../../store/computed-writes.ts';
import type { StoredRecord } from '../../store/record-row.ts';
import type { CapabilityOptions } from '../registry.ts';
import { reportWriteStep } from './generate.ts';
import { lastEndedPeriod, reportKey } from './period.ts';

/** Tells the staff of the definition's roles that a report is ready (in-app, rendered in each reader's language). */
async function notifyReady(app: FastifyInstance, def: EntityDefinition, record: StoredRecord): Promise<void> {
  const notify = def.manifest.autoReports!.notify;
  const access = app.definitions.access;
  const users = access && app.tables.get(access.userEntity);
  if (!notify || !users) return;
  const { rows } = await app.db.query<{ id: string }>(
    `SELECT DISTINCT u.id::text AS id FROM ${users.table} u WHERE ${notify.roles.map((_, i) => hasRoleSql('u', `$${i + 1}`)).join(' OR ')}`,
    notify.roles,
  );
  const data = record as Record<string, unknown>;
  const sender = typeof data.createdBy === 'string' && /^[1-9][0-9]*$/.test(data.createdBy) ? data.createdBy : null;
  const params = {
    id: record.id,
    type: valueAt(data, '/type'),
    periodFrom: valueAt(data, '/periodFrom'),
    periodTo: valueAt(data, '/periodTo'),
    label: String(valueAt(data, '/key') ?? record.id),
  };
  const recipients = rows.map((r) => r.id);
  await app.notify.inbox.write(
    recipients.map((recipientId) => ({
      recipientId,
      senderId: sender,
      entity: def.id,
      recordId: record.id,
      templateKey: notify.template,
      params,
    })),
  );
  app.notify.inbox.published(recipients);
}

/**
 * Makes the report of every type for the last period that has ended, unless it is there: the
 * key (type and period) is unique, so a second sweep, a restart or another instance sweeping
 * at once adds nothing. Returns the keys it made.
 */
export async function sweepReports(app: FastifyInstance, def: EntityDefinition): Promise<string[]> {
  const spec = def.manifest.autoReports!;
  const table = app.tables.get(def.id)!;
  const period = lastEndedPeriod(spec.period, app.config.clock());
  const made: string[] = [];
  for (const type of Object.keys(spec.types)) {
    const key = reportKey(type, period);
    const { rows } = await app.db.query(`SELECT 1 FROM ${table.table} WHERE data->>'key' = $1 LIMIT 1`, [key]);
    if (rows.length) continue;
    try {
      await app.store.create(def.id, { type, periodFrom: period.from, periodTo: period.to }, systemActor());
      made.push(key);
    } catch (error) {
      // Another instance made it between the look and the write: the unique key refused ours.
      if (error instanceof ApiError && error.statusCode === 400) continue;
      throw error;
    }
  }
  return made;
}

/**
 * The `autoReports` capability: a report record's rows, XLSX and key are computed on every
 * write (computed-writes.ts), a notice goes to the definition's roles when one is made, and the
 * deadline sweep (services/workflow.ts: periodic, durable — the schedule is the clock and the
 * unique key, nothing in memory) also makes the reports of the period that has ended.
 */
const autoReports: FastifyPluginAsync<CapabilityOptions> = async (app, { entities }) => {
  if (!entities.length) return;
  const ids = new Set(entities.map((d) => d.id));
  // A write the store refuses (a stale version, a field the schema refuses) takes away the
  // XLSX its step made: nothing half-written. Only files made here are removed, never a file
  // id the client sent. This wrapper sits inside the write step's (registered before it).
  const made = new Set<string>();
  const { create: storeCreate, update: storeUpdate } = app.store;
  const discarding = async <T>(input: unknown, write: () => Promise<T>): Promise<T> => {
    const fresh = ((input as { file?: unknown } | null)?.file as unknown[] | undefined)?.filter(
      (id): id is string => typeof id === 'string' && made.has(id),
    );
    try {
      return await write();
    } catch (error) {
      for (const id of fresh ?? []) {
        await app.db.query('DELETE FROM file_entity WHERE id = $1 AND record_id IS NULL', [id]);
        await app.fileStorage.remove(id);
      }
      throw error;
    } finally {
      for (const id of fresh ?? []) made.delete(id);
    }
  };
  app.store.create = (name, input, actor, options) =>
    ids.has(name)
      ? discarding(input, () => storeCreate(name, input, actor, options))
      : storeCreate(name, input, actor, options);
  app.store.update = (name, id, input, actor) =>
    ids.has(name) ? discarding(input, () => storeUpdate(name, id, input, actor)) : storeUpdate(name, id, input, actor);
  for (const def of entities) addWriteStep(app.store, def.id, def.manifest.subject, reportWriteStep(app, def, made));
  const { create } = app.store;
  app.store.create = async (name, input, actor, options) => {
    const record = await create(name, input, actor, options);
    if (ids.has(name)) {
      const def = entities.find((d) => d.id === name)!;
      await notifyReady(app, def, record).catch((error: unknown) =>
        app.log.warn({ err: error }, 'report notification failed'),
      );
    }
    return record;
  };
  // The sweep is the workflow engine's; the one engine object is changed in place, as the store is.
  const engine = app.workflow;
  const { sweep } = engine;
  engine.sweep = async (limit) => {
    const moved = await sweep(limit);
    for (const def of entities)
      await sweepReports(app, def).catch((error: unknown) => app.log.error({ err: error }, 'report sweep failed'));
    return moved;
  };
};

export default autoReports;
