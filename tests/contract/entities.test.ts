/**
 * Contract tests generated from the definitions: for every entity and on both backends,
 * schema-valid payloads round-trip, schema-invalid ones are refused naming the field and
 * change nothing, and optimistic locking holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { tableName } from '../../src/server/db/entity-table.ts';
import { backends } from '../support/databases.ts';
import { createCaller, startTestApp } from '../support/app.ts';
import { createSampler } from '../support/sample-data.ts';
import {
  at,
  brokenTypes,
  dataOf,
  prefilledFields,
  requiredPointers,
  serverWritten,
  withField,
  withoutServerWritten,
} from '../support/records.ts';
import { createEditRulesModel, keepingWhatRulesKeep, type ModelUser } from '../support/edit-rules-model.ts';
import { cellName, forSelectedEntity } from '../support/test-selection.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const seedOf = (id: string): number => [...id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`entity API on ${backend.name}`, () => {
    let app: FastifyInstance;
    let adminId: number;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ app, adminId, close } = await startTestApp(backend.name));
    });
    afterAll(async () => close?.());

    const call = (...args: Parameters<ReturnType<typeof createCaller>>) => createCaller(app)(...args);
    /** Rows and audit rows of an entity: what "nothing written" is measured by. */
    const footprint = async (entity: string) => {
      const rows = await app.db.query<{ n: number; v: number }>(
        `SELECT count(*)::int AS n, coalesce(sum(version), 0)::int AS v FROM ${tableName(entity)}`,
      );
      const audit = await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log WHERE entity = $1', [
        entity,
      ]);
      return { rows: rows.rows[0]!.n, versions: rows.rows[0]!.v, audit: audit.rows[0]!.n };
    };

    for (const def of forSelectedEntity(registry.entities.values(), (d) => d.id)) {
      const base = `/api${def.manifest.base}`;
      const sample = createSampler(def.schema, registry.references, createServerAjv());
      const seed = seedOf(def.id);
      const machine = def.manifest.workflow ? registry.machines.get(def.manifest.workflow) : undefined;
      const initialStatus = machine?.initial ?? def.manifest.initialStatus ?? 'CREATED';
      // The entity's edit rules decide what the administrator may change and delete in the initial status.
      const rules = createEditRulesModel(def.edit, machine);
      const admin = (): ModelUser => ({ id: String(adminId), role: registry.access!.adminRole, isOuter: false });
      const rowOf = (record: Record<string, unknown>) => ({
        status: String(record.status),
        owner: (record.owner as string | null) ?? null,
        data: dataOf(record),
      });

      describe(def.id, () => {
        /** A failure's cell: this entity, then the field or step (cellName). */
        const cell = (...parts: Array<string | number | undefined>): string => cellName(def.id, ...parts);
        it('round-trips schema-valid payloads: create, get, list, update, delete', async () => {
          for (const [i, full] of [
            [0, true],
            [1, false],
            [2, true],
            [3, false],
          ] as const) {
            const input = sample(seed + i, { full });
            const created = await call('POST', `${base}/create`, input);
            expect(created.status, JSON.stringify(created.body)).toBe(200);
            expect(created.body).toMatchObject({ version: 1, status: initialStatus });
            // A manifest's localeField left empty is filled with the caller's language (the caller asks in English).
            const localeField = def.manifest.localeField?.slice(1);
            // Fields the server writes (readOnly) are its own: the rest is stored as sent.
            const sent = (record: Record<string, unknown>) => withoutServerWritten(def.schema, dataOf(record));
            // Fields a prefill copies from the named record (left empty by the input) are the server's too.
            const prefilled = prefilledFields(def.manifest, input);
            const notPrefilled = (data: Record<string, unknown>) =>
              Object.fromEntries(Object.entries(data).filter(([k]) => !prefilled.includes(k)));
            expect(notPrefilled(sent(created.body))).toEqual(
              notPrefilled(localeField && input[localeField] === undefined ? { ...input, [localeField]: 'en' } : input),
            );

            const read = await call('GET', `${base}/get/${created.body.id}`);
            expect(read.status).toBe(200);
            expect(read.body).toEqual(created.body);

            // The newest record is on the last page (registries seeded on first start can fill several).
            const first = await call('POST', `${base}/list-search`, { page: 0, itemsPerPage: 100 });
            expect(first.status).toBe(200);
            const ids: number[] = first.body.list.map((r: { id: number }) => r.id);
            for (let page = 1; page < Math.ceil(first.body.total / 100); page++) {
              ids.push(
                ...(await call('POST', `${base}/list-search`, { page, itemsPerPage: 100 })).body.list.map(
                  (r: { id: number }) => r.id,
                ),
              );
            }
            expect(ids).toContain(created.body.id);

            const row = rowOf(created.body);
            let version = 1;
            if (rules.mayUpdate(admin(), row)) {
              // Another valid record, less what the rules keep in this status.
              const next = keepingWhatRulesKeep(rules, admin(), row, sample(seed + 100 + i, { full: !full }));
              const updated = await call('PUT', `${base}/update/${created.body.id}`, { ...next, version: 1 });
              expect(updated.status, JSON.stringify(updated.body)).toBe(200);
              expect(updated.body.version).toBe(2);
              // A field the rules keep that the server writes (readOnly) is the server's, as on create.
              expect(sent(updated.body)).toEqual(withoutServerWritten(def.schema, next));
              expect(sent((await call('GET', `${base}/get/${created.body.id}`)).body)).toEqual(
                withoutServerWritten(def.schema, next),
              );
              version = 2;
            } else {
              const before = await footprint(def.id);
              const refused = await call('PUT', `${base}/update/${created.body.id}`, {
                ...sample(seed + 100 + i, { full: !full }),
                version: 1,
              });
              expect(refused.status, JSON.stringify(refused.body)).toBe(403);
              expect(await footprint(def.id)).toEqual(before);
            }

            const removed = await call('DELETE', `${base}/delete/${created.body.id}?version=${version}`);
            expect(removed.status, JSON.stringify(removed.body)).toBe(
              rules.mayDelete(admin(), { ...row, status: initialStatus }) ? 200 : 403,
            );
            expect((await call('GET', `${base}/get/${created.body.id}`)).status).toBe(
              removed.status === 200 ? 404 : 200,
            );
          }
        });

        it('serves a blank record with the schema defaults', async () => {
          const empty = await call('GET', `${base}/get/empty`);
          expect(empty.status).toBe(200);
          for (const [name, prop] of Object.entries(def.schema.properties ?? {})) {
            if (typeof prop === 'object' && prop.default !== undefined) expect(empty.body[name]).toEqual(prop.default);
          }
        });

        it('refuses each missing required field with 400 naming it, writing nothing', async () => {
          const input = sample(seed + 7, { full: true });
          const before = await footprint(def.id);
          const pointers = requiredPointers(def.schema, input);
          for (const pointer of pointers) {
            const res = await call('POST', `${base}/create`, withField(input, pointer));
            expect(res.status, `${cell('missing', pointer)}: ${JSON.stringify(res.body)}`).toBe(400);
            expect(res.body.fieldErrors?.[pointer], `${cell('missing', pointer)}: ${JSON.stringify(res.body)}`).toBe(
              'Mandatory field',
            );
          }
          expect(await footprint(def.id)).toEqual(before);
        });

        it('refuses each broken type with 400 naming the field, writing nothing', async () => {
          const input = sample(seed + 8, { full: true });
          const before = await footprint(def.id);
          // A field the server writes (readOnly) is overwritten whatever is sent: nothing to refuse.
          for (const { pointer, value } of brokenTypes(def.schema).filter(
            (b) => !serverWritten(def.schema, b.pointer),
          )) {
            const res = await call('POST', `${base}/create`, withField(input, pointer, value));
            expect(res.status, `${cell('broken type', pointer)}: ${JSON.stringify(res.body)}`).toBe(400);
            expect(
              Object.keys(res.body.fieldErrors ?? {}),
              `${cell('broken type', pointer)}: ${JSON.stringify(res.body)}`,
            ).toContain(pointer);
          }
          expect(await footprint(def.id)).toEqual(before);
        });

        it('refuses an unknown property and never takes server-owned fields from input', async () => {
          const input = sample(seed + 9, { full: false });
          const before = await footprint(def.id);
          const unknown = await call('POST', `${base}/create`, { ...input, notInTheSchema: 'x' });
          expect(unknown.status).toBe(400);
          expect(unknown.body.fieldErrors).toEqual({ '/notInTheSchema': 'This field is not allowed' });
          expect(await footprint(def.id)).toEqual(before);

          const forged = await call('POST', `${base}/create`, {
            ...input,
            id: 999_999,
            status: 'FORGED',
            version: 77,
            owner: 'mallory',
            createdAt: '2000-01-01T00:00:00.000Z',
            updatedAt: '2000-01-01T00:00:00.000Z',
          });
          expect(forged.status).toBe(200);
          expect(forged.body.id).not.toBe(999_999);
          expect(forged.body).toMatchObject({ status: initialStatus, version: 1, owner: String(adminId) });
          expect(forged.body.createdAt.startsWith('2000')).toBe(false);
        });

        // A unique field the server writes (readOnly) cannot be sent twin by a client.
        const uniqueSent = (def.manifest.unique ?? []).filter((p) => !serverWritten(def.schema, p));
        if (uniqueSent.length)
          it('refuses a second record with the same unique field, naming it', async () => {
            for (const [i, pointer] of uniqueSent.entries()) {
              // Fresh seeds per field: records made for one unique field must not clash on another.
              const first = sample(seed + 20 + 10 * i, { full: true });
              const value = at(first, pointer);
              const created = await call('POST', `${base}/create`, first);
              expect(created.status, `${cell('unique', pointer)}: ${JSON.stringify(created.body)}`).toBe(200);
              const other = await call('POST', `${base}/create`, sample(seed + 21 + 10 * i, { full: true }));
              expect(other.status, `${cell('unique', pointer)}: ${JSON.stringify(other.body)}`).toBe(200);
              const before = await footprint(def.id);
              const twin = await call(
                'POST',
                `${base}/create`,
                withField(sample(seed + 22 + 10 * i, { full: true }), pointer, value),
              );
              expect(twin.status, `${cell('unique', pointer)}: a twin created`).toBe(400);
              expect(twin.body.fieldErrors[pointer], `${cell('unique', pointer)}: a twin created`).toMatch(
                /already registered$/,
              );
              // The answer names the record that holds the value (the caller may read it): the form links to it.
              expect(twin.body.details, `${cell('unique', pointer)}: the existing record`).toEqual({
                existing: { [pointer]: created.body.id },
              });
              const clash = await call('PUT', `${base}/update/${other.body.id}`, {
                ...withField(dataOf(other.body), pointer, value),
                version: 1,
              });
              expect(clash.status, `${cell('unique', pointer)}: updated into a twin`).toBe(400);
              expect(Object.keys(clash.body.fieldErrors), `${cell('unique', pointer)}: updated into a twin`).toEqual([
                pointer,
              ]);
              expect(await footprint(def.id), `${cell('unique', pointer)}: wrote nothing`).toEqual(before);
            }
          });

        it('refuses a stale version with 409 and writes nothing', async () => {
          const created = await call('POST', `${base}/create`, sample(seed + 10, { full: true }));
          const row = rowOf(created.body);
          // Where the rules let the administrator update, a first update makes version 1 stale;
          // elsewhere any other version is.
          const editable = rules.mayUpdate(admin(), row);
          const first = editable
            ? await call('PUT', `${base}/update/${created.body.id}`, {
                ...keepingWhatRulesKeep(rules, admin(), row, sample(seed + 11, { full: true })),
                version: 1,
              })
            : created;
          expect(first.status, JSON.stringify(first.body)).toBe(200);
          const current = first.body.version as number;
          const staleVersion = editable ? 1 : 2;
          const before = await footprint(def.id);
          const stale = await call('PUT', `${base}/update/${created.body.id}`, {
            ...sample(seed + 12, { full: true }),
            version: staleVersion,
          });
          expect(stale.status).toBe(409);
          expect(stale.body.details).toEqual({ currentVersion: current });
          const missing = await call('PUT', `${base}/update/${created.body.id}`, sample(seed + 12, { full: true }));
          expect(missing.status).toBe(400);
          expect(missing.body.fieldErrors).toHaveProperty('/version');
          const staleDelete = await call('DELETE', `${base}/delete/${created.body.id}?version=${staleVersion}`);
          expect(staleDelete.status).toBe(409);
          expect(await footprint(def.id)).toEqual(before);
          expect((await call('GET', `${base}/get/${created.body.id}`)).body).toEqual(first.body);
          expect(
            (await call('PUT', `${base}/update/987654321`, { ...sample(seed + 12, { full: true }), version: 1 }))
              .status,
          ).toBe(404);
        });
      });
    }
  });
}
