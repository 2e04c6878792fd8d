/**
 * The semantic definitions diff (issue #16, items 4 and 5): `npm run defs:diff -- <ref>` lists
 * what an analyst's change means, breaking ones marked; `npm run check -- --base <ref>` fails
 * on a breaking data change without a migration, naming the file, the field and the step. The
 * finding: renaming contractor.director to directorName passed every check and lost the data.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DefinitionSources } from '../../src/definitions/sources.ts';
import { diffDefinitions, type DefinitionChange } from '../../src/definitions/diff.ts';
import { migrationProblems } from '../../src/definitions/diff/migrations.ts';
import { loadComparableDefinitions } from '../../src/definitions/diff/load.ts';
import { formatChanges } from '../../src/definitions/diff/text.ts';
import { REPO_ROOT } from '../../src/server/app.ts';

let pristine: DefinitionSources;
beforeAll(async () => {
  const { sources, problems } = await loadComparableDefinitions(REPO_ROOT);
  expect(problems).toEqual([]);
  pristine = sources;
});

const clone = (): DefinitionSources =>
  new Map([...pristine].map(([k, v]) => [k, { ...v, json: structuredClone(v.json) }]));
const json = (s: DefinitionSources, file: string): any => s.get(file)!.json;
const put = (s: DefinitionSources, file: string, value: unknown) => s.set(file, { path: file, json: value });
const CONTRACTOR = 'schemas/contractor/schema.json';

/** contractor.director → directorName, the rename, in the schema only. */
function renameDirector(s: DefinitionSources): void {
  const props = json(s, CONTRACTOR).properties;
  props.directorName = props.director;
  delete props.director;
}

/** Bumps contractor to `version` with one migration to it. */
function migrate(s: DefinitionSources, version: number, steps: unknown[], extra: object = {}): void {
  json(s, 'schemas/contractor/entity.json').schemaVersion = version;
  put(s, `schemas/contractor/migrations/${version}.json`, { description: 'Test migration.', steps, ...extra });
}

const problemsOf = (s: DefinitionSources) => migrationProblems(pristine, s, diffDefinitions(pristine, s));
const kinds = (changes: DefinitionChange[]) => changes.map((c) => `${c.kind}${c.breaking ? '!' : ''} ${c.text}`);

describe('defs:diff and check --base: fields and migrations', () => {
  it('finds no change and no problem in an unchanged tree', () => {
    const s = clone();
    expect(diffDefinitions(pristine, s)).toEqual([]);
    expect(problemsOf(s)).toEqual([]);
    expect(formatChanges([], 'main')).toBe('No definition changes since main.');
  });

  it('fails a rename of contractor.director without a migration, naming /director and the step to add', () => {
    const s = clone();
    renameDirector(s);
    const changes = diffDefinitions(pristine, s);
    expect(changes).toContainEqual(
      expect.objectContaining({
        group: 'contractor',
        kind: 'field-renamed',
        breaking: true,
        field: '/director',
        to: '/directorName',
        text: 'removed /director, added /directorName (a rename?)',
      }),
    );
    expect(problemsOf(s)).toEqual([
      {
        file: CONTRACTOR,
        pointer: '/properties/director',
        message:
          '/director was removed (renamed to /directorName?) but no migration in schemas/contractor/migrations/ covers it: ' +
          'bump schemaVersion to 2 in schemas/contractor/entity.json and add migrations/2.json with ' +
          '{ "op": "rename", "from": "/director", "to": "/directorName" }',
      },
    ]);
  });

  it('passes the rename with schemaVersion 2 and migrations/2.json renaming /director', () => {
    const s = clone();
    renameDirector(s);
    migrate(s, 2, [{ op: 'rename', from: '/director', to: '/directorName' }]);
    expect(problemsOf(s)).toEqual([]);
    expect(kinds(diffDefinitions(pristine, s))).toEqual([
      'version-changed schemaVersion 1 → 2',
      'migration-added migration 2 added: Test migration.',
      'field-renamed! removed /director, added /directorName (a rename?)',
    ]);
  });

  it('asks for the migration file when only the version was bumped, and for a step when a migration misses the field', () => {
    const s = clone();
    renameDirector(s);
    json(s, 'schemas/contractor/entity.json').schemaVersion = 2;
    expect(problemsOf(s)).toEqual([
      expect.objectContaining({
        pointer: '/properties/director',
        message: expect.stringMatching(
          /no migration in schemas\/contractor\/migrations\/ covers it: add migrations\/2\.json with \{ "op": "rename"/,
        ),
      }),
    ]);
    migrate(s, 2, [{ op: 'remove', path: '/fax' }]);
    expect(problemsOf(s)).toEqual([
      expect.objectContaining({
        pointer: '/properties/director',
        message: expect.stringMatching(
          /no migration in schemas\/contractor\/migrations\/ \(2\.json\) covers it: add to migrations\/2\.json the step \{ "op": "rename"/,
        ),
      }),
    ]);
  });

  it('fails an enum value removed without mapValues of that value, and passes once it is mapped', () => {
    const s = clone();
    const status = json(s, CONTRACTOR).properties.businessStatus;
    status.oneOf = status.oneOf.filter((o: { const: string }) => o.const !== 'BANKRUPT');
    expect(diffDefinitions(pristine, s)).toEqual([
      expect.objectContaining({
        kind: 'value-removed',
        breaking: true,
        value: 'BANKRUPT',
        text: 'field /businessStatus: value BANKRUPT removed',
      }),
    ]);
    expect(problemsOf(s)[0]?.message).toMatch(
      /^\/businessStatus no longer allows the value BANKRUPT but .*\{ "op": "mapValues", "path": "\/businessStatus", "map": \{ "BANKRUPT": /,
    );
    migrate(s, 2, [{ op: 'mapValues', path: '/businessStatus', map: { SUSPENDED: 'ACTIVE' } }]);
    expect(problemsOf(s)).toHaveLength(1);
    migrate(s, 2, [{ op: 'mapValues', path: '/businessStatus', map: { BANKRUPT: 'LIQUIDATED' } }]);
    expect(problemsOf(s)).toEqual([]);
  });

  it('needs a default for a field made required, a step for a retyped field, and a script covers what it lists', () => {
    const s = clone();
    json(s, CONTRACTOR).required.push('email');
    json(s, CONTRACTOR).properties.employeesCount.type = 'string';
    expect(kinds(diffDefinitions(pristine, s))).toEqual([
      'required-added! field /email is now required (stored records may lack it)',
      'field-retyped! field /employeesCount changed type from integer to string',
    ]);
    expect(problemsOf(s).map((p) => p.message)).toEqual([
      expect.stringMatching(
        /^\/email is now required .*\{ "op": "default", "path": "\/email", "value": "<a value>" \}/,
      ),
      expect.stringMatching(
        /^\/employeesCount changed type from integer to string but .*"script" step listing "\/employeesCount"/,
      ),
    ]);
    migrate(
      s,
      2,
      [
        { op: 'default', path: '/email', value: 'unknown@example.uz' },
        { op: 'script', module: './2.ts' },
      ],
      {
        covers: ['/employeesCount'],
      },
    );
    expect(problemsOf(s)).toEqual([]);
  });

  it('does not call widening an integer to a number breaking, nor adding an optional field', () => {
    const s = clone();
    json(s, CONTRACTOR).properties.employeesCount.type = 'number';
    json(s, CONTRACTOR).properties.website = {
      title: 'entity.contractor.field.website',
      type: 'string',
      format: 'uri',
    };
    expect(kinds(diffDefinitions(pristine, s))).toEqual([
      'field-added field /website added (string)',
      'field-retyped field /employeesCount changed type from integer to number',
    ]);
    expect(problemsOf(s)).toEqual([]);
  });

  it('guesses a move when a field of the same name and type appears in another object, and asks for a move step', () => {
    const s = clone();
    const props = json(s, CONTRACTOR).properties;
    props.bank.properties.fax = props.fax;
    delete props.fax;
    expect(kinds(diffDefinitions(pristine, s))).toEqual(['field-renamed! removed /fax, added /bank/fax (moved?)']);
    expect(problemsOf(s)[0]?.message).toMatch(
      /^\/fax was removed \(moved to \/bank\/fax\?\) but .*\{ "op": "move", "from": "\/fax", "to": "\/bank\/fax" \}$/,
    );
    migrate(s, 2, [{ op: 'move', from: '/fax', to: '/bank/fax' }]);
    expect(problemsOf(s)).toEqual([]);
  });

  it('calls a free field turned into a closed list breaking until a mapValues says what becomes of other values', () => {
    const s = clone();
    json(s, CONTRACTOR).properties.accountant.enum = ['IN_HOUSE', 'OUTSOURCED'];
    expect(kinds(diffDefinitions(pristine, s))).toEqual([
      'values-limited! field /accountant is now limited to IN_HOUSE, OUTSOURCED (stored values outside the list become invalid)',
    ]);
    expect(problemsOf(s)).toHaveLength(1);
    migrate(s, 2, [{ op: 'mapValues', path: '/accountant', map: { '': 'IN_HOUSE' } }]);
    expect(problemsOf(s)).toEqual([]);
  });

  it('reports a removed object once, not once per field inside it', () => {
    const s = clone();
    const bank = json(s, CONTRACTOR).properties.bank;
    expect(bank?.type).toBe('object');
    delete json(s, CONTRACTOR).properties.bank;
    expect(kinds(diffDefinitions(pristine, s))).toEqual(['field-removed! field /bank removed']);
    migrate(s, 2, [{ op: 'remove', path: '/bank' }]);
    expect(problemsOf(s)).toEqual([]);
  });
});

describe('defs:diff: machines, permissions, screens', () => {
  it('lists states, events and permissions added or removed and marks the breaking ones', () => {
    const s = clone();
    const m = json(s, 'workflows/tender.machine.json');
    m.states.ARCHIVED = { description: 'Kept for the record.', on: {} };
    m.states.FINISHED.on.ARCHIVE = { target: 'ARCHIVED', description: 'Archive it.' };
    delete m.states.FINISHED.on.REOPEN;
    m.states.PROCCESS.on.FINISH.guard.params.fields = ['/lotNumber'];
    const roles = json(s, 'schemas/_access/access.json').roles;
    const chair = roles.find((r: { code: string }) => r.code === 'chair');
    chair.permissions = chair.permissions.filter((p: string) => p !== 'update Tender');
    roles.find((r: { code: string }) => r.code === 'curator').permissions.push('ARCHIVE Tender');
    const changes = diffDefinitions(pristine, s);
    expect(changes.every((c) => c.group === 'tender')).toBe(true);
    expect(kinds(changes)).toEqual([
      'state-added state ARCHIVED added',
      'guard-changed event FINISH from PROCCESS: guard changed from fieldsFilled (fields /lotNumber, /subject, /purchaseDate) to fieldsFilled (fields /lotNumber)',
      'event-removed event REOPEN removed from FINISHED (it went to PROCCESS)',
      'event-added event ARCHIVE added: FINISHED → ARCHIVED',
      'permission-removed! role chair loses "update Tender"',
      'permission-added role curator gains "ARCHIVE Tender"',
    ]);
    const text = formatChanges(changes, 'main');
    expect(text).toMatch(/^Definitions changed since main: 6 changes, 1 breaking\.\n\ntender\n/);
    expect(text).toContain(
      '  BREAKING  role chair loses "update Tender"  (schemas/_access/access.json#/roles/1/permissions)',
    );
    expect(text).toContain('            state ARCHIVED added  (workflows/tender.machine.json#/states/ARCHIVED)');
  });

  it('marks a removed state, a removed role and a stricter screen breaking; lists grid columns and menu entries', () => {
    const s = clone();
    const m = json(s, 'workflows/tender.machine.json');
    delete m.states.FINISHED;
    m.states.PROCCESS.on.FINISH.target = 'PROCCESS';
    const access = json(s, 'schemas/_access/access.json');
    access.roles = access.roles.filter((r: { code: string }) => r.code !== 'jurist');
    json(s, 'screens/contractor-detail.json').permission = 'update Contractor';
    delete json(s, 'screens/contractor-list.json').menu;
    json(s, 'schemas/contractor/grid.json').columns.push({
      field: '/email',
      titleKey: 'entity.contractor.field.email',
    });
    expect(kinds(diffDefinitions(pristine, s))).toEqual([
      'column-added grid column /email added',
      'screen-permission-changed! screen contractor-detail now needs "update Contractor" (was "read Contractor")',
      'menu-removed screen contractor-list left the menu',
      'state-removed! state FINISHED removed (records stored in it are stranded)',
      'transition-retargeted event FINISH from PROCCESS now goes to PROCCESS (was FINISHED)',
      'role-removed! role jurist removed (its users lose every right it gave)',
    ]);
  });
});

describe('defs:diff: entities, field rules, the guest', () => {
  it('lists an entity removed (breaking) with its screens, a read-only field and a guest right', () => {
    const s = clone();
    for (const file of [...s.keys()])
      if (file.startsWith('schemas/vacancy/') || file.startsWith('screens/vacancy-')) s.delete(file);
    const access = json(s, 'schemas/_access/access.json');
    access.guest.permissions = access.guest.permissions.filter((p: string) => p !== 'create OnlineReport');
    access.roles.find((r: { code: string }) => r.code === 'chair').readOnlyFields = [
      { subject: 'Tender', fields: ['/lotNumber'] },
    ];
    put(s, 'screens/tender-archive.json', {
      id: 'tender-archive',
      route: '/tenders/archive',
      kind: 'list',
      entity: 'tender',
    });
    const changes = diffDefinitions(pristine, s);
    expect(kinds(changes.filter((c) => c.group === 'vacancy'))).toEqual([
      'entity-removed! entity removed (its stored records are no longer reachable)',
      ...['detail', 'edit', 'list', 'new']
        .filter((k) => pristine.has(`screens/vacancy-${k}.json`))
        .map((k) => expect.stringMatching(new RegExp(`^screen-removed screen vacancy-${k} removed`))),
    ]);
    expect(kinds(changes.filter((c) => c.group !== 'vacancy'))).toEqual([
      'permission-removed! the guest loses "create OnlineReport"',
      'screen-added screen tender-archive added (/tenders/archive)',
      'field-rule-added! role chair may no longer change /lotNumber of Tender',
    ]);
    expect(changes.find((c) => c.text.includes('the guest'))?.group).toBe('online-report');
  });
});

describe('the commands against a git ref', () => {
  const git = (dir: string, ...args: string[]) =>
    execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@example.uz', ...args], { stdio: 'pipe' });
  const tsx = (dir: string, script: string, ...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'scripts', script), ...args], {
      cwd: dir,
      encoding: 'utf8',
    });

  it('defs:diff and check --base compare the working tree with a committed ref', () => {
    mkdirSync(path.join(REPO_ROOT, '.tmp'), { recursive: true });
    const dir = mkdtempSync(path.join(REPO_ROOT, '.tmp', 'defs-diff-'));
    try {
      for (const part of ['schemas', 'workflows', 'screens', 'src/i18n/locales', 'docs'])
        cpSync(path.join(REPO_ROOT, part), path.join(dir, part), { recursive: true });
      git(dir, 'init', '-q', '-b', 'main');
      git(dir, 'add', '-A');
      git(dir, 'commit', '-q', '-m', 'base');
      const file = path.join(dir, CONTRACTOR);
      const schema = JSON.parse(readFileSync(file, 'utf8'));
      const status = schema.properties.businessStatus;
      status.oneOf = status.oneOf.filter((o: { const: string }) => o.const !== 'BANKRUPT');
      writeFileSync(file, JSON.stringify(schema, null, 2));
      git(dir, 'commit', '-q', '-am', 'drop BANKRUPT');

      const diff = tsx(dir, 'defs-diff.ts', 'HEAD~1', dir);
      expect(diff.status, diff.stderr).toBe(0);
      expect(diff.stdout).toContain('Definitions changed since HEAD~1: 1 change, 1 breaking.');
      expect(diff.stdout).toContain('contractor\n  BREAKING  field /businessStatus: value BANKRUPT removed');

      const failing = tsx(dir, 'check.ts', dir, '--base', 'main~1');
      expect(failing.status).toBe(1);
      expect(failing.stderr).toContain(
        'schemas/contractor/schema.json#/properties/businessStatus: /businessStatus no longer allows the value BANKRUPT but no migration',
      );

      expect(tsx(dir, 'check.ts', dir, '--base=main').status).toBe(0);

      // The rename, uncommitted: the working tree is compared, and the message names the step.
      const renamed = JSON.parse(readFileSync(file, 'utf8'));
      renamed.properties.directorName = renamed.properties.director;
      delete renamed.properties.director;
      writeFileSync(file, JSON.stringify(renamed, null, 2));
      const rename = tsx(dir, 'check.ts', dir, '--base', 'main');
      expect(rename.status).toBe(1);
      expect(rename.stderr).toContain(
        'schemas/contractor/schema.json#/properties/director: /director was removed (renamed to /directorName?) but no migration in ' +
          'schemas/contractor/migrations/ covers it: bump schemaVersion to 2 in schemas/contractor/entity.json and add ' +
          'migrations/2.json with { "op": "rename", "from": "/director", "to": "/directorName" }',
      );
      const unknown = tsx(dir, 'defs-diff.ts', 'no-such-branch', dir);
      expect(unknown.status).toBe(2);
      expect(unknown.stderr).toContain('"no-such-branch" names no commit');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('npm run check passes --base to the definitions step, not to the end of a chain', () => {
    const result = spawnSync('npm', ['run', '-s', 'check', '--', '--base', 'no-such-branch'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('check --base: "no-such-branch" names no commit');
  });
});
