/**
 * The role × route × action matrix, generated from schemas/_access/access.json and the entity
 * manifests — no list of expectations is written by hand. For the guest and every default
 * role, on every entity, each generic route (create, get, list-search, search-by-keyword,
 * export, update, delete, audit, find-by where the entity has unique fields, the upload of
 * files for the entity's records, the download of a record's file where it has files, and
 * for an entity with a status machine its events, history and transition) is allowed (2xx)
 * or denied (401 to a guest, 403 to a user) as the role's permissions say — a refused upload
 * stores no file; the rows each route shows follow the role's scope
 * (OWN: only the user's own — another user's record answers 404 and is absent from lists;
 * REGION: only the user's region where the entity has one; ALL: everything). Server-owned
 * fields in a body are ignored, and a role's read-only fields cannot be changed while
 * everything else can. A role's hidden fields are absent from everything that role's user reads
 * (get, list-search, search-by-keyword, export, find-by, audit, workflow history), cannot be
 * searched, filtered or sorted by, cannot be changed, and survive an update that leaves them out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import ExcelJS from 'exceljs';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry, type EntityDefinition } from '../../src/definitions/registry.ts';
import { resolveFieldSchema } from '../../src/shared/field-schema.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { findFileFields, findReferenceFields } from '../../src/server/store/record-schema.ts';
import { abilityOfRoles, hiddenFieldsOf, readOnlyFieldsOf, type PortalAbility } from '../../src/shared/ability.ts';
import { isHiddenField, touchesHiddenField } from '../../src/shared/hidden-fields.ts';
import { machineEvents } from '../../src/server/workflow/machine.ts';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';
import { createSampler } from '../support/sample-data.ts';
import { at, dataOf, withField } from '../support/records.ts';
import { multipart, PNG } from '../support/multipart.ts';
import { createRegionPlacer } from '../support/regions.ts';
import { changedLeaves, createEditRulesModel, type ModelUser } from '../support/edit-rules-model.ts';
import { cellName, forSelectedEntity } from '../support/test-selection.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const access = registry.access!;
const entities = [...registry.entities.values()].sort((a, b) => a.id.localeCompare(b.id));
const ajv = createServerAjv();
const samplers = new Map(entities.map((def) => [def.id, createSampler(def.schema, registry.references, ajv)]));
/** Per entity, the tests' model of its edit rules (which decide update and delete beside the permissions). */
const editModels = new Map(
  entities.map((def) => [
    def.id,
    createEditRulesModel(def.edit, def.manifest.workflow ? registry.machines.get(def.manifest.workflow) : undefined),
  ]),
);

type Scope = 'OWN' | 'REGION' | 'ALL';
interface Role {
  code: string;
  scope: Scope;
  ability: PortalAbility;
  guest: boolean;
}
const GUEST = '(guest)';
const roles: Role[] = [
  {
    code: GUEST,
    scope: 'OWN',
    guest: true,
    ability: abilityOfRoles([{ permissions: access.guest.permissions }]).ability,
  },
  ...access.roles.map((r) => ({ code: r.code, scope: r.scope, guest: false, ability: abilityOfRoles([r]).ability })),
];

// Two regions from the list the region fields name: the regional users' own and another.
const { HOME, ELSEWHERE, dependentsOf, inRegion } = createRegionPlacer(registry);

/**
 * For a reference field with a parent (a district): another item under the same parent, so
 * that changing it alone keeps the record valid; undefined for other fields.
 */
function siblingOf(def: EntityDefinition, data: Record<string, unknown>, pointer: string, attempt: number): unknown {
  const ref = findReferenceFields(def.schema).find((r) => r.parentField && `/${r.path.join('/')}` === pointer);
  if (!ref) return undefined;
  const parent = at(data, `/${[...ref.path.slice(0, -1), ref.parentField].join('/')}`);
  const items = registry.references
    .get(ref.list)!
    .items.filter((i) => i.parent === parent && i.id !== at(data, pointer));
  return items[attempt % Math.max(1, items.length)]?.id;
}

/** File fields as pointers to the array (or value) holding the ids. */
const filePointers = (def: EntityDefinition): string[] =>
  findFileFields(def.schema)
    .filter((f) => f.path.indexOf('*') >= f.path.length - 1 || !f.path.includes('*'))
    // A file the server writes (readOnly: an automatic report's XLSX) is not a client's to attach.
    .filter((f) => (def.schema.properties?.[f.path[0]!] as { readOnly?: boolean } | undefined)?.readOnly !== true)
    .map((f) => `/${f.path.filter((s) => s !== '*').join('/')}`);

// Server-owned fields a client might try to set (mass assignment).
const FORGED = {
  id: 987654,
  status: 'FORGED',
  owner: 'somebody-else',
  createdAt: '2000-01-01T00:00:00.000Z',
  updatedAt: '2000-01-01T00:00:00.000Z',
};

// A role with mayGrantRoles reaches some users beyond its permissions (the delegated user
// administration): that pair has its own contract in fair-price-admin.test.ts.
const delegates = new Set(access.roles.filter((r) => r.mayGrantRoles?.length).map((r) => r.code));
const cases = roles.flatMap((role) =>
  forSelectedEntity(entities, (d) => d.id)
    .filter((def) => !(delegates.has(role.code) && def.id === access.userEntity))
    .map((def) => [role.code, def.id] as const),
);
const userSubject = registry.entities.get(access.userEntity)!.manifest.subject;
// Per role that hides fields, each entity whose fields it hides (its own test of those fields).
const hiddenCases = roles
  .filter((r) => !r.guest)
  .flatMap((role) =>
    forSelectedEntity(entities, (d) => d.id)
      .filter((def) => hiddenFieldsOf(role.ability, def.manifest.subject).length)
      .map((def) => [role.code, def.id] as const),
  );
/** Values of a record at these pointers that are distinctive enough to look for in any answer (texts of 5+ characters). */
const telltales = (record: Record<string, unknown>, pointers: readonly string[]): string[] =>
  pointers
    .flatMap((p) => JSON.stringify(at(record, p) ?? null).match(/"[^"]{5,}"/g) ?? [])
    .map((q) => JSON.parse(q) as string);

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`role × route × action matrix on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    /** Per role code: the bearer header of its user (none for the guest), and its user id. */
    const sessions = new Map<string, { headers: Record<string, string>; id: string | null }>();
    /** Per OWN role: a second user with the same role, whose records the first must not reach. */
    const twins = new Map<string, { headers: Record<string, string>; id: string }>();
    /** Per entity: a record in the regional users' region, one elsewhere (admin's), and a linked file. */
    const fixtures = new Map<string, { home: number; elsewhere: number; fileId?: string }>();
    /** Per role and entity: records the role's twin created. */
    const twinRecords = new Map<string, number>();

    const call = (
      method: 'GET' | 'POST' | 'PUT' | 'DELETE',
      url: string,
      headers: Record<string, string>,
      payload?: unknown,
    ) => app.inject({ method, url, headers: { 'accept-language': 'en', ...headers }, payload: payload as never });
    let uploads = 0;
    /**
     * One image uploaded for records of the entity, each from an address of its own: the
     * per-address budget of anonymous uploads has its own test (files.test.ts).
     */
    const upload = (entity: string, headers: Record<string, string>) => {
      uploads += 1;
      const { payload, headers: form } = multipart([{ name: 'scan.png', type: 'image/png', content: PNG }]);
      return app.inject({
        method: 'POST',
        url: `/api/file-entity/save/${entity}`,
        payload,
        headers: { 'accept-language': 'en', ...form, ...headers },
        remoteAddress: `10.66.${Math.floor(uploads / 250)}.${(uploads % 250) + 1}`,
      });
    };
    const fileRows = async () =>
      (await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM file_entity')).rows[0]!.n;
    const asAdmin = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
      app.inject({ method, url, headers: { 'accept-language': 'en' }, payload: payload as never });
    const stored = async (def: EntityDefinition, id: number) => {
      const res = await asAdmin('GET', `/api${def.manifest.base}/get/${id}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Record<string, unknown> & {
        id: number;
        version: number;
        status: string;
        owner: string | null;
        createdAt: string;
      };
    };
    let seed = 1000;
    const sample = (def: EntityDefinition, region = HOME) =>
      inRegion(def, samplers.get(def.id)!((seed += 1), { full: true }), region);

    /**
     * Sends a record back with only the field at `pointer` changed (and the reference fields
     * under it, such as a district under a changed region); a mix that breaks a schema rule
     * (400) is drawn again. Returns the first answer that is not a 400.
     */
    const changeOnly = async (def: EntityDefinition, id: number, pointer: string, headers: Record<string, string>) => {
      const before = await stored(def, id);
      for (let attempt = 0; attempt < 8; attempt++) {
        const other = sample(def, ELSEWHERE);
        // A staff-user field takes another staff user (the server refuses ids that are not one).
        const staff = (resolveFieldSchema(def.schema, pointer) as { staffUser?: boolean } | undefined)?.staffUser
          ? staffIds.filter((s) => s !== at(before, pointer))[attempt % Math.max(1, staffIds.length - 1)]
          : undefined;
        const value = staff ?? siblingOf(def, before, pointer, attempt) ?? at(other, pointer);
        if (JSON.stringify(value) === JSON.stringify(at(before, pointer))) continue;
        let body = withField(dataOf(before), pointer, value);
        for (const dep of dependentsOf(def, pointer)) body = withField(body, dep.pointer, at(other, dep.pointer));
        const res = await call('PUT', `/api${def.manifest.base}/update/${id}`, headers, {
          ...body,
          version: before.version,
        });
        if (res.statusCode !== 400) return res;
      }
      throw new Error(`${def.id}: found no valid change of ${pointer} to try`);
    };

    let made = 0;
    /** Users made here who are staff (not outer), for fields that hold a staff user. */
    const staffIds: number[] = [1];
    const newUser = async (code: string, prefix: string, extra: Record<string, unknown> = {}) => {
      made += 1;
      const username = `${prefix}-${code}`.slice(0, 50);
      const created = await asAdmin('POST', '/api/portal-user/create', {
        username,
        firstName: 'Matrix',
        lastName: code,
        isOuter: access.outerRoles.includes(code),
        canLogin: true,
        roles: [code],
        regionId: HOME,
        ...extra,
      });
      expect(created.statusCode, created.body).toBe(200);
      const id = created.json().id as number;
      if (!access.outerRoles.includes(code)) staffIds.push(id);
      expect(
        (await asAdmin('POST', '/api/auth/set-password', { userId: id, password: 'matrix password 1' })).statusCode,
      ).toBe(200);
      const ip = `10.77.${made}.1`;
      const session = await app.inject({
        method: 'POST',
        url: '/api/auth-payload',
        payload: { username, password: 'matrix password 1' },
        headers: { authorization: '' },
        remoteAddress: ip,
      });
      expect(session.statusCode, session.body).toBe(200);
      return {
        headers: { authorization: `Bearer ${session.json().token as string}` },
        id: String(id),
        reply: session.json(),
      };
    };

    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
      for (const def of entities) {
        const files = filePointers(def);
        let fileId: string | undefined;
        if (files.length) {
          const { payload, headers } = multipart([{ name: 'scan.png', type: 'image/png', content: PNG }]);
          const up = await app.inject({ method: 'POST', url: `/api/file-entity/save/${def.id}`, payload, headers });
          expect(up.statusCode, up.body).toBe(200);
          fileId = up.json().list[0].id as string;
        }
        const home = await asAdmin(
          'POST',
          `/api${def.manifest.base}/create`,
          fileId ? withField(sample(def), files[0]!, [fileId]) : sample(def),
        );
        const elsewhere = await asAdmin('POST', `/api${def.manifest.base}/create`, sample(def, ELSEWHERE));
        expect(home.statusCode, home.body).toBe(200);
        expect(elsewhere.statusCode, elsewhere.body).toBe(200);
        fixtures.set(def.id, { home: home.json().id, elsewhere: elsewhere.json().id, fileId });
      }
      sessions.set(GUEST, { headers: { authorization: '' }, id: null });
      for (const role of roles.filter((r) => !r.guest)) {
        const user = await newUser(role.code, 'm');
        // Sign-in hands out the permission strings as they are, and the field rules beside them.
        const declared = access.roles.find((r) => r.code === role.code)!;
        // …plus the marker of the delegated user screens for a role that may grant roles.
        const marker = delegates.has(role.code) ? [`delegate ${userSubject}`] : [];
        expect([...user.reply.permissions].sort()).toEqual([...new Set([...declared.permissions, ...marker])].sort());
        expect(user.reply.fieldRules).toEqual(abilityOfRoles([declared]).fieldRules);
        sessions.set(role.code, user);
        if (role.scope !== 'OWN' || !entities.some((def) => role.ability.can('create', def.manifest.subject))) continue;
        const twin = await newUser(role.code, 't');
        twins.set(role.code, twin);
        for (const def of entities.filter((d) => role.ability.can('create', d.manifest.subject))) {
          const res = await call('POST', `/api${def.manifest.base}/create`, twin.headers, sample(def));
          expect(res.statusCode, res.body).toBe(200);
          twinRecords.set(`${role.code}:${def.id}`, res.json().id);
        }
      }
    }, 120_000);
    afterAll(async () => close?.());

    it.each(cases)('%s on %s', async (code, entity) => {
      const role = roles.find((r) => r.code === code)!;
      const def = registry.entities.get(entity)!;
      const base = `/api${def.manifest.base}`;
      const { headers, id: userId } = sessions.get(code)!;
      const subject = def.manifest.subject;
      const may = (action: string) => role.ability.can(action, subject);
      const denied = role.guest ? 401 : 403;
      const regionField = def.manifest.scope?.regionField;
      const fixture = fixtures.get(entity)!;
      /** Whether a stored row is within the role's scope. */
      const visible = (row: Record<string, unknown>): boolean =>
        role.scope === 'ALL' ||
        (role.scope === 'REGION'
          ? !regionField || at(row, regionField) === HOME
          : userId !== null && row.owner === userId);
      // A public registry (manifest publicRead) is read by anyone, every row; writes keep the scope.
      const publicRead = def.manifest.publicRead === true;
      const mayRead = publicRead || may('read');
      const readable = (row: Record<string, unknown>): boolean => publicRead || visible(row);
      const what = (route: string) => cellName(entity, code, route);
      const expectStatus = (res: { statusCode: number; body: string }, expected: number, route: string) =>
        expect(res.statusCode, `${what(route)}: ${res.body.slice(0, 200)}`).toBe(expected);
      // The entity's edit rules, as they apply to this role's user and a stored row.
      const rules = editModels.get(entity)!;
      const user: ModelUser = { id: userId, role: code, isOuter: access.outerRoles.includes(code) };
      const ruled = (row: Record<string, unknown>) => ({
        status: String(row.status),
        owner: (row.owner as string | null) ?? null,
        data: dataOf(row),
      });

      // create — server-owned fields in the body are ignored.
      const created = await call('POST', `${base}/create`, headers, { ...sample(def), ...FORGED, version: 7 });
      let own: number | undefined;
      if (may('create')) {
        expectStatus(created, 200, 'create');
        const body = created.json();
        expect(body, what('create (mass assignment)')).toMatchObject({ owner: userId, version: 1 });
        expect(body.status, what('create (mass assignment) /status')).not.toBe(FORGED.status);
        expect(body.id, what('create (mass assignment) /id')).not.toBe(FORGED.id);
        expect(body.createdAt, what('create (mass assignment) /createdAt')).not.toBe(FORGED.createdAt);
        own = body.id;
      } else expectStatus(created, denied, 'create');

      // The records to reach: the admin's here and elsewhere, the user's own, another user's of the same role.
      const targets = [
        fixture.home,
        fixture.elsewhere,
        ...(own ? [own] : []),
        ...(twinRecords.has(`${code}:${entity}`) ? [twinRecords.get(`${code}:${entity}`)!] : []),
      ];
      const rows = await Promise.all(targets.map((id) => stored(def, id)));
      const seen = rows
        .filter(readable)
        .map((r) => r.id)
        .sort((a, b) => a - b);
      const unseen = rows.filter((r) => !readable(r)).map((r) => r.id);
      if (role.scope === 'OWN')
        expect(
          rows.filter((r) => !visible(r)).map((r) => r.id),
          what('fixtures'),
        ).toContain(fixture.home);

      // get and audit, one record at a time
      for (const row of rows) {
        const expected = !mayRead ? denied : readable(row) ? 200 : 404;
        expectStatus(await call('GET', `${base}/get/${row.id}`, headers), expected, `get #${row.id}`);
        expectStatus(await call('GET', `${base}/audit/${row.id}`, headers), expected, `audit #${row.id}`);
      }

      // The status machine's routes. Events and history are read like the record. A transition
      // needs read and the event's permission "<EVENT> <Subject>" (else 403, 401 to a guest) —
      // before any row is looked at —, then the row within the scope (else 404); sent with a
      // stale version, one that gets that far answers 409 with the current version, changing nothing.
      const machine = def.manifest.workflow ? registry.machines.get(def.manifest.workflow) : undefined;
      if (machine) {
        const events = machineEvents(machine);
        const held = events.filter((e) => may(e));
        const lacking = events.filter((e) => !may(e));
        for (const row of rows) {
          const reading = !may('read') ? denied : readable(row) ? 200 : 404;
          const offered = await call('GET', `${base}/events/${row.id}`, headers);
          expectStatus(offered, reading, `events #${row.id}`);
          if (reading === 200) {
            const types = (offered.json().events as Array<{ type: string }>).map((e) => e.type);
            expect(
              types.filter((t) => !may(t)),
              what(`events #${row.id} offers only events the role holds`),
            ).toEqual([]);
            expect(
              types.filter((t) => !machine.states[row.status]?.on?.[t]),
              what(`events #${row.id} offers only events of ${row.status}`),
            ).toEqual([]);
          }
          const history = await call('GET', `${base}/history/${row.id}`, headers);
          expectStatus(history, reading, `history #${row.id}`);
          if (reading === 200) expect(Array.isArray(history.json().list), what(`history #${row.id}`)).toBe(true);
          const stale = row.version + 100;
          if (held.length) {
            const res = await call('POST', `${base}/transition/${row.id}`, headers, { event: held[0], version: stale });
            const expected = !may('read') ? denied : visible(row) ? 409 : 404;
            expectStatus(res, expected, `transition ${held[0]} #${row.id}`);
            if (expected === 409)
              expect(res.json().details, what(`transition ${held[0]} #${row.id} reached the version check`)).toEqual({
                currentVersion: row.version,
              });
          }
          if (lacking.length)
            expectStatus(
              await call('POST', `${base}/transition/${row.id}`, headers, { event: lacking[0], version: stale }),
              denied,
              `transition ${lacking[0]} #${row.id}`,
            );
          expect((await stored(def, row.id)).version, what(`transitions left #${row.id} unchanged`)).toBe(row.version);
        }
      }

      // list-search, search-by-keyword and export: the rows of the scope, no others
      // Registries seeded on first start can hold more than a page: read every page.
      const list = await call('POST', `${base}/list-search`, headers, { itemsPerPage: 100 });
      const pages = list.statusCode === 200 ? Math.ceil((list.json().total as number) / 100) : 0;
      const allRows =
        list.statusCode === 200 ? [...(list.json().list as Array<Record<string, unknown> & { id: number }>)] : [];
      for (let page = 1; page < pages; page++) {
        allRows.push(
          ...((await call('POST', `${base}/list-search`, headers, { page, itemsPerPage: 100 })).json()
            .list as typeof allRows),
        );
      }
      const keyword = await call('GET', `${base}/search-by-keyword?keyword=&limit=50`, headers);
      const exported = await call('GET', `${base}/export`, headers);
      if (!mayRead) {
        expectStatus(list, denied, 'list-search');
        if (def.manifest.keywordFields?.length) expectStatus(keyword, denied, 'search-by-keyword');
        expectStatus(exported, denied, 'export');
      } else {
        expectStatus(list, 200, 'list-search');
        const listed = allRows;
        expect(listed.length, what('list-search (every page together)')).toBe(list.json().total);
        expect(
          listed.filter((r) => !readable(r)).map((r) => r.id),
          what('list-search rows outside the scope'),
        ).toEqual([]);
        const listedIds = listed.map((r) => r.id);
        for (const id of seen) expect(listedIds, what(`list-search shows #${id}`)).toContain(id);
        for (const id of unseen) expect(listedIds, what(`list-search hides #${id}`)).not.toContain(id);
        if (def.manifest.keywordFields?.length) {
          expectStatus(keyword, 200, 'search-by-keyword');
          const found = (keyword.json().list as Array<{ id: number }>).map((r) => r.id);
          // The keyword search answers at most `limit` (50) rows: all of the scope's, or 50 of them.
          if (listedIds.length <= 50)
            expect(
              [...found].sort((a, b) => a - b),
              what('search-by-keyword'),
            ).toEqual([...listedIds].sort((a, b) => a - b));
          else {
            expect(found.length, what('search-by-keyword (limit)')).toBe(50);
            expect(
              found.filter((id) => !listedIds.includes(id)),
              what('search-by-keyword rows outside the scope'),
            ).toEqual([]);
          }
        }
        expectStatus(exported, 200, 'export');
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.load(exported.rawPayload as never);
        expect(workbook.worksheets[0]!.actualRowCount - 1, what('export rows')).toBe(listed.length);
      }

      // find-by a unique field: the record, or null when it may not be read
      for (const pointer of def.manifest.unique ?? []) {
        const row = rows[0]!;
        const value = at(row, pointer);
        if (value === undefined) continue;
        const res = await call(
          'GET',
          `${base}/find-by?field=${encodeURIComponent(pointer)}&value=${encodeURIComponent(String(value))}`,
          headers,
        );
        expectStatus(res, 200, `find-by ${pointer}`);
        expect(res.json().record?.id ?? null, what(`find-by ${pointer}`)).toBe(
          mayRead && readable(row) ? row.id : null,
        );
      }

      // the upload of files for a new record: whoever may create one (one who may only update
      // names the record the files are for: edit-rules.test.ts); a refusal stores nothing
      const filesBefore = await fileRows();
      const uploaded = await upload(entity, headers);
      if (may('create')) expectStatus(uploaded, 200, 'upload');
      else if (may('update')) {
        expectStatus(uploaded, 403, 'upload without a record');
        expect(await fileRows(), what('refused upload stored no file')).toBe(filesBefore);
      } else {
        expectStatus(uploaded, denied, 'upload');
        expect(uploaded.json().message, what('upload refusal (localized)')).toBe(
          role.guest ? 'Please sign in' : 'You have no permission to do this action',
        );
        expect(await fileRows(), what('refused upload stored no file')).toBe(filesBefore);
      }

      // the download of a record's file: exactly for whoever may read the record
      if (fixture.fileId) {
        const res = await call('GET', `/api/file-entity/get/${fixture.fileId}`, headers);
        expectStatus(res, may('read') && visible(rows[0]!) ? 200 : 404, 'file download');
      }

      // update — the stored data sent back (plus forged server-owned fields) by each record; the
      // edit rules of the record's status decide whether this user may update it at all
      for (const row of rows) {
        const res = await call('PUT', `${base}/update/${row.id}`, headers, {
          ...dataOf(row),
          ...FORGED,
          version: row.version,
        });
        const expected = !may('update') ? denied : !visible(row) ? 404 : rules.mayUpdate(user, ruled(row)) ? 200 : 403;
        expectStatus(res, expected, `update #${row.id}`);
        const after = await stored(def, row.id);
        if (expected === 200) {
          expect(after, what('update (mass assignment)')).toMatchObject({
            id: row.id,
            status: row.status,
            owner: row.owner,
            createdAt: row.createdAt,
            version: row.version + 1,
          });
        } else expect(after.version, what('refused update wrote nothing')).toBe(row.version);
      }

      // delete — a record made for it (when allowed), and the records outside the scope
      if (may('delete')) {
        const victim = await asAdmin('POST', `${base}/create`, sample(def));
        const victimRow = await stored(def, victim.json().id);
        const deleting = !visible(victimRow) ? 404 : rules.mayDelete(user, ruled(victimRow)) ? 200 : 403;
        expectStatus(await call('DELETE', `${base}/delete/${victimRow.id}`, headers), deleting, 'delete');
        if (deleting !== 200)
          expect(
            (await asAdmin('GET', `${base}/get/${victimRow.id}`)).statusCode,
            what('refused delete left the record'),
          ).toBe(200);
        for (const id of unseen)
          expectStatus(await call('DELETE', `${base}/delete/${id}`, headers), 404, `delete #${id}`);
      } else {
        for (const row of rows)
          expectStatus(await call('DELETE', `${base}/delete/${row.id}`, headers), denied, `delete #${row.id}`);
      }
      for (const row of rows.filter((r) => !may('delete') || !visible(r))) {
        expect((await asAdmin('GET', `${base}/get/${row.id}`)).statusCode, what(`delete left #${row.id}`)).toBe(200);
      }

      // field-level rules: each read-only field cannot change; everything else the edit rules allow can
      // A field the server writes (schema readOnly) is ignored in anyone's input, not refused: not tried here.
      const readOnly = readOnlyFieldsOf(role.ability, subject).filter(
        (p) => (resolveFieldSchema(def.schema, p) as { readOnly?: boolean } | undefined)?.readOnly !== true,
      );
      const target = rows.find(
        (r) => visible(r) && (role.scope !== 'OWN' || r.owner === userId) && rules.mayUpdate(user, ruled(r)),
      );
      if (!readOnly.length || !may('update') || !target) return;
      for (const pointer of readOnly) {
        const before = await stored(def, target.id);
        const res = await changeOnly(def, target.id, pointer, headers);
        expectStatus(res, 403, `update of read-only ${pointer}`);
        expect(Object.keys(res.json().fieldErrors ?? {}), what(`fieldErrors of ${pointer}`)).toContain(pointer);
        expect(res.json().fieldErrors[pointer], what(`update of read-only ${pointer}`)).toBe(
          'You may not change this field',
        );
        expect((await stored(def, target.id)).version, what(`refused ${pointer} wrote nothing`)).toBe(before.version);
      }
      // Another record's worth of data, with the read-only and hidden fields, the region and the files kept.
      const before = await stored(def, target.id);
      const pinned = [
        ...readOnly,
        ...hiddenFieldsOf(role.ability, subject),
        ...(regionField ? [regionField] : []),
        ...filePointers(def),
      ];
      let body = dataOf(sample(def));
      for (const pointer of [...pinned, ...pinned.flatMap((p) => dependentsOf(def, p).map((d) => d.pointer))]) {
        body = withField(body, pointer, at(before, pointer));
      }
      // …and what the edit rules keep in the record's status.
      for (const leaf of changedLeaves(dataOf(before), body)) {
        if (!rules.mayChange(user, ruled(before), leaf)) body = withField(body, leaf, at(before, leaf));
      }
      const res = await call('PUT', `${base}/update/${target.id}`, headers, { ...body, version: before.version });
      expectStatus(res, 200, 'update of every other field');
    });

    it.each(hiddenCases)('%s does not see the fields it hides of %s', async (code, entity) => {
      const role = roles.find((r) => r.code === code)!;
      const def = registry.entities.get(entity)!;
      const base = `/api${def.manifest.base}`;
      const subject = def.manifest.subject;
      const hidden = hiddenFieldsOf(role.ability, subject);
      const what = (route: string) => cellName(entity, code, route);
      const expectStatus = (res: { statusCode: number; body: string }, expected: number, route: string) =>
        expect(res.statusCode, `${what(route)}: ${res.body.slice(0, 200)}`).toBe(expected);
      const recipients = def.manifest.scope?.recipients ?? [];
      // A user of the role who can see a record of the entity: any record in their region for a
      // wide scope; for OWN, one they create, or one addressed to their (proven) identifiers.
      const canCreate = role.ability.can('create', subject);
      const reach = role.scope !== 'OWN' ? 'scope' : canCreate ? 'own' : recipients.length ? 'recipient' : undefined;
      expect(reach, what('a role hiding fields must be able to see a record')).toBeDefined();
      const identity = Object.fromEntries(
        recipients.map((r) => [
          r.userField.slice(1),
          at(samplers.get(access.userEntity)!((seed += 1), { full: true }), r.userField),
        ]),
      );
      const user = await newUser(
        code,
        `h${made}`,
        reach === 'recipient' ? { ...identity, [access.identityVerifiedField!.slice(1)]: true } : {},
      );
      let data = sample(def);
      for (const r of reach === 'recipient' ? recipients : [])
        data = withField(data, r.field, identity[r.userField.slice(1)]);
      const created =
        reach === 'own'
          ? await call('POST', `${base}/create`, user.headers, data)
          : await asAdmin('POST', `${base}/create`, data);
      expectStatus(created, 200, 'create');
      const id = created.json().id as number;
      const full = await stored(def, id);
      for (const p of hidden) expect(at(full, p), what(`sample fills hidden ${p}`)).not.toBeUndefined();
      // A step of its workflow, so that the history has a row to show.
      const machine = def.manifest.workflow ? registry.machines.get(def.manifest.workflow) : undefined;
      const event =
        machine &&
        Object.entries(machine.states[full.status]?.on ?? {}).find(
          ([, t]) => !(Array.isArray(t) ? t : [t]).some((x) => x.payload || x.guard),
        )?.[0];
      if (event)
        expectStatus(
          await asAdmin('POST', `${base}/transition/${id}`, { event, version: full.version, comment: 'matrix step' }),
          200,
          `transition ${event}`,
        );
      const secrets = telltales(full, hidden);
      const withoutSecrets = (res: { body: string }, route: string) => {
        for (const secret of secrets)
          expect(res.body.includes(secret), what(`${route} tells a hidden value`)).toBe(false);
      };
      const lacksHidden = (record: Record<string, unknown>, route: string) => {
        for (const p of hidden) expect(at(record, p), what(`${route} shows ${p}`)).toBeUndefined();
      };
      if (reach === 'own') lacksHidden(created.json(), 'create answer');

      const got = await call('GET', `${base}/get/${id}`, user.headers);
      expectStatus(got, 200, 'get');
      lacksHidden(got.json(), 'get');
      withoutSecrets(got, 'get');
      // The rest of the record is there.
      const shownField = Object.keys(dataOf(full)).find((k) => !touchesHiddenField(hidden, `/${k}`));
      if (shownField) expect(got.json()[shownField], what(`get keeps /${shownField}`)).toEqual(full[shownField]);

      const list = await call('POST', `${base}/list-search`, user.headers, { itemsPerPage: 100 });
      expectStatus(list, 200, 'list-search');
      const row = (list.json().list as Array<Record<string, unknown>>).find((r) => r.id === id);
      expect(row, what('list-search shows the record')).toBeDefined();
      lacksHidden(row!, 'list-search');
      withoutSecrets(list, 'list-search');

      if (def.manifest.keywordFields?.length) {
        const labels = await call('GET', `${base}/search-by-keyword?keyword=&limit=50`, user.headers);
        expectStatus(labels, 200, 'search-by-keyword');
        withoutSecrets(labels, 'search-by-keyword');
        // Searching by a hidden value finds nothing: the keyword is no way to test guesses.
        for (const p of (def.manifest.keywordFields ?? []).filter((k) => isHiddenField(hidden, k))) {
          const value = at(full, p);
          if (typeof value !== 'string' || value.length < 5) continue;
          const found = await call(
            'GET',
            `${base}/search-by-keyword?keyword=${encodeURIComponent(value)}&limit=50`,
            user.headers,
          );
          expect(
            (found.json().list as Array<{ id: number }>).map((r) => r.id),
            what(`search-by-keyword by hidden ${p}`),
          ).not.toContain(id);
          const keywordFilter = def.grid.filters.find((f) => f.kind === 'keyword');
          if (keywordFilter) {
            const filtered = await call(
              'POST',
              `${base}/list-search?${keywordFilter.name}=${encodeURIComponent(value)}`,
              user.headers,
              {},
            );
            expect(
              (filtered.json().list as Array<{ id: number }>).map((r) => r.id),
              what(`keyword filter by hidden ${p}`),
            ).not.toContain(id);
          }
        }
      }
      // Filtering or sorting by a hidden field is refused like an unknown filter or sort.
      for (const f of def.grid.filters.filter((g) => g.field && touchesHiddenField(hidden, g.field))) {
        const name = f.kind === 'range' || f.kind === 'dateRange' ? `${f.name}From` : f.name;
        expectStatus(
          await call(
            'POST',
            `${base}/list-search?${name}=${encodeURIComponent(String(at(full, f.field!) ?? '1'))}`,
            user.headers,
            {},
          ),
          400,
          `filter by hidden ${f.name}`,
        );
      }
      for (const c of def.grid.columns.filter((col) => col.sortable && isHiddenField(hidden, col.field))) {
        expectStatus(
          await call('POST', `${base}/list-search`, user.headers, { sortBy: [c.field] }),
          400,
          `sort by hidden ${c.field}`,
        );
      }

      const exported = await call('GET', `${base}/export`, user.headers);
      expectStatus(exported, 200, 'export');
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(exported.rawPayload as never);
      const cells: string[] = [];
      workbook.worksheets[0]!.eachRow((r) => r.eachCell((cell) => cells.push(String(cell.text))));
      expect(workbook.worksheets[0]!.actualRowCount, what('export rows')).toBeGreaterThan(1);
      for (const secret of secrets)
        expect(
          cells.filter((text) => text.includes(secret)),
          what('export tells a hidden value'),
        ).toEqual([]);

      for (const pointer of def.manifest.unique ?? []) {
        const value = at(full, pointer);
        if (value === undefined) continue;
        if (isHiddenField(hidden, pointer)) {
          // A lookup by a hidden field would tell its value: nothing is found.
          expect(
            (
              await call(
                'GET',
                `${base}/find-by?field=${encodeURIComponent(pointer)}&value=${encodeURIComponent(String(value))}`,
                user.headers,
              )
            ).json(),
            what(`find-by hidden ${pointer}`),
          ).toEqual({ record: null });
          continue;
        }
        const res = await call(
          'GET',
          `${base}/find-by?field=${encodeURIComponent(pointer)}&value=${encodeURIComponent(String(value))}`,
          user.headers,
        );
        expectStatus(res, 200, `find-by ${pointer}`);
        expect(res.json().record?.id, what(`find-by ${pointer}`)).toBe(id);
        lacksHidden(res.json().record, `find-by ${pointer}`);
        withoutSecrets(res, `find-by ${pointer}`);
      }

      const audit = await call('GET', `${base}/audit/${id}`, user.headers);
      expectStatus(audit, 200, 'audit');
      withoutSecrets(audit, 'audit');
      for (const entry of audit.json().list as Array<{ changed: string[] }>) {
        expect(
          entry.changed.filter((name) => isHiddenField(hidden, `/${name}`)),
          what('audit names a hidden field'),
        ).toEqual([]);
      }
      if (machine) {
        const history = await call('GET', `${base}/history/${id}`, user.headers);
        expectStatus(history, 200, 'history');
        if (event) expect(history.json().list.length, what('history rows')).toBeGreaterThan(0);
        withoutSecrets(history, 'history');
      }

      if (!role.ability.can('update', subject)) return;
      // A change to a hidden field is refused like one to a read-only field, and writes nothing.
      for (const pointer of hidden) {
        const before = await stored(def, id);
        const res = await changeOnly(def, id, pointer, user.headers);
        expectStatus(res, 403, `update of hidden ${pointer}`);
        expect(Object.keys(res.json().fieldErrors ?? {}), what(`fieldErrors of ${pointer}`)).toContain(pointer);
        expect((await stored(def, id)).version, what(`refused ${pointer} wrote nothing`)).toBe(before.version);
      }
      // The record as the user sees it, sent back: saved, with the hidden values as they were.
      const seen = (await call('GET', `${base}/get/${id}`, user.headers)).json();
      expectStatus(
        await call('PUT', `${base}/update/${id}`, user.headers, seen),
        200,
        'update without the hidden fields',
      );
      const after = await stored(def, id);
      expect(after.version, what('update without the hidden fields saved')).toBe(seen.version + 1);
      for (const p of hidden) expect(at(after, p), what(`update kept ${p}`)).toEqual(at(full, p));
    });

    it('takes read-only fields from the stored role records, as staff edit them', async () => {
      // A shared registry (no region) and one of its plain top-level fields.
      const def = entities.find(
        (d) => !d.manifest.scope?.regionField && d.id !== access.roleEntity && d.id !== access.userEntity,
      )!;
      const pointer = `/${Object.entries(def.schema.properties ?? {}).find(([, p]) => typeof p === 'object' && p.type === 'string' && !p.format && !(p as { reference?: unknown }).reference)![0]}`;
      const subject = def.manifest.subject;
      const roles = `/api${registry.entities.get(access.roleEntity)!.manifest.base}`;
      const role = await asAdmin('POST', `${roles}/create`, {
        code: 'matrix-custom',
        name: 'Custom',
        scope: 'ALL',
        permissions: [`read ${subject}`, `update ${subject}`],
        readOnlyFields: [{ subject, fields: [pointer] }],
      });
      expect(role.statusCode, role.body).toBe(200);
      const user = await newUser('matrix-custom', 'c');
      expect(user.reply.fieldRules).toEqual([{ action: 'update', subject, fields: [pointer], inverted: true }]);
      const id = fixtures.get(def.id)!.home;
      const refused = await changeOnly(def, id, pointer, user.headers);
      expect(refused.statusCode, refused.body).toBe(403);
      expect(Object.keys(refused.json().fieldErrors)).toEqual([pointer]);

      // Staff lift the rule: at the next sign-in the field may change.
      const lifted = await asAdmin('PUT', `${roles}/update/${role.json().id}`, {
        ...dataOf(role.json()),
        readOnlyFields: [],
        version: role.json().version,
      });
      expect(lifted.statusCode, lifted.body).toBe(200);
      const again = await newUser('matrix-custom', 'd');
      expect(again.reply.fieldRules).toEqual([]);
      expect((await changeOnly(def, id, pointer, again.headers)).statusCode).toBe(200);
    });

    it('takes hidden fields from the stored role records: left out of answers, never wiped or changed, lifted by staff', async () => {
      // A shared registry (no region) with a required, unique plain text field: an update without
      // it is whole only once the store puts the stored value back, and find-by may not look it up.
      const requiredText = (d: EntityDefinition) =>
        (d.schema.required ?? []).find((name) => {
          const p = d.schema.properties?.[name];
          return (
            typeof p === 'object' &&
            p.type === 'string' &&
            !p.format &&
            !p.enum &&
            !(p as { reference?: unknown }).reference &&
            d.manifest.unique?.includes(`/${name}`)
          );
        });
      const def = entities.find(
        (d) =>
          !d.manifest.scope?.regionField &&
          d.id !== access.roleEntity &&
          d.id !== access.userEntity &&
          !d.manifest.publicRead &&
          requiredText(d),
      )!;
      const pointer = `/${requiredText(def)!}`;
      const subject = def.manifest.subject;
      const base = `/api${def.manifest.base}`;
      const roles = `/api${registry.entities.get(access.roleEntity)!.manifest.base}`;
      const role = await asAdmin('POST', `${roles}/create`, {
        code: 'matrix-hidden',
        name: 'Hidden',
        scope: 'ALL',
        permissions: [`read ${subject}`, `update ${subject}`],
        hiddenFields: [{ subject, fields: [pointer] }],
      });
      expect(role.statusCode, role.body).toBe(200);
      const user = await newUser('matrix-hidden', 'c');
      expect(user.reply.fieldRules).toEqual([{ action: 'read', subject, fields: [pointer], inverted: true }]);
      const id = fixtures.get(def.id)!.home;
      const full = await stored(def, id);
      expect(at(full, pointer)).toEqual(expect.any(String));
      // Looking the record up by the hidden field finds nothing (staff find it).
      const findBy = `${base}/find-by?field=${encodeURIComponent(pointer)}&value=${encodeURIComponent(String(at(full, pointer)))}`;
      expect((await asAdmin('GET', findBy)).json().record?.id).toBe(id);
      expect((await call('GET', findBy, user.headers)).json()).toEqual({ record: null });

      const seen = await call('GET', `${base}/get/${id}`, user.headers);
      expect(seen.statusCode, seen.body).toBe(200);
      expect(at(seen.json(), pointer)).toBeUndefined();
      // Sent back as seen (without the field): saved, the field kept as stored.
      const saved = await call('PUT', `${base}/update/${id}`, user.headers, seen.json());
      expect(saved.statusCode, saved.body).toBe(200);
      expect(at(saved.json(), pointer)).toBeUndefined();
      expect(at(await stored(def, id), pointer)).toEqual(at(full, pointer));
      // A value for it — a change — is refused, naming the field; so is emptying it.
      const refused = await changeOnly(def, id, pointer, user.headers);
      expect(refused.statusCode, refused.body).toBe(403);
      expect(Object.keys(refused.json().fieldErrors)).toEqual([pointer]);
      const now = await call('GET', `${base}/get/${id}`, user.headers);
      const emptied = await call('PUT', `${base}/update/${id}`, user.headers, withField(now.json(), pointer, null));
      expect(emptied.statusCode, emptied.body).toBe(403);
      expect(at(await stored(def, id), pointer)).toEqual(at(full, pointer));

      // Staff lift the rule: at the next sign-in the field is there.
      const stale = (await asAdmin('GET', `${roles}/get/${role.json().id}`)).json();
      const lifted = await asAdmin('PUT', `${roles}/update/${stale.id}`, {
        ...dataOf(stale),
        hiddenFields: [],
        version: stale.version,
      });
      expect(lifted.statusCode, lifted.body).toBe(200);
      const again = await newUser('matrix-hidden', 'd');
      expect(again.reply.fieldRules).toEqual([]);
      expect(at((await call('GET', `${base}/get/${id}`, again.headers)).json(), pointer)).toEqual(at(full, pointer));
    });
  });
}
