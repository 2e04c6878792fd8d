/**
 * The edit-rule matrix, generated from the definitions (schemas/<entity>/edit.json, the
 * machines, schemas/_access/access.json) on both backends: for every entity × every state its
 * machine can reach × every default role — and, where the rules name the owner or an assigned
 * user, both as a stranger to the record and as its owner / assigned user — one update that
 * changes every field at once is accepted exactly when the rules (and the role's permissions,
 * scope, read-only and hidden fields) allow every change, and is otherwise refused with 403
 * naming exactly the fields that may not change, writing nothing; then one update changing only
 * the allowed fields is accepted and stores exactly them. The expectations come from the tests'
 * own model of the rules (tests/support/edit-rules-model.ts), not from the server's code.
 *
 * A record is put into each state directly (its status column): reaching a state through the
 * API is tests/contract/workflows.test.ts; the rules depend only on the status, the owner and
 * the data. The region field is not changed (moving a record out of a region is the scope's
 * rule: permissions-matrix.test.ts); files are added, never removed (removal is the uploader's:
 * edit-rules.test.ts). Prints the matrix's size.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { JSONSchema7 } from 'json-schema';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry, type EntityDefinition } from '../../src/definitions/registry.ts';
import { deref } from '../../src/shared/field-schema.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { tableName } from '../../src/server/db/entity-table.ts';
import { findFileFields, findReferenceFields } from '../../src/server/store/record-schema.ts';
import { abilityOfRoles, hiddenFieldsOf, readOnlyFieldsOf } from '../../src/shared/ability.ts';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';
import { createSampler, serverRulesOf } from '../support/sample-data.ts';
import { at, dataOf, withField, withoutServerWritten } from '../support/records.ts';
import { createRegionPlacer } from '../support/regions.ts';
import { multipart, PNG } from '../support/multipart.ts';
import { changedLeaves, createEditRulesModel, type ModelUser } from '../support/edit-rules-model.ts';
import { cellName, forSelectedEntity } from '../support/test-selection.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const access = registry.access!;
const ajv = createServerAjv();
const { HOME, dependentsOf, inRegion } = createRegionPlacer(registry);
const entities = [...registry.entities.values()].sort((a, b) => a.id.localeCompare(b.id));
const PASSWORD = 'edit rules matrix pass 1';
const OUTER = new Set([...access.outerRoles, ...(access.outerRolesYur ?? [])]);
// A role with mayGrantRoles reaches users through row limits: fair-price-admin.test.ts.
const delegates = new Set(access.roles.filter((r) => r.mayGrantRoles?.length).map((r) => r.code));
const roles = access.roles.map((r) => ({ code: r.code, scope: r.scope, ability: abilityOfRoles([r]).ability }));

/** The states a machine reaches from its initial state by its transitions (guards aside). */
function reachable(def: EntityDefinition): string[] {
  const machine = def.manifest.workflow ? registry.machines.get(def.manifest.workflow) : undefined;
  if (!machine) return [def.manifest.initialStatus ?? 'CREATED'];
  const seen = [machine.initial];
  for (let i = 0; i < seen.length; i++) {
    for (const t of Object.values(machine.states[seen[i]!]?.on ?? {})) {
      for (const one of Array.isArray(t) ? t : [t]) if (one.target && !seen.includes(one.target)) seen.push(one.target);
    }
  }
  return seen;
}

/**
 * Top-level and nested-object fields, as pointers to their schema; not those the server writes
 * (schema readOnly): a client's value there is ignored, never refused (server-owned.ts).
 */
const topFields = (def: EntityDefinition): Array<[string, JSONSchema7]> =>
  Object.entries(def.schema.properties ?? {})
    .map(([k, v]): [string, JSONSchema7] => [`/${k}`, deref(def.schema, v as JSONSchema7)!])
    .filter(([, schema]) => schema.readOnly !== true);

let uploads = 0;

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`edit-rule matrix on ${backend.name}`, () => {
    let cells = 0;
    let requests = 0;
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let adminId: string;
    /** Per role code: its user's id and bearer header. */
    const users = new Map<string, { id: string; headers: Record<string, string> }>();
    const staffIds: number[] = [];

    const call = (method: 'GET' | 'PUT', url: string, headers: Record<string, string>, payload?: unknown) => {
      requests += 1;
      return app.inject({ method, url, headers: { 'accept-language': 'en', ...headers }, payload: payload as never });
    };
    const row = async (def: EntityDefinition, id: number) =>
      (
        await app.db.query<{ data: Record<string, unknown>; version: number; status: string; owner: string | null }>(
          `SELECT data, version, status, owner FROM ${tableName(def.id)} WHERE id = $1`,
          [id],
        )
      ).rows[0]!;

    beforeAll(async () => {
      let adminSession: { adminId: number };
      ({ app, close, ...adminSession } = await startTestApp(backend.name));
      adminId = String(adminSession.adminId);
      let n = 0;
      for (const role of access.roles) {
        n += 1;
        const created = await app.inject({
          method: 'POST',
          url: '/api/portal-user/create',
          payload: {
            username: `em-${role.code}`,
            firstName: 'Matrix',
            lastName: role.code,
            isOuter: OUTER.has(role.code),
            canLogin: true,
            roles: [role.code],
            regionId: HOME,
          },
        });
        expect(created.statusCode, created.body).toBe(200);
        const id = created.json().id as number;
        if (!OUTER.has(role.code)) staffIds.push(id);
        expect(
          (
            await app.inject({
              method: 'POST',
              url: '/api/auth/set-password',
              payload: { userId: id, password: PASSWORD },
            })
          ).statusCode,
        ).toBe(200);
        const session = await app.inject({
          method: 'POST',
          url: '/api/auth-payload',
          payload: { username: `em-${role.code}`, password: PASSWORD },
          headers: { authorization: '' },
          remoteAddress: `10.88.${n}.1`,
        });
        expect(session.statusCode, session.body).toBe(200);
        users.set(role.code, {
          id: String(id),
          headers: { authorization: `Bearer ${session.json().token as string}` },
        });
      }
    }, 180_000);
    afterAll(async () => {
      await close?.();
      console.log(
        `edit-rule matrix on ${backend.name}: ${cells} cells (entity × state × role × stranger/owner-assigned), ${requests} update requests`,
      );
    });

    for (const def of forSelectedEntity(entities, (d) => d.id)) {
      const states = reachable(def);
      it(`${def.id}: ${states.length} state(s) × ${roles.length} roles`, async () => {
        const model = createEditRulesModel(
          def.edit,
          def.manifest.workflow ? registry.machines.get(def.manifest.workflow) : undefined,
        );
        const sampler = createSampler(def.schema, registry.references, ajv);
        // The schema and the rules the server adds (a report's period in order).
        const schemaValid = ajv.compile(def.schema);
        const serverRules = serverRulesOf(def.schema);
        const validate = (record: unknown) => schemaValid(record) && serverRules(record);
        const base = `/api${def.manifest.base}`;
        const subject = def.manifest.subject;
        const regionField = def.manifest.scope?.regionField;
        const files = findFileFields(def.schema)
          .filter((f) => !f.path.slice(0, -1).includes('*'))
          .map((f) => `/${f.path.filter((p) => p !== '*').join('/')}`);
        const pinned = new Set([
          ...(regionField ? [regionField, ...dependentsOf(def, regionField).map((d) => d.pointer)] : []),
          ...files,
        ]);
        const relational = model.assignedFields.length > 0 || JSON.stringify(def.edit).includes('"owner"');
        let seed = [...def.id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 5);

        // The record every cell starts from: full, in HOME.
        const original = inRegion(def, sampler((seed += 1), { full: true }), HOME);
        const created = await app.inject({
          method: 'POST',
          url: `${base}/create`,
          payload: original,
          headers: { 'accept-language': 'en' },
        });
        expect(created.statusCode, created.body).toBe(200);
        const id = created.json().id as number;
        const start = dataOf(created.json());

        // The changed record: another sample's value for every field but the region (and its
        // districts) and the files; a field drawn equal is drawn again, as long as the whole
        // stays valid. A district-like field takes another item under the same parent.
        let changed: Record<string, unknown> = structuredClone(start);
        // Fields some sample carried: one none does is forbidden by a condition every sample meets
        // (an outlet entry's product variant, for the kind of the outlet all samples link to).
        const drawn = new Set<string>();
        for (const [pointer, schema] of topFields(def)) {
          if (pinned.has(pointer)) continue;
          for (let attempt = 0; attempt < 12; attempt++) {
            const other = inRegion(def, sampler((seed += 1), { full: true }), HOME);
            let value = at(other, pointer);
            if (value !== undefined) drawn.add(pointer);
            // A staff-user field (or a list of them) takes another staff user.
            const items = schema.type === 'array' ? deref(def.schema, schema.items as JSONSchema7) : undefined;
            if ((schema as { staffUser?: boolean }).staffUser) value = staffIds[attempt % staffIds.length];
            else if ((items as { staffUser?: boolean } | undefined)?.staffUser)
              value = [staffIds[attempt % staffIds.length]];
            const ref = findReferenceFields(def.schema).find(
              (r) => r.parentField && `/${r.path.join('/')}` === pointer,
            );
            if (ref) {
              const parent = at(changed, `/${[...ref.path.slice(0, -1), ref.parentField].join('/')}`);
              value = registry.references
                .get(ref.list)!
                .items.filter((i) => i.parent === parent && i.id !== at(start, pointer))[attempt]?.id;
            }
            if (value === undefined || JSON.stringify(value) === JSON.stringify(at(start, pointer))) continue;
            const candidate = withField(changed, pointer, value);
            if (validate(candidate)) {
              changed = candidate;
              break;
            }
          }
        }
        const serverWritten = new Set(
          Object.entries(def.schema.properties ?? {})
            .filter(([, v]) => deref(def.schema, v as JSONSchema7)?.readOnly === true)
            .map(([k]) => k),
        );
        const untouched = topFields(def)
          .map(([p]) => p)
          .filter(
            (p) => !pinned.has(p) && !changedLeaves(start, changed).some((l) => l === p || l.startsWith(`${p}/`)),
          );

        for (const state of states) {
          for (const role of roles) {
            if (delegates.has(role.code) && def.id === access.userEntity) continue;
            const user = users.get(role.code)!;
            const variants =
              relational || role.scope === 'OWN' ? (['stranger', 'related'] as const) : (['stranger'] as const);
            for (const variant of variants) {
              cells += 1;
              const related = variant === 'related';
              // The record as this cell needs it: the state, the owner, the assigned users.
              let data = structuredClone(start);
              for (const field of model.assignedFields) {
                if (at(data, field) === undefined && !related) continue;
                data = withField(
                  data,
                  field,
                  related ? (Array.isArray(at(data, field)) ? [Number(user.id)] : Number(user.id)) : Number(adminId),
                );
              }
              await app.db.query(
                `UPDATE ${tableName(def.id)} SET data = $1::jsonb, status = $2, owner = $3 WHERE id = $4`,
                [JSON.stringify(data), state, related ? user.id : adminId, id],
              );
              const stored = await row(def, id);
              const me: ModelUser = { id: user.id, role: role.code, isOuter: OUTER.has(role.code) };
              const ruled = { status: state, owner: stored.owner, data };
              const what = `${cellName(def.id, state, role.code)} (${variant})`;

              // Every field changed at once; a file added (uploaded by the user for this record where they may).
              let body = { ...changed };
              for (const field of files) {
                let extra: string = crypto.randomUUID();
                if (role.ability.can('update', subject) && model.mayChange(me, ruled, field)) {
                  const { payload, headers } = multipart([{ name: 'added.png', type: 'image/png', content: PNG }]);
                  // Each from an address of its own: the per-address upload budget has its own test.
                  uploads += 1;
                  const up = await app.inject({
                    method: 'POST',
                    url: `/api/file-entity/save/${def.id}?record=${id}`,
                    payload,
                    headers: { ...headers, ...user.headers },
                    remoteAddress: `10.89.${Math.floor(uploads / 250)}.${(uploads % 250) + 1}`,
                  });
                  if (up.statusCode === 200) extra = up.json().list[0].id;
                }
                body = withField(body, field, [...((at(data, field) as string[] | undefined) ?? []), extra]);
              }
              const leaves = changedLeaves(data, body);
              const fixed = [
                ...new Set([...readOnlyFieldsOf(role.ability, subject), ...hiddenFieldsOf(role.ability, subject)]),
              ].filter((f) => !serverWritten.has(f.split('/')[1]!));
              const byRoles = fixed.filter((f) => JSON.stringify(at(data, f)) !== JSON.stringify(at(body, f)));
              const byRules = leaves.filter(
                (l) => !model.mayChange(me, ruled, l) && !byRoles.some((f) => l === f || l.startsWith(`${f}/`)),
              );
              const refused = [...byRoles, ...byRules].sort();
              const visible = role.scope === 'ALL' || role.scope === 'REGION' || stored.owner === user.id;
              const expected = !role.ability.can('update', subject)
                ? 403
                : !visible
                  ? 404
                  : refused.length || !model.mayUpdate(me, ruled)
                    ? 403
                    : 200;

              const all = await call('PUT', `${base}/update/${id}`, user.headers, { ...body, version: stored.version });
              expect(all.statusCode, `${what}: all fields: ${all.body.slice(0, 300)}`).toBe(expected);
              if (expected === 403 && role.ability.can('update', subject)) {
                expect(Object.keys(all.json().fieldErrors ?? {}).sort(), `${what}: the refused fields`).toEqual(
                  refused,
                );
              }
              if (expected !== 200)
                expect(await row(def, id), `${what}: a refused update wrote nothing`).toEqual(stored);
              if (expected !== 403 || !role.ability.can('update', subject) || !model.mayUpdate(me, ruled)) continue;

              // Only what may change: accepted, and stored as sent.
              let allowed = structuredClone(data);
              for (const leaf of leaves)
                if (!refused.some((r) => leaf === r || leaf.startsWith(`${r}/`)))
                  allowed = withField(allowed, leaf, at(body, leaf));
              const some = await call('PUT', `${base}/update/${id}`, user.headers, {
                ...allowed,
                version: stored.version,
              });
              expect(
                some.statusCode,
                `${what}: the allowed fields ${JSON.stringify(changedLeaves(data, allowed))}: ${some.body.slice(0, 300)}`,
              ).toBe(200);
              // Fields the server writes (readOnly) are its own: the rest is stored as sent.
              expect(withoutServerWritten(def.schema, dataOf(some.json())), `${what}: stored as sent`).toEqual(
                withoutServerWritten(def.schema, allowed),
              );
            }
          }
        }
        // Every field but the pinned ones was changed in the matrix, except a link to another
        // record (record 1 is the only one a sample can name), a constant, a field the server
        // writes (readOnly: no client sends it) and a field no sample carries (drawn, above).
        const unvarying = (p: string) => {
          const f = topFields(def).find(([x]) => x === p)![1] as JSONSchema7 & { entityRef?: unknown };
          return Boolean(f.entityRef) || f.const !== undefined || f.readOnly === true || !drawn.has(p);
        };
        expect(
          untouched.filter((p) => !unvarying(p)),
          `${def.id}: fields no cell changed`,
        ).toEqual([]);
      });
    }
  });
}
