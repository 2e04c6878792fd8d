import type { ValidateFunction } from 'ajv';
import type { Database, Queryable } from '../db/database.ts';
import type { DefinitionRegistry, EntityDefinition } from '../../definitions/registry.ts';
import type { EntityTable } from '../db/entity-table.ts';
import { createServerAjv } from '../validation.ts';
import { toFieldProblems, type FieldProblem } from '../../shared/validation/field-errors.ts';
import { ApiError, badInput, notFound, staleVersion } from '../errors.ts';
import { defaultsOf, rethrowUnique, withExistingRecord, withoutSystemFields } from './record-input.ts';
import { findFileFields, findReferenceFields, valuesAt, type FileField, type ReferenceField } from './record-schema.ts';
import type { ReferenceService } from './references.ts';
import {
  DEFAULT_COUNT_CAP,
  keyAfter,
  keywordSearchSql,
  listSearchSql,
  readableListQuery,
  STREAM_BATCH_SIZE,
  streamBatchSql,
} from './list-query.ts';
import { RECORD_COLUMNS, toRecord, type RecordRow as Row, type StoredRecord } from './record-row.ts';
import type { EntityStore } from './entity-store-contract.ts';
import { rowVisible, type Actor } from '../auth/access.ts';
import { hiddenFieldsOf } from '../../shared/ability.ts';
import { touchesHiddenField, withKeptFields, withoutFields } from '../../shared/hidden-fields.ts';
import { createEditRightsJudge } from './edit-rights.ts';
import type { AuditEntry } from '../../shared/audit.ts';
import { auditRow, auditTrailSql, readableAuditEntry, type AuditLogRow } from './audit-trail.ts';
import { linkFiles, removedFilesOfOthers } from './file-links.ts';
import { asStoredDataRefusal } from './stored-data.ts';
import { pointerSegments, setAt, valueAt } from '../../shared/pointer.ts';

/** Who is acting. Sign-in (a later plugin) fills it; anonymous users have no id. */
export type { Actor } from '../auth/access.ts';

export type { StoredRecord } from './record-row.ts';

/** One row of a record's audit trail, as `GET {base}/audit/{id}` shows it. */
export type { AuditEntry } from '../../shared/audit.ts';

interface Compiled {
  def: EntityDefinition;
  table: EntityTable;
  validateCreate: ValidateFunction;
  validateUpdate: ValidateFunction;
  references: ReferenceField[];
  files: FileField[];
  initialStatus: string;
  /** One row by id: the read of every get, prepared (the hottest statement of the store). */
  selectSql: string;
  insertSql: string;
  updateSql: string;
  transitionSql: string;
}

// The store's contract lives in entity-store-contract.ts; its users import it from here.
export type { EntityStore, ListContext, StoreLog } from './entity-store-contract.ts';

/**
 * The store over the entity tables: permission, scope, validation, the audit row and the
 * version bump of every write in one transaction; lists through list-query.ts. The store
 * service (services/store.ts) wraps it with the concerns of store/*-refs.ts, row-limits.ts….
 */
export function createEntityStore(
  db: Database,
  registry: DefinitionRegistry,
  tables: Map<string, EntityTable>,
  references: ReferenceService,
  countCap = DEFAULT_COUNT_CAP,
): EntityStore {
  const ajv = createServerAjv();
  const judge = createEditRightsJudge(registry);
  const compiled = new Map<string, Compiled>();
  for (const def of registry.entities.values()) {
    const table = tables.get(def.id)!;
    // The status of the row being written: the insert's $2, the unchanged column, the transition's $3.
    const computedAt = (status: string) => table.computed.map((c) => [c.column, c.expr('$1::jsonb', status)] as const);
    const [computed, transitionComputed] = [computedAt('$2'), computedAt('$3')];
    const updateComputed = computedAt('status');
    const machine = def.manifest.workflow ? registry.machines.get(def.manifest.workflow) : undefined;
    compiled.set(def.id, {
      def,
      table,
      validateCreate: ajv.compile(def.schema),
      validateUpdate: ajv.compile({
        type: 'object',
        required: ['version'],
        properties: { version: { type: 'integer', minimum: 1 } },
      }),
      references: findReferenceFields(def.schema),
      files: findFileFields(def.schema),
      initialStatus: machine?.initial ?? def.manifest.initialStatus ?? 'CREATED',
      selectSql: `SELECT ${RECORD_COLUMNS} FROM ${table.table} WHERE id = $1`,
      // A new record is written at the entity's current schema version (a literal integer).
      insertSql: `INSERT INTO ${table.table} (data, status, owner, schema_version, ${computed.map(([c]) => c).join(', ')})
        VALUES ($1::jsonb, $2, $3, ${Number(def.schemaVersion)}, ${computed.map(([, e]) => e).join(', ')}) RETURNING ${RECORD_COLUMNS}`,
      updateSql: `UPDATE ${table.table} SET data = $1::jsonb, version = version + 1, updated_at = now(),
        ${updateComputed.map(([c, e]) => `${c} = ${e}`).join(', ')} WHERE id = $2 RETURNING ${RECORD_COLUMNS}`,
      transitionSql: `UPDATE ${table.table} SET data = $1::jsonb, status = $3, version = version + 1, updated_at = now(),
        ${transitionComputed.map(([c, e]) => `${c} = ${e}`).join(', ')} WHERE id = $2 RETURNING ${RECORD_COLUMNS}`,
    });
  }

  const entityOf = (entity: string): Compiled => {
    const c = compiled.get(entity);
    if (!c) throw notFound();
    return c;
  };

  /** Schema validation, then reference lists (existence and parent). */
  const validate = (c: Compiled, data: Record<string, unknown>): void => {
    if (!c.validateCreate(data)) throw badInput(toFieldProblems(c.validateCreate.errors));
    const problems: FieldProblem[] = [];
    for (const ref of c.references) {
      for (const { pointer, value, holder } of valuesAt(data, ref.path)) {
        const item = references.get(ref.list, Number(value));
        if (!item) problems.push({ pointer, key: 'validation.reference', params: {} });
        else if (
          ref.parentField &&
          holder[ref.parentField] != null &&
          item.parent !== Number(holder[ref.parentField])
        ) {
          problems.push({ pointer, key: 'validation.referenceParent', params: { parent: ref.parentField } });
        }
      }
    }
    if (problems.length) throw badInput(problems);
  };

  /**
   * The audit row of a write, in its transaction: the fields changed from `before` to `after`
   * (absent: a create, a delete) and their old → new values (audit-trail.ts).
   */
  const audit = (
    tx: Queryable,
    c: Compiled,
    recordId: number,
    action: string,
    actor: Actor,
    before: Record<string, unknown> | undefined,
    after: Record<string, unknown> | undefined,
    status?: { old: string; new: string },
  ) => {
    const { changed, diff } = auditRow(before, after, status);
    return tx.query(
      'INSERT INTO audit_log (actor, entity, record_id, action, changed, diff) VALUES ($1, $2, $3, $4, $5, $6::jsonb)',
      [actor.id, c.def.id, recordId, action, changed, JSON.stringify(diff)],
    );
  };

  const lockRow = async (tx: Queryable, c: Compiled, id: number): Promise<Row> => {
    const { rows } = await tx.query<Row>(`${c.selectSql} FOR UPDATE`, [id]);
    if (!rows[0]) throw notFound();
    return rows[0];
  };

  /** 401 for a visitor who could sign in, 403 for a user whose roles do not allow it. */
  const must = (actor: Actor, action: string, c: Compiled): void => {
    if (!actor.ability.can(action, c.def.manifest.subject))
      throw actor.id === null ? new ApiError(401, 'errors.unauthorized') : new ApiError(403, 'errors.forbidden');
  };
  /** The fields of the entity the actor may not read (their roles' `hiddenFields`). */
  const hiddenOf = (actor: Actor, c: Compiled): string[] => hiddenFieldsOf(actor.ability, c.def.manifest.subject);
  /**
   * A record as the actor may see it: without the fields hidden from them. Every answer of the
   * store to an actor goes through here; the server's own steps (a transition's `step`) see
   * the whole record.
   */
  const shown = (actor: Actor, c: Compiled, record: StoredRecord): StoredRecord => {
    const hidden = hiddenOf(actor, c);
    return hidden.length ? withoutFields(record, hidden) : record;
  };
  /**
   * The edit rules and the roles' field rules: a change the actor may not make — in the
   * record's status, by who they are to it, or a field their roles keep read-only or hidden —
   * is refused (403, each field named), so nothing of the update is written. Sending the
   * stored value back is not a change. With no fitting rule at all the record is closed to
   * the actor (even an update that changes nothing).
   */
  const mustBeAllowedChanges = async (
    tx: Queryable,
    actor: Actor,
    c: Compiled,
    before: Row,
    data: Record<string, unknown>,
  ): Promise<void> => {
    const rights = judge.rightsOf(c.def, actor, before);
    const refused = judge.refusedChanges(c.def, actor, rights, before.data, data);
    const problems = refused.map((pointer) => ({ pointer, key: 'validation.readOnly', params: {} }));
    if (!actor.trusted) problems.push(...(await removedFilesOfOthers(tx, c.def, c.files, before.data, data, actor)));
    if (!rights.update) throw new ApiError(403, 'errors.notEditable', { fieldErrors: problems });
    if (problems.length) throw new ApiError(403, 'errors.fieldReadOnly', { fieldErrors: problems });
  };
  /** A regional actor may not put a record into another region. */
  const mustStayInRegion = (actor: Actor, c: Compiled, data: Record<string, unknown>): void => {
    const field = c.def.manifest.scope?.regionField;
    if (actor.scope !== 'REGION' || !field) return;
    const region = valuesAt(data, pointerSegments(field))[0]?.value;
    if (region !== undefined && Number(region) !== actor.region) throw new ApiError(403, 'errors.forbidden');
  };
  /** Reading needs the role's permission, except for public registries (manifest `publicRead`). */
  const mustRead = (actor: Actor, c: Compiled): void => {
    if (!c.def.manifest.publicRead) must(actor, 'read', c);
  };
  /** One row the actor may read: 401/403 without the permission, 404 when absent or outside their scope. */
  const readableRow = async (c: Compiled, id: number, actor: Actor): Promise<Row> => {
    mustRead(actor, c);
    const { rows } = await db.query<Row>(c.selectSql, [id], { prepared: true });
    // Another user's record is "not found", not "forbidden": its existence is not told either.
    if (!rows[0] || (!c.def.manifest.publicRead && !rowVisible(actor, c.def, rows[0]))) throw notFound();
    return rows[0];
  };
  /** The id of the record holding a unique value, if the actor may read it (a duplicate's answer names it). */
  const readableIdWith = async (c: Compiled, actor: Actor, pointer: string, value: unknown) => {
    const col = c.table.columns.get(pointer)!;
    const sql = `SELECT id FROM ${c.table.table} WHERE ${col.column} = $1::${col.type}`;
    const id = (await db.query<{ id: number }>(sql, [value])).rows[0]?.id;
    return id === undefined ? undefined : (await readableRow(c, id, actor)).id;
  };

  return {
    empty: (entity) => defaultsOf(entityOf(entity).def.schema),

    async get(entity, id, actor) {
      const c = entityOf(entity);
      return shown(actor, c, toRecord(await readableRow(c, id, actor)));
    },

    async create(entity, input, actor, options) {
      const c = entityOf(entity);
      must(actor, 'create', c);
      const { data } = withoutSystemFields(input);
      const localeField = c.def.manifest.localeField;
      if (
        localeField &&
        options?.locale &&
        data &&
        typeof data === 'object' &&
        (valueAt(data, localeField) === undefined || valueAt(data, localeField) === '')
      )
        setAt(data, localeField, options.locale);
      validate(c, data);
      mustStayInRegion(actor, c, data);
      const inTransaction = <T>(fn: (tx: Queryable) => Promise<T>): Promise<T> =>
        options?.tx ? fn(options.tx) : db.transaction(fn);
      return inTransaction(async (tx) => {
        const { rows } = await tx
          .query<Row>(c.insertSql, [JSON.stringify(data), c.initialStatus, actor.id])
          .catch((e) => rethrowUnique(e, c));
        const row = rows[0]!;
        if (c.files.length) await linkFiles(tx, c.def.id, c.files, row.id, data, actor);
        await audit(tx, c, row.id, 'create', actor, undefined, data);
        return shown(actor, c, toRecord(row));
      }).catch((e) => withExistingRecord(e, data, options?.tx ? undefined : (p, v) => readableIdWith(c, actor, p, v)));
    },

    async update(entity, id, input, actor) {
      const c = entityOf(entity);
      must(actor, 'update', c);
      const { data: sent, version } = withoutSystemFields(input);
      if (!c.validateUpdate({ version })) throw badInput(toFieldProblems(c.validateUpdate.errors));
      const hidden = hiddenOf(actor, c);
      // An actor who cannot see some fields sends the record without them: it is whole (and
      // judged) only once their stored values are put back, inside the transaction. A value
      // refused that the record already had is told as stored data (stored-data.ts).
      if (!hidden.length) {
        try {
          validate(c, sent);
        } catch (error) {
          const { rows } = await db.query<Row>(c.selectSql, [id]);
          throw rows[0] ? asStoredDataRefusal(error, c.def.schema, rows[0].data, sent) : error;
        }
      }
      return db.transaction(async (tx) => {
        const before = await lockRow(tx, c, id);
        if (!rowVisible(actor, c.def, before)) throw notFound();
        if (before.version !== version) throw staleVersion(before.version);
        const data = hidden.length ? (withKeptFields(sent, before.data, hidden) as Record<string, unknown>) : sent;
        // The rules first, so that a region the actor may not change is named as such.
        await mustBeAllowedChanges(tx, actor, c, before, data);
        if (hidden.length) {
          try {
            validate(c, data);
          } catch (error) {
            throw asStoredDataRefusal(error, c.def.schema, before.data, data);
          }
        }
        mustStayInRegion(actor, c, data);
        const { rows } = await tx.query<Row>(c.updateSql, [JSON.stringify(data), id]).catch((e) => rethrowUnique(e, c));
        if (c.files.length) await linkFiles(tx, c.def.id, c.files, id, data, actor);
        await audit(tx, c, id, 'update', actor, before.data, data);
        return shown(actor, c, toRecord(rows[0]!));
      });
    },

    async remove(entity, id, actor, version) {
      const c = entityOf(entity);
      must(actor, 'delete', c);
      await db.transaction(async (tx) => {
        const before = await lockRow(tx, c, id);
        if (!rowVisible(actor, c.def, before)) throw notFound();
        if (version !== undefined && before.version !== version) throw staleVersion(before.version);
        if (!judge.rightsOf(c.def, actor, before).delete) throw new ApiError(403, 'errors.notDeletable');
        await tx.query(`DELETE FROM ${c.table.table} WHERE id = $1`, [id]);
        await audit(tx, c, id, 'delete', actor, before.data, undefined);
      });
    },

    async writeTransition(entity, id, version, actor, step, options) {
      const c = entityOf(entity);
      const inTransaction = <T>(fn: (tx: Queryable) => Promise<T>): Promise<T> =>
        options?.tx ? fn(options.tx) : db.transaction(fn);
      return inTransaction(async (tx) => {
        const before = await lockRow(tx, c, id);
        if (!rowVisible(actor, c.def, before)) throw notFound();
        if (before.version !== version) throw staleVersion(before.version);
        const { status, data } = await step(toRecord(before), tx);
        try {
          validate(c, data);
        } catch (error) {
          throw asStoredDataRefusal(error, c.def.schema, before.data, data);
        }
        const { rows } = await tx
          .query<Row>(c.transitionSql, [JSON.stringify(data), id, status])
          .catch((e) => rethrowUnique(e, c));
        await audit(tx, c, id, 'transition', actor, before.data, data, { old: before.status, new: status });
        return shown(actor, c, toRecord(rows[0]!));
      });
    },

    async rights(entity, id, actor) {
      const c = entityOf(entity);
      const row = await readableRow(c, id, actor);
      return judge.recordRights(c.def, actor, row);
    },

    async listSearch(entity, filters, payload, actor) {
      const c = entityOf(entity);
      mustRead(actor, c);
      const q = readableListQuery(c.def, c.table, filters, payload, actor, hiddenOf(actor, c));
      const sql = listSearchSql(c.table, q, countCap);
      const [page, count] = await Promise.all([
        db.query<Row>(sql.page, q.params),
        db.query<{ total: number }>(sql.count, q.params),
      ]);
      const total = count.rows[0]?.total ?? 0;
      const list = page.rows.map((row) => shown(actor, c, toRecord(row)));
      return total > countCap ? { list, total: countCap, totalCapped: true } : { list, total };
    },

    readableWhere(entity, filters, actor, fields = []) {
      const c = entityOf(entity);
      mustRead(actor, c);
      const hidden = hiddenOf(actor, c);
      if (fields.some((f) => touchesHiddenField(hidden, f))) throw new ApiError(403, 'errors.forbidden');
      const q = readableListQuery(c.def, c.table, filters, {}, actor, hidden);
      return { where: q.where, params: q.params };
    },

    streamList(entity, filters, sort, actor, batchSize = STREAM_BATCH_SIZE) {
      const c = entityOf(entity);
      mustRead(actor, c);
      const q = readableListQuery(
        c.def,
        c.table,
        filters,
        { sortBy: sort.sortBy, sortDesc: sort.sortDesc, multiSort: true },
        actor,
        hiddenOf(actor, c),
      );
      return (async function* batches() {
        let after: Array<string | null> | undefined;
        for (;;) {
          const batch = streamBatchSql(c.table, q, after, batchSize);
          const { rows } = await db.query<Row & { [key: `k${number}`]: string | null }>(batch.sql, batch.params);
          for (const row of rows) yield shown(actor, c, toRecord(row));
          if (rows.length < batchSize) return;
          after = keyAfter(q, rows[rows.length - 1]!);
        }
      })();
    },

    async searchByKeyword(entity, keyword, limit, actor) {
      const c = entityOf(entity);
      mustRead(actor, c);
      if (!c.table.keywordExpr) throw new ApiError(404, 'errors.notFound');
      const { sql, params } = keywordSearchSql(c.def, c.table, keyword, limit, actor, hiddenOf(actor, c));
      const { rows } = await db.query<{ id: number; label: string | null }>(sql, params);
      return { list: rows.map((r) => ({ id: r.id, label: r.label ?? String(r.id) })) };
    },

    async audit(entity, id, actor) {
      const c = entityOf(entity);
      await readableRow(c, id, actor);
      const users = registry.access?.userEntity ? tables.get(registry.access.userEntity)?.table : undefined;
      const { rows } = await db.query<AuditLogRow>(auditTrailSql(users), [entity, id]);
      const readable = readableAuditEntry(actor, hiddenOf(actor, c), c.def.schema);
      return { list: rows.map(readable) };
    },
  };
}
