import type { FastifyPluginAsync } from 'fastify';
import { PassThrough } from 'node:stream';
import type { OpenDataset } from '../../generated/meta.ts';
import type { EntityDefinition } from '../../definitions/registry.ts';
import { errorBodySchema, notFound } from '../errors.ts';
import { fileReply } from '../reply-schemas.ts';
import { resolveFieldSchema } from '../../shared/field-schema.ts';
import { valueAt } from '../../shared/pointer.ts';
import { localizedName, type Locale } from '../../shared/locales.ts';
import type { ReferenceService } from '../store/references.ts';
import type { Actor } from '../store/entity-store.ts';

/** One output column: its name, where it is read and, for a reference id, its list. */
interface Column {
  name: string;
  field: string;
  reference?: string;
}

const columnsOf = (dataset: OpenDataset, def: EntityDefinition): Column[] =>
  dataset.fields.flatMap((f) => {
    const list = (resolveFieldSchema(def.schema, f.field) as { reference?: { list: string } } | undefined)?.reference
      ?.list;
    // A reference id is published with its name beside it (`region`, `regionName`), so the file reads on its own.
    return list
      ? [
          { name: f.name, field: f.field },
          { name: `${f.name}Name`, field: f.field, reference: list },
        ]
      : [{ name: f.name, field: f.field }];
  });

const cell = (record: Record<string, unknown>, c: Column, locale: Locale, references: ReferenceService): unknown => {
  const value = valueAt(record, c.field);
  if (!c.reference || value === undefined || value === null) return value ?? null;
  const item = references.get(c.reference, Number(value));
  return item ? localizedName(item, locale) : null;
};

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. */
const csvField = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/**
 * The open-data catalogue (spec §1, §2: datasets 2-009-0001 … 2-009-0028), one definition per
 * dataset in `schemas/_opendata/`: the list with metadata, one dataset's metadata with its row
 * count and last change, and its rows downloaded as CSV (UTF-8 with BOM, for spreadsheets) or
 * JSON — read from the live table in batches and streamed, never from a stored file. Only
 * public registries are sources (npm run check); downloads are rate-limited per address.
 */
const openData: FastifyPluginAsync = async (app) => {
  const config = { publicRateLimit: true };
  // The catalogue is public reference data (cacheable for signed-out callers); the files are
  // streamed from the live rows and stay no-store.
  const catalogue = { ...config, publicReference: true };
  const tags = ['OpenData'];
  const codeParams = {
    type: 'object',
    required: ['code'],
    properties: { code: { type: 'string', pattern: '^2-009-[0-9]{4}$' } },
  } as const;
  const find = (code: string) => {
    const dataset = app.definitions.openData.get(code);
    const def = dataset && app.definitions.entities.get(dataset.entity);
    if (!dataset || !def) throw notFound();
    return { dataset, def };
  };
  const describe = async (dataset: OpenDataset, def: EntityDefinition, locale: Locale, actor: Actor) => {
    const table = app.tables.get(def.id)!;
    // Counted over the dataset's fixed filters: several datasets can share one source table.
    const { where, params } = app.store.readableWhere(def.id, dataset.filters ?? {}, actor);
    const { rows } = await app.db.query<{ n: number; last: string | null }>(
      `SELECT count(*)::int AS n, to_char(max(updated_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS last FROM ${table.table} ${where}`,
      params,
    );
    return {
      code: dataset.code,
      title: app.translator.t(locale, dataset.titleKey),
      description: app.translator.t(locale, dataset.descriptionKey),
      publisher: dataset.publisher,
      updateFrequency: dataset.updateFrequency,
      // The code above is for programs; people read the frequency in their language.
      frequency: app.translator.t(locale, `openData.frequency.${dataset.updateFrequency}`),
      license: dataset.license ?? 'CC BY 4.0',
      columns: columnsOf(dataset, def).map((c) => c.name),
      rows: rows[0]!.n,
      lastUpdated: rows[0]!.last,
      csvUrl: `/api/open-data/${dataset.code}/data.csv`,
      jsonUrl: `/api/open-data/${dataset.code}/data.json`,
    };
  };
  const metaSchema = { type: 'object', additionalProperties: true } as const;

  app.get(
    '/api/open-data',
    {
      config: catalogue,
      schema: {
        tags,
        summary: 'The catalogue: every dataset with its metadata',
        response: { 200: { type: 'object', properties: { list: { type: 'array', items: metaSchema } } } },
      },
    },
    async (request) => ({
      list: await Promise.all(
        [...app.definitions.openData.values()]
          .sort((a, b) => a.code.localeCompare(b.code))
          .map((d) => describe(d, app.definitions.entities.get(d.entity)!, request.locale, request.actor)),
      ),
    }),
  );

  app.get<{ Params: { code: string } }>(
    '/api/open-data/:code',
    {
      config: catalogue,
      schema: {
        tags,
        summary: "One dataset's metadata: title, rows, last update, download links",
        params: codeParams,
        response: { 200: metaSchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const { dataset, def } = find(request.params.code);
      return describe(dataset, def, request.locale, request.actor);
    },
  );

  app.get<{ Params: { code: string; format: 'csv' | 'json' } }>(
    '/api/open-data/:code/data.:format',
    {
      config,
      schema: {
        tags,
        summary: 'The dataset from the live rows, streamed',
        params: {
          ...codeParams,
          required: ['code', 'format'],
          properties: { ...codeParams.properties, format: { enum: ['csv', 'json'] } },
        },
        response: {
          200: fileReply('The rows as CSV (UTF-8 with BOM) or a JSON array, as an attachment'),
          400: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { dataset, def } = find(request.params.code);
      const columns = columnsOf(dataset, def);
      const sort = dataset.sort ?? [];
      const records = app.store
        .streamList(
          def.id,
          dataset.filters ?? {},
          { sortBy: sort.map((s) => s.field), sortDesc: sort.map((s) => s.desc === true) },
          request.actor,
        )
        [Symbol.asyncIterator]();
      const first = await records.next();
      const csv = request.params.format === 'csv';
      const body = new PassThrough();
      void reply
        .header('content-disposition', `attachment; filename="${dataset.code}.${request.params.format}"`)
        .header('cache-control', 'no-store')
        .type(csv ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
        .send(body);
      (async () => {
        const write = async (chunk: string) => {
          if (!body.write(chunk)) await new Promise((resolve) => body.once('drain', resolve));
        };
        await write(csv ? `\uFEFF${columns.map((c) => csvField(c.name)).join(',')}\r\n` : '[');
        let next = first;
        let index = 0;
        while (!next.done) {
          const values = columns.map((c) =>
            cell(next.value as Record<string, unknown>, c, request.locale, app.references),
          );
          await write(
            csv
              ? `${values.map(csvField).join(',')}\r\n`
              : `${index ? ',' : ''}\n${JSON.stringify(Object.fromEntries(columns.map((c, i) => [c.name, values[i]])))}`,
          );
          index++;
          next = await records.next();
        }
        if (!csv) await write('\n]\n');
        body.end();
      })().catch((error: unknown) => {
        request.log.error({ err: error }, 'open-data download failed while streaming');
        body.destroy(error as Error);
      });
      return reply;
    },
  );
};

export default openData;
