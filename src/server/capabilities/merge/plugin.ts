import type { FastifyPluginAsync } from 'fastify';
import { ApiError } from '../../errors.ts';
import { errorBodySchema } from '../../errors.ts';
import { objectReply } from '../../reply-schemas.ts';
import { getAtPointer, setAt } from '../../../shared/pointer.ts';
import { findFileFields } from '../../store/record-schema.ts';
import type { CapabilityOptions } from '../registry.ts';
import { sumRows } from './sum-rows.ts';

/**
 * `POST /api{base}/merge` for entities whose manifest declares `merge`: a new record made
 * from the first of the chosen records (lowest id) with the declared array fields
 * concatenated from all of them, in id order, and the `sumBy` array summed per row key
 * (sum-rows.ts). Records that differ in a `same` field are refused (with its `differKeys` message); the new record gets the
 * sources' ids (`sources`) and the `set` fields. It is an ordinary create (validated, audited,
 * owned by the caller), so it needs read on every source record and create on the entity;
 * the sources stay as they are.
 */
const merge: FastifyPluginAsync<CapabilityOptions> = async (app, { entities }) => {
  for (const def of entities) {
    const spec = def.manifest.merge!;
    const max = spec.maxRecords ?? 50;
    // Uploaded files belong to their record: the merged record starts without them.
    const fileRoots = [...new Set(findFileFields(def.schema).map((f) => f.path[0]!))];
    app.post<{ Body: { ids: number[] } }>(
      `/api${def.manifest.base}/merge`,
      {
        schema: {
          tags: [def.manifest.subject],
          summary: `Merges ${def.id} records into a new one (${[
            ...(spec.arrays ?? []).map((a) => `${a} concatenated`),
            ...(spec.sumBy ? [`${spec.sumBy.array} summed by ${spec.sumBy.key}`] : []),
          ].join(', ')})`,
          body: {
            type: 'object',
            required: ['ids'],
            additionalProperties: false,
            properties: {
              ids: { type: 'array', items: { type: 'integer', minimum: 1 }, uniqueItems: true, maxItems: max },
            },
          },
          response: {
            200: objectReply(`The new ${def.id} record`),
            400: errorBodySchema,
            401: errorBodySchema,
            403: errorBodySchema,
            404: errorBodySchema,
          },
        },
      },
      async (request) => {
        const ids = [...request.body.ids].sort((a, b) => a - b);
        if (ids.length < 2)
          throw new ApiError(400, 'errors.mergeAtLeastTwo', {
            fieldErrors: [{ pointer: '/ids', key: 'errors.mergeAtLeastTwo', params: {} }],
          });
        const records = [];
        for (const id of ids) records.push(await app.store.get(def.id, id, request.actor));
        // Sums of different templates or periods would mean nothing: refused, naming the field.
        for (const pointer of spec.same ?? []) {
          const first = JSON.stringify(getAtPointer(records[0], pointer) ?? null);
          if (records.some((r) => JSON.stringify(getAtPointer(r, pointer) ?? null) !== first)) {
            const key = spec.differKeys?.[pointer] ?? 'reports.mergeDiffer';
            throw new ApiError(400, key, { fieldErrors: [{ pointer, key, params: {} }] });
          }
        }
        const {
          id: _id,
          version: _v,
          status: _s,
          owner: _o,
          createdAt: _c,
          updatedAt: _u,
          ...data
        } = structuredClone(records[0]!);
        for (const name of fileRoots) delete (data as Record<string, unknown>)[name];
        for (const pointer of spec.arrays ?? []) {
          const rows = records.flatMap((r) => {
            const value = getAtPointer(r, pointer);
            return Array.isArray(value) ? value : [];
          });
          setAt(data as Record<string, unknown>, pointer, rows);
        }
        if (spec.sumBy) setAt(data as Record<string, unknown>, spec.sumBy.array, sumRows(records, spec.sumBy));
        if (spec.sources) setAt(data as Record<string, unknown>, spec.sources, ids);
        for (const [pointer, value] of Object.entries(spec.set ?? {}))
          setAt(data as Record<string, unknown>, pointer, structuredClone(value));
        return app.store.create(def.id, data, request.actor);
      },
    );
  }
};

export default merge;
