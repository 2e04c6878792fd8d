import type { FastifyInstance } from 'fastify';
import type { EntityDefinition } from '../../../definitions/registry.ts';
import type { EntityManifest } from '../../../generated/meta.ts';
import type { Locale } from '../../../shared/locales.ts';
import { systemActor, type Actor } from '../../auth/access.ts';
import { badInput } from '../../errors.ts';
import { aggregateQuery } from '../../store/aggregate.ts';
import { storeBytes } from '../documents/store.ts';
import { reportKey, type Period } from './period.ts';
import { reportWorkbook, valueWriter } from './workbook.ts';

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The manifest's `autoReports`. */
type AutoReports = NonNullable<EntityManifest['autoReports']>;

/** A report entity's definition with its `autoReports` (declared: the plugin only gets those). */
const specOf = (def: EntityDefinition): AutoReports => def.manifest.autoReports!;

/** The rows of one report: the source's aggregate over the type's filter and the period, as the system reads it. */
export async function reportRows(
  app: FastifyInstance,
  def: EntityDefinition,
  type: string,
  period: Period,
): Promise<Record<string, unknown>[]> {
  const spec = specOf(def);
  const source = app.definitions.entities.get(spec.source)!;
  const aggregate = source.manifest.aggregates![spec.aggregate]!;
  const filters = {
    ...spec.types[type]!.filter,
    [`${spec.dateFilter}From`]: period.from,
    [`${spec.dateFilter}To`]: period.to,
  };
  const scoped = app.store.readableWhere(source.id, filters, systemActor());
  const { sql, params } = aggregateQuery(source, app.tables.get(source.id)!, aggregate, scoped, undefined);
  const { rows } = await app.db.query<Record<string, unknown>>(sql, params);
  // Only the declared columns are kept (a group or measure the report does not show is left out).
  const names = spec.columns.map((c) => c.field);
  return rows.map((row) => Object.fromEntries(names.filter((n) => row[n] !== null).map((n) => [n, row[n]])));
}

/** Writes the XLSX of the rows into the file storage as a file of the report entity, not yet linked to a record. */
async function reportFile(
  app: FastifyInstance,
  def: EntityDefinition,
  type: string,
  period: Period,
  rows: Record<string, unknown>[],
  actor: Actor,
): Promise<string> {
  const spec = specOf(def);
  const locale = (spec.locale ?? 'ru') as Locale;
  const text = (key: string): string | undefined => {
    const t = app.translator.t(locale, key);
    return t && t !== key ? t : undefined;
  };
  const source = app.definitions.entities.get(spec.source)!;
  const write = valueWriter(source, source.manifest.aggregates![spec.aggregate]!.groupBy ?? [], locale, {
    reference: (list, id) => app.references.get(list, id),
    text,
  });
  const typeTitle = text(`entity.${def.id}.option.type.${type}`) ?? type;
  const title = `${text(def.manifest.titleKey) ?? def.id}: ${typeTitle}, ${period.from} – ${period.to}`;
  const bytes = await reportWorkbook(
    title,
    spec.columns.map((c) => text(c.titleKey) ?? c.field),
    rows.map((row) => spec.columns.map((c) => write(c.field, row[c.field]))),
  );
  const stored = await storeBytes(app.fileStorage, bytes);
  await app.db.query(
    `INSERT INTO file_entity (id, kind, name, mime, size, sha256, owner, record_id, generated)
     VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, false)`,
    [stored.id, def.id, `${type}-${period.from}-${period.to}.xlsx`, XLSX_MIME, stored.size, stored.sha256, actor.id],
  );
  return stored.id;
}

/**
 * The write step of a report record (create and update): checks the type and the period, then
 * sets the server-written fields — the key, the trigger, the time, the rows and the XLSX file —
 * whatever the input said of them. So "generate now" is creating a record with a type and a
 * period, and saving a record again regenerates it. The file's id goes into `made` until the
 * write it is for ends (see the plugin: a refused write takes its file away again).
 */
export function reportWriteStep(app: FastifyInstance, def: EntityDefinition, made: Set<string>) {
  const spec = specOf(def);
  return async (data: Record<string, unknown>, actor: Actor): Promise<Record<string, unknown>> => {
    const { type, periodFrom: from, periodTo: to } = data;
    // A missing or mistyped type or date is the schema's to refuse.
    if (typeof type !== 'string' || !spec.types[type] || typeof from !== 'string' || typeof to !== 'string')
      return data;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(to)) return data;
    if (from > to) throw badInput([{ pointer: '/periodTo', key: 'autoReports.periodOrder', params: {} }]);
    const period = { from, to };
    const rows = await reportRows(app, def, type, period);
    const file = await reportFile(app, def, type, period, rows, actor);
    made.add(file);
    return {
      ...data,
      key: reportKey(type, period),
      trigger: actor.id === null ? 'schedule' : 'manual',
      generatedAt: app.config.clock().toISOString(),
      rows,
      file: [file],
    };
  };
}
