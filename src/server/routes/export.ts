import type { FastifyPluginAsync } from 'fastify';
import type { JSONSchema7 } from 'json-schema';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { EntityDefinition } from '../../definitions/registry.ts';
import { resolveFieldSchema, scalarType } from '../../shared/field-schema.ts';
import type { Locale } from '../../shared/locales.ts';
import { errorBodySchema } from '../errors.ts';
import { fileReply } from '../reply-schemas.ts';
import { filterQuerySchema } from '../store/list-query.ts';
import { hiddenFieldsOf } from '../../shared/ability.ts';
import { touchesHiddenField } from '../../shared/hidden-fields.ts';
import type { ReferenceService } from '../store/references.ts';
import type { Translator } from '../i18n.ts';
import {
  resolveColumnFormat,
  statesKeyOf,
  tashkentParts,
  type ColumnFormat,
  type GridColumn,
  type Translate,
} from '../../shared/format.ts';
import { valueAt } from '../../shared/pointer.ts';
import { EXCEL_CELLS } from './excel-cells.ts';

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Query parameters besides the grid's filters. */
const exportParams: Record<string, JSONSchema7> = {
  sortBy: {
    type: 'string',
    maxLength: 600,
    description: 'Comma-separated sort fields (`customer.surname` or pointers).',
  },
  sortDesc: {
    type: 'string',
    maxLength: 100,
    pattern: '^(true|false)(,(true|false))*$',
    description: 'Comma-separated, one per sortBy.',
  },
  lang: { type: 'string' },
};

/**
 * One cell as Excel should hold it (the format's entry in excel-cells.ts): real dates and
 * numbers, localized names as text; a multi-choice field's items joined with commas.
 */
export function excelValue(
  value: unknown,
  format: ColumnFormat,
  locale: Locale,
  translate: Translate,
  references: ReferenceService,
): ExcelJS.CellValue {
  if (Array.isArray(value))
    return value
      .map((v) => excelValue(v, format, locale, translate, references))
      .filter((v) => v !== null && v !== '')
      .join(', ');
  if (value === null || value === undefined || value === '') return null;
  return EXCEL_CELLS[format.kind].value(value, format, {
    locale,
    translate,
    reference: (kind, id) => references.get(kind, id),
  });
}

/** A translator that says "missing" instead of echoing the key, so callers can fall back. */
const translateIn =
  (translator: Translator, locale: Locale): Translate =>
  (key) => {
    const text = translator.t(locale, key);
    return text && text !== key ? text : undefined;
  };

/** Today in Tashkent, for the file name. */
const today = (): string => {
  const p = tashkentParts(new Date());
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
};

const splitList = (s: string | undefined): string[] =>
  s
    ? s
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean)
    : [];

/**
 * `GET /api{base}/export` for every entity: the list-search filters and sort of the
 * current list as an .xlsx, streamed (exceljs `WorkbookWriter` straight into the response,
 * rows read from the store in batches) so the size of the result never sits in memory.
 * One header row with the grid's column titles in the caller's language; cells follow the
 * grid's formatting rules; columns of fields hidden from the caller are left out. Bad filters and sorts are refused with a 400 JSON body before
 * the first byte of the file is sent.
 */
const exportPlugin: FastifyPluginAsync = async (app) => {
  for (const def of app.definitions.entities.values()) {
    const filters = filterQuerySchema(def);
    const querystring: JSONSchema7 = { ...filters, properties: { ...filters.properties, ...exportParams } };
    app.get<{ Querystring: Record<string, unknown> & { sortBy?: string; sortDesc?: string; lang?: string } }>(
      `/api${def.manifest.base}/export`,
      {
        schema: {
          tags: [def.manifest.subject],
          summary: 'The filtered, sorted list as an Excel workbook (.xlsx)',
          querystring,
          response: {
            200: fileReply('The workbook (.xlsx), as an attachment'),
            400: errorBodySchema,
            404: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const { sortBy, sortDesc, lang, ...filterValues } = request.query;
        void lang; // read by the http service to pick request.locale
        const sortNames = splitList(sortBy);
        const descending = splitList(sortDesc).map((v) => v === 'true');
        const records = app.store
          .streamList(def.id, filterValues, { sortBy: sortNames, sortDesc: descending }, request.actor)
          [Symbol.asyncIterator]();
        // The first batch is read before answering, so a failing query still gets a JSON error.
        const first = await records.next();
        const body = new PassThrough();
        void reply
          .header('content-disposition', `attachment; filename="${def.id}-${today()}.xlsx"`)
          .header('cache-control', 'no-store')
          .type(XLSX_MIME)
          .send(body);
        // The store leaves hidden fields out of the records; their columns go too, not just their values.
        const hidden = hiddenFieldsOf(request.actor.ability, def.manifest.subject);
        writeWorkbook(body, def, hidden, request.locale, app.translator, app.references, first, records).catch(
          (error: unknown) => {
            request.log.error({ err: error }, 'export failed while streaming');
            body.destroy(error as Error);
          },
        );
        return reply;
      },
    );
  }
};

/** Resolves when `out` can take more, or throws when the client has gone away. */
async function drained(out: PassThrough): Promise<void> {
  await new Promise<void>((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
  if (out.destroyed) throw new Error('client disconnected');
}

async function writeWorkbook(
  out: PassThrough,
  def: EntityDefinition,
  hidden: readonly string[],
  locale: Locale,
  translator: Translator,
  references: ReferenceService,
  first: IteratorResult<Record<string, unknown>>,
  rest: AsyncIterator<Record<string, unknown>>,
): Promise<void> {
  const translate = translateIn(translator, locale);
  const columns = def.grid.columns
    .filter((c) => !c.hidden && !touchesHiddenField(hidden, c.field))
    .map((column: GridColumn) => ({
      column,
      format: resolveColumnFormat(column, def.schema, statesKeyOf(def.manifest)),
    }));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(
    translate(def.manifest.titleKey)
      ?.slice(0, 31)
      .replace(/[\\/?*[\]:]/g, ' ') || def.id,
    {
      views: [{ state: 'frozen', ySplit: 1 }],
    },
  );
  sheet.columns = columns.map(({ column, format }) => {
    const numFmt = EXCEL_CELLS[format.kind].numFmt?.(column.field, def.schema);
    return {
      header: translator.t(locale, column.titleKey),
      key: column.field,
      width: Math.max(10, Math.round((column.width ?? 140) / 7)),
      ...(numFmt ? { style: { numFmt } } : {}),
    };
  });
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  let next = first;
  let count = 0;
  while (!next.done) {
    const record = next.value;
    sheet
      .addRow(
        columns.map(({ column, format }) =>
          excelValue(valueAt(record, column.field), format, locale, translate, references),
        ),
      )
      .commit();
    // Let the socket drain now and then: the zip writer has no back-pressure of its own.
    if (++count % 500 === 0 && out.writableNeedDrain) await drained(out);
    next = await rest.next();
  }
  sheet.commit();
  await workbook.commit();
}

export default exportPlugin;
