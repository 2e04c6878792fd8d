import type { FastifyInstance } from 'fastify';
import type { JSONSchema7 } from 'json-schema';
import type { EntityDefinition } from '../../../definitions/registry.ts';
import type { DocumentKind } from '../../../generated/meta.ts';
import { statesKeyOf, type Translate } from '../../../shared/format.ts';
import { valueAt } from '../../../shared/pointer.ts';
import type { Locale } from '../../../shared/locales.ts';
import type { Actor } from '../../auth/access.ts';
import { ApiError } from '../../errors.ts';
import type { PdfConverter } from './convert.ts';
import { fillTemplate } from './fill.ts';
import { storeBytes, type TemplateStore } from './store.ts';
import { commonTags, documentValues, staffIdsOf } from './values.ts';

export const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
export const PDF_MIME = 'application/pdf';

/** One file of a generated document, as the record's files list it. */
export interface GeneratedFile {
  id: string;
  name: string;
  mime: string;
  size: number;
}

/** What a generation made: the document's row, the template version used, its files. */
export interface GeneratedDocument {
  id: number;
  kind: string;
  templateVersion: number;
  docx: GeneratedFile;
  pdf: GeneratedFile | null;
}

/** What generation needs of the app besides the record. */
export interface Generator {
  templates: TemplateStore;
  converter: PdfConverter;
}

/** A translator that says "missing" instead of echoing the key, as the formats expect. */
const translateIn =
  (app: FastifyInstance, locale: Locale): Translate =>
  (key) => {
    const text = app.translator.t(locale, key);
    return text && text !== key ? text : undefined;
  };

/** Refuses a caller without the kind's permission (`<action> <Subject>`). */
export function mustMayMake(kind: DocumentKind, actor: Actor): void {
  if (!kind.permission) return;
  const [action, subject] = kind.permission.split(' ') as [string, string];
  if (!actor.ability.can(action as never, subject as never))
    throw actor.id === null ? new ApiError(401, 'errors.unauthorized') : new ApiError(403, 'errors.forbidden');
}

/** A file name without characters file systems refuse. */
const fileName = (text: string): string => text.replace(/[\\/:*?"<>|\n\r\t]+/g, ' ').trim() || 'document';

/**
 * Makes a document of `kind` from record `id` of `def` for `actor`: the record as the actor
 * may read it (403/404 otherwise), the kind's newest active template (404 docgen.noTemplate),
 * filled with the record's values in the caller's language, converted to PDF when the kind
 * wants one (503 without LibreOffice, 500 when it fails). Only then are the files stored and
 * attached to the record, with the document's row and an audit row in one transaction, so a
 * failure attaches nothing.
 */
export async function generateDocument(
  app: FastifyInstance,
  gen: Generator,
  def: EntityDefinition,
  kind: DocumentKind,
  id: number,
  actor: Actor,
  locale: Locale,
): Promise<GeneratedDocument> {
  const record = (await app.store.get(def.id, id, actor)) as Record<string, unknown>;
  mustMayMake(kind, actor);
  const translate = translateIn(app, locale);
  const kindTitle = translate(kind.titleKey) ?? kind.kind;
  const template = await gen.templates.current(def.id, kind.kind);
  if (!template) throw new ApiError(404, 'docgen.noTemplate', { params: { kind: kindTitle } });
  const schema = def.schema as JSONSchema7;
  const staffIds = [...new Set([...staffIdsOf(schema, record), ...(actor.id ? [Number(actor.id)] : [])])];
  const staff = (await app.staffDirectory?.byIds(staffIds.filter((n) => Number.isInteger(n)))) ?? [];
  const staffNames = new Map(staff.map((u) => [u.id, u.name]));
  const ctx = {
    locale,
    translate,
    reference: (list: string, refId: number) => app.references.get(list, refId),
    statesKey: statesKeyOf(def.manifest),
    staffNames,
  };
  const user = staffNames.get(Number(actor.id)) ?? actor.username ?? '';
  const values = {
    ...documentValues(schema, record, ctx),
    ...commonTags(record, ctx, app.config.clock(), user, translate(def.manifest.titleKey) ?? def.id),
  };
  const docx = fillTemplate(template.content, values);
  const pdf = kind.pdf === false ? undefined : await gen.converter.convert(docx);

  // Named as people name the record (its label field, e.g. the document's number), else by its id.
  const label = def.manifest.labelField ? valueAt(record, def.manifest.labelField) : undefined;
  const base = fileName(`${kindTitle} ${label === undefined || label === null || label === '' ? id : String(label)}`);
  const stored = [
    { ...(await storeBytes(app.fileStorage, docx)), name: `${base}.docx`, mime: DOCX_MIME },
    ...(pdf ? [{ ...(await storeBytes(app.fileStorage, pdf)), name: `${base}.pdf`, mime: PDF_MIME }] : []),
  ];
  const row = await app.db.transaction(async (tx) => {
    for (const f of stored)
      await tx.query(
        `INSERT INTO file_entity (id, kind, name, mime, size, sha256, owner, record_id, generated)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, true)`,
        [f.id, def.id, f.name, f.mime, f.size, f.sha256, actor.id, id],
      );
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO generated_document (entity, record_id, kind, template_version, docx_file, pdf_file, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id::int AS id`,
      [def.id, id, kind.kind, template.version, stored[0]!.id, stored[1]?.id ?? null, actor.id],
    );
    await tx.query(
      `INSERT INTO audit_log (actor, entity, record_id, action, changed, diff, note) VALUES ($1, $2, $3, 'document', '{}', '[]'::jsonb, $4)`,
      [
        actor.id,
        def.id,
        id,
        `${kindTitle} (${kind.kind} v${template.version}): ${stored.map((f) => f.name).join(', ')}`,
      ],
    );
    return rows[0]!;
  });
  const info = (f: (typeof stored)[number]): GeneratedFile => ({ id: f.id, name: f.name, mime: f.mime, size: f.size });
  return {
    id: row.id,
    kind: kind.kind,
    templateVersion: template.version,
    docx: info(stored[0]!),
    pdf: stored[1] ? info(stored[1]) : null,
  };
}
